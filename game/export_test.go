package game

import "testing"

// What the external tests (package game_test) need of the inside. They live
// outside because they use game/gametest, which imports this package.

// ResetFrom makes g a copy of start whose history and position list reuse
// the given buffers, so that a benchmark measures moves, not allocations.
func (g *Game) ResetFrom(start *Game, moves []MoveRecord, positions []uint64) {
	*g = *start
	g.moves, g.chase.positions = moves[:0], positions[:0]
}

// ApplyUnchecked applies a move known to be legal, as a random playout does.
func (g *Game) ApplyUnchecked(m Move) MoveRecord { return g.apply(m) }

// CheckConsistent fails t when g's derived state drifted from its pieces.
func CheckConsistent(t *testing.T, g *Game) { checkConsistent(t, g) }

// GravonRoundTrip writes a record as Gravon XML and reads it back.
func GravonRoundTrip(t testing.TB, rec *Record) *Record { return gvRoundTrip(t, rec) }
