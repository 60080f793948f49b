package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// pushyMove picks a move that provokes the repetition rules: often the way
// back of the side's previous move (Two-Squares), often a step next to an
// enemy piece (More-Squares chases), otherwise any legal move.
func pushyMove(g *Game, r *rand.Rand, buf []Move) Move {
	legal := g.AppendLegalMoves(buf[:0])
	n := len(g.moves)
	if c := &g.chase; c.active && r.IntN(10) < 9 {
		// Keep the chase going: the threatened piece evades, the chaser threatens a piece.
		var keep []Move
		for _, m := range legal {
			id := int(g.board[m.From]) - 1
			if g.board[m.To] != 0 || m.IsInfiltration() {
				continue
			}
			if (c.awaitingEvade && c.isThreatened(id)) || (!c.awaitingEvade && g.threatenedFrom(m.To, g.toMove) >= 0) {
				keep = append(keep, m)
			}
		}
		if len(keep) > 0 {
			return keep[r.IntN(len(keep))]
		}
	}
	switch x := r.IntN(10); {
	case x < 4 && n >= 2:
		prev := g.moves[n-2].Move
		back := Move{From: prev.To, To: prev.From}
		if slices.Contains(legal, back) {
			return back
		}
	case x < 7:
		var chasing []Move
		for _, m := range legal {
			if g.board[m.To] != 0 || m.IsInfiltration() {
				continue
			}
			for _, nb := range neighbours[m.To] {
				if nb != NoSquare && nb != m.From {
					if c := g.board[nb]; c != 0 && c != cellLake && pieceSide(int(c)-1) != g.toMove {
						chasing = append(chasing, m)
						break
					}
				}
			}
		}
		if len(chasing) > 0 {
			return chasing[r.IntN(len(chasing))]
		}
	}
	return legal[r.IntN(len(legal))]
}

// TestLegalMovesFromView checks, over many positions of games played to
// provoke the repetition rules, that what a player knows is enough to find
// exactly the real game's legal moves, and that the rebuilt game has the same
// piece numbers, position hash, repetition state and result.
func TestLegalMovesFromView(t *testing.T) {
	classic5 := DefaultRules(VariantClassic)
	classic5.TwoSquares = 5
	loose := DefaultRules(VariantClassic)
	loose.TwoSquares, loose.MoreSquares, loose.ScoutStrikesAtRange = 0, false, false
	limited := DefaultRules(VariantBarrage)
	limited.MaxMoves = 60
	tests := []struct {
		name  string
		rules Rules
		games int
		plies int
	}{
		{"classic", DefaultRules(VariantClassic), 6, 300},
		{"classic two-squares 5", classic5, 3, 300},
		{"classic without repetition rules", loose, 2, 200},
		{"barrage", DefaultRules(VariantBarrage), 10, 300},
		{"barrage with a move limit", limited, 4, 100},
		{"duel", DefaultRules(VariantDuel), 8, 300},
		{"infiltrator", DefaultRules(VariantInfiltrator), 4, 300},
		{"custom", customRules(t, "10 9 8 8 3 3 2 2 2 S I B B F"), 6, 300},
	}
	var checked, twoSquares, moreSquares int
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]Move, 0, 256)
			for game := 0; game < tc.games; game++ {
				seed := uint64(game)
				r := rand.New(rand.NewPCG(seed, 77))
				g, err := NewGame(tc.rules, RandomSetup(tc.rules, seed), RandomSetup(tc.rules, seed+1000))
				if err != nil {
					t.Fatal(err)
				}
				for ply := 0; ply <= tc.plies; ply++ {
					if ply%5 == int(seed%5) || g.Result().Over() {
						checkFromView(t, g)
						checked++
						loose := g.Clone()
						loose.rules.TwoSquares = 0
						if len(loose.LegalMoves()) != len(g.LegalMoves()) {
							twoSquares++
						}
						loose.rules.MoreSquares = false
						loose.rules.TwoSquares = g.rules.TwoSquares
						if len(loose.LegalMoves()) != len(g.LegalMoves()) {
							moreSquares++
						}
					}
					if g.Result().Over() {
						break
					}
					if _, err := g.Apply(pushyMove(g, r, buf)); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
	t.Logf("%d positions, %d restricted by Two-Squares, %d by More-Squares", checked, twoSquares, moreSquares)
	if twoSquares < 20 || moreSquares < 5 {
		t.Errorf("only %d positions restricted by Two-Squares and %d by More-Squares: the test does not exercise the repetition state", twoSquares, moreSquares)
	}
}

func checkFromView(t *testing.T, g *Game) {
	t.Helper()
	for _, viewer := range []Viewer{RedViewer, BlueViewer, PublicViewer} {
		v := g.View(viewer)
		tracks, err := v.Tracks()
		if err != nil {
			t.Fatalf("ply %d, %v: %v", g.Ply(), viewer, err)
		}
		n := [2]int{}
		for _, tr := range tracks {
			id := int(tr.Side)*MaxPieces + n[tr.Side]
			n[tr.Side]++
			p := g.pieces[id]
			if tr.Square != p.sq || (tr.Rank != NoRank && tr.Rank != p.rank) || tr.Moved != p.moved || tr.KnownScout != p.scout {
				t.Fatalf("ply %d, %v: track %+v is piece %d %+v", g.Ply(), viewer, tr, id, p)
			}
			if row, col, ok := SetupCell(tr.Side, tr.Start); !ok || g.setups[tr.Side][row][col] != p.rank {
				t.Fatalf("ply %d, %v: track %+v did not start there", g.Ply(), viewer, tr)
			}
			if side, own := viewer.IsPlayer(); own && side == tr.Side && tr.Rank == NoRank {
				t.Fatalf("ply %d, %v: own piece without rank", g.Ply(), viewer)
			}
		}
		rebuilt, err := GameFromView(v)
		if err != nil {
			t.Fatalf("ply %d, %v: %v", g.Ply(), viewer, err)
		}
		if rebuilt.hash != g.hash || rebuilt.runs != g.runs || rebuilt.Result() != g.Result() || rebuilt.toMove != g.toMove {
			t.Fatalf("ply %d, %v: rebuilt game differs: hash %x/%x runs %+v/%+v result %v/%v",
				g.Ply(), viewer, rebuilt.hash, g.hash, rebuilt.runs, g.runs, rebuilt.Result(), g.Result())
		}
		rc, gc := rebuilt.chase, g.chase
		if rc.active != gc.active || (gc.active && (rc.chaser != gc.chaser || rc.awaitingEvade != gc.awaitingEvade ||
			rc.target != gc.target || rc.threatened != gc.threatened || !slices.Equal(rc.positions, gc.positions))) {
			t.Fatalf("ply %d, %v: chase %+v, want %+v", g.Ply(), viewer, rc, gc)
		}
		if viewer == ViewerOf(g.ToMove()) {
			got, err := v.LegalMoves()
			if err != nil {
				t.Fatal(err)
			}
			if want := g.LegalMoves(); !slices.Equal(got, want) {
				t.Fatalf("ply %d, %v: legal moves from the view\n%v\nwant\n%v", g.Ply(), viewer, got, want)
			}
		} else if _, err := v.LegalMoves(); !errors.Is(err, ErrNotYourTurn) {
			t.Fatalf("ply %d, %v lists moves out of turn: %v", g.Ply(), viewer, err)
		}
	}
}
