package game_test

import (
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// midGames returns positions 60–140 plies into random Classic games.
func midGames(b *testing.B, n int) []*game.Game {
	var games []*game.Game
	for seed := uint64(0); len(games) < n; seed++ {
		g := gametest.Game(b, game.DefaultRules(game.VariantClassic), seed, 60+int(seed%80), nil)
		if !g.Result().Over() {
			games = append(games, g)
		}
	}
	return games
}

// BenchmarkLegalMoves generates every legal move in mid-game Classic positions.
func BenchmarkLegalMoves(b *testing.B) {
	games := midGames(b, 32)
	buf := make([]game.Move, 0, 256)
	generated := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = games[i%len(games)].AppendLegalMoves(buf[:0])
		generated += len(buf)
	}
	b.ReportMetric(float64(generated)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkApply replays recorded random games move by move through Apply
// (which checks each move, updates the repetition state and looks for the end
// of the game), on a reused game so that only the moves are measured.
func BenchmarkApply(b *testing.B) {
	type recorded struct {
		start *game.Game
		moves []game.Move
	}
	var games []recorded
	for seed := uint64(0); len(games) < 16; seed++ {
		g := gametest.Game(b, game.DefaultRules(game.VariantClassic), seed, 0, nil)
		start := g.Clone()
		end := gametest.Game(b, game.DefaultRules(game.VariantClassic), seed, 2000, nil)
		var moves []game.Move
		for _, r := range end.Moves() {
			moves = append(moves, r.Move)
		}
		games = append(games, recorded{start, moves})
	}
	var g game.Game
	history := make([]game.MoveRecord, 0, 4096)
	positions := make([]uint64, 0, 4096)
	applied := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := games[i%len(games)]
		g.ResetFrom(rec.start, history, positions)
		for _, m := range rec.moves {
			if _, err := g.Apply(m); err != nil {
				b.Fatal(err)
			}
		}
		applied += len(rec.moves)
	}
	b.ReportMetric(float64(applied)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkRandomPlayout plays whole Classic games of uniformly random legal
// moves with both repetition rules on: generation, choice and application.
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	rules := game.DefaultRules(game.VariantClassic)
	var starts []*game.Game
	for i := 0; i < 16; i++ {
		g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
		if err != nil {
			b.Fatal(err)
		}
		starts = append(starts, g)
	}
	var g game.Game
	history := make([]game.MoveRecord, 0, 8192)
	positions := make([]uint64, 0, 8192)
	buf := make([]game.Move, 0, 256)
	played := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.ResetFrom(starts[i%len(starts)], history, positions)
		for !g.Result().Over() && g.Ply() < 5000 {
			buf = g.AppendLegalMoves(buf[:0])
			g.ApplyUnchecked(buf[r.IntN(len(buf))])
		}
		played += g.Ply()
	}
	b.ReportMetric(float64(played)/b.Elapsed().Seconds(), "moves/s")
}
