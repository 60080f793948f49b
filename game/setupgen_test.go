package game

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSetupChainScoresSwaps checks the chain's shortcut: the change of its
// local score over a swap equals the change of the whole set-up's score, for
// any weights, with and without empty squares, Flags and Bombs.
func TestSetupChainScoresSwaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w setupWeights
	for i := range w {
		w[i] = int16(rng.IntN(2001) - 1000)
	}
	for i, army := range []Army{classicArmy, classicArmy, barrageArmy, barrageArmy, {Flag: 3, Bomb: 9, Scout: 4}, {Flag: 1, Bomb: 38, Scout: 1}, {Flag: 1, Bomb: 5, Spy: 3}, {Flag: 1, Bomb: 5, Spy: 3}} {
		pieces := armyPieces(army)
		// A pinned Flag, or none pinned: the score takes other shortcuts then.
		pin := rng.IntN(setupCells)
		if i%2 == 1 {
			pin = -1
		}
		ch := newSetupChain(&w, pieces, pin, rng)
		for range 3000 {
			a, b := rng.IntN(setupCells), rng.IntN(setupCells)
			x, y := ch.cell[a], ch.cell[b]
			if a == b || x == y || a == ch.pin || b == ch.pin {
				continue
			}
			guards, fills := ch.swapKinds(a, b, x, y)
			s0 := ch.setup()
			before := ch.localScore(a, b, guards, fills)
			ch.swap(a, b)
			s1 := ch.setup()
			after := ch.localScore(a, b, guards, fills)
			if got, want := int64(after-before), setupScore(&w, &s1)-setupScore(&w, &s0); got != want {
				t.Fatalf("army %v: swapping cells %d and %d (%v, %v) changes the local score by %d, the score by %d", army, a, b, x, y, got, want)
			}
			// The chain's books agree with its squares.
			for i := range ch.pieces {
				if c := ch.piece[i]; ch.cell[c] == NoRank || int(ch.index[c]) != i {
					t.Fatalf("army %v: piece %d is listed on cell %d, which holds %v with index %d", army, i, c, ch.cell[c], ch.index[c])
				}
			}
			for row := range SetupRows {
				n := 0
				for _, r := range s1[row] {
					if r != NoRank {
						n++
					}
				}
				if int(ch.fill[row]) != n {
					t.Fatalf("army %v: row %d counted %d pieces, holds %d", army, row, ch.fill[row], n)
				}
			}
		}
	}
}

// TestSetupChainFollowsWeights checks that the chain obeys its weights: a
// rank with a large weight on a square is nearly always found there, and a
// strongly disliked pair is nearly never seen; and the Flag stays where it was put.
func TestSetupChainFollowsWeights(t *testing.T) {
	var w setupWeights
	// The Spy wants the back-left corner; Bombs hate standing beside each other on the back row.
	w[wBeside+(3*NumRanks+int(Bomb))*NumRanks+int(Bomb)] = -8 * setupWeightScale
	pieces := armyPieces(classicArmy)
	w[wRank+30*NumRanks+int(Spy)] = 8 * setupWeightScale
	corner, bombPairs := 0, 0
	const draws = 60
	for seed := range uint64(draws) {
		rng := rand.New(rand.NewPCG(seed, 3))
		ch := newSetupChain(&w, pieces, 15, rng)
		// Longer than the generator's run: one square out of 40 takes a while to find.
		ch.run(200*len(pieces), rng)
		s := ch.setup()
		if s[1][5] != Flag || s.Counts() != classicArmy {
			t.Fatalf("seed %d: the Flag left its pinned square or pieces changed:\n%s", seed, FormatSetup(s, NumberingModern))
		}
		if s[3][0] == Spy {
			corner++
		}
		for col := range 9 {
			if s[3][col] == Bomb && s[3][col+1] == Bomb {
				bombPairs++
			}
		}
	}
	// Unweighted, the Spy is in the corner 1 time in 40 and the back row has
	// about 0.2 pairs of Bombs.
	if corner < draws*9/10 {
		t.Errorf("the Spy is in its corner in %d of %d set-ups, want nearly all", corner, draws)
	}
	if bombPairs > draws/20 {
		t.Errorf("%d pairs of Bombs side by side on the back row in %d set-ups, want nearly none", bombPairs, draws)
	}
}

func TestLetPieceStep(t *testing.T) {
	tests := []struct {
		name  string
		setup string // front row first; . empty
	}{
		// Bombs on the six front squares that face no lake, the rest walled in behind them.
		{"classic bombs in the lanes", "BB23BB23BB 2222222222 2222222222 222222222F"},
		{"one scout behind bombs", "BBBBBBBBBB BBBBBBBBBB BBBBBBBBBB BBBBB2BBBF"},
		{"a scout boxed in on a sparse board", ".......... ........B. .......B2B ........BF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parseSetupRows(t, tt.setup)
			if pieceCanStep(&s) {
				t.Fatalf("the set-up already lets a piece step")
			}
			want := s.Counts()
			for seed := range uint64(20) {
				got := s
				letPieceStep(&got, rand.New(rand.NewPCG(seed, 0)))
				if !pieceCanStep(&got) {
					t.Fatalf("seed %d: still no piece can step:\n%s", seed, FormatSetup(got, NumberingModern))
				}
				if got.Counts() != want {
					t.Fatalf("seed %d: the pieces changed", seed)
				}
				// The game agrees: it does not end at move 0.
				rules := DefaultRules(VariantCustom)
				rules.Army = want
				g, err := NewGame(rules, got, got)
				if err != nil {
					t.Fatal(err)
				}
				if g.Result().Over() {
					t.Fatalf("seed %d: the game ends at once: %v", seed, g.Result())
				}
			}
		})
	}
	// Nothing movable: nothing to do, and no panic.
	s := parseSetupRows(t, "BBBBBBBBBB .......... .......... ........BF")
	before := s
	letPieceStep(&s, rand.New(rand.NewPCG(1, 1)))
	if s != before {
		t.Errorf("a set-up of Bombs and a Flag was changed")
	}
}

// pieceCanStep reports whether some piece of s can step at move 0.
func pieceCanStep(s *Setup) bool {
	for row := range s {
		for col := range s[row] {
			if canStepAtStart(s, setupCell{row, col}) {
				return true
			}
		}
	}
	return false
}

// parseSetupRows reads four rows of ten characters, front row first: . for
// empty, B, F, S, I, or a modern number 2-9 (0 for the Marshal).
func parseSetupRows(t *testing.T, text string) Setup {
	t.Helper()
	var s Setup
	letters := map[byte]Rank{'.': NoRank, 'B': Bomb, 'F': Flag, 'S': Spy, 'I': Infiltrator, '0': Marshal,
		'2': Scout, '3': Miner, '4': Sergeant, '5': Lieutenant, '6': Captain, '7': Major, '8': Colonel, '9': General}
	row, col := 0, 0
	for i := range len(text) {
		if text[i] == ' ' {
			continue
		}
		r, ok := letters[text[i]]
		if !ok || row >= SetupRows {
			t.Fatalf("bad set-up %q at %d", text, i)
		}
		s[row][col] = r
		if col++; col == 10 {
			row, col = row+1, 0
		}
	}
	return s
}

// TestRandomSetupOdds checks the estimate of where RandomSetup puts each
// rank against the set-ups it makes: per row, the expected number of each
// rank is close to the count in real draws.
func TestRandomSetupOdds(t *testing.T) {
	for _, rules := range []Rules{DefaultRules(VariantInfiltrator), customRules(t, "10 9 8 8 3 3 2 2 2 S B B F")} {
		odds := RandomSetupOdds(rules)
		var want [SetupRows][NumRanks]float64
		var total [NumRanks]float64
		for row := range odds {
			for col := range odds[row] {
				sum := 0.0
				for r, p := range odds[row][col] {
					sum += p
					want[row][r] += p
					total[r] += p
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Fatalf("%s: the shares of row %d column %d sum to %v", rulesName(rules), row, col, sum)
				}
			}
		}
		for _, r := range Ranks {
			// Exact but for the Flag's odds, put in place of the sampled ones.
			if math.Abs(total[r]-float64(rules.Army[r])) > 0.05 {
				t.Errorf("%s: %.3f %s expected in all, the army has %d", rulesName(rules), total[r], r.Plural(), rules.Army[r])
			}
		}
		const draws = 1000
		var got [SetupRows][NumRanks]float64
		for seed := range uint64(draws) {
			s := RandomSetup(rules, seed)
			for row := range s {
				for _, r := range s[row] {
					got[row][r] += 1.0 / draws
				}
			}
		}
		for row := range got {
			for _, r := range Ranks {
				// Three standard errors of the estimate, which follows 128
				// runs of the chain (the draws are 1,000 set-ups): 0.15
				// piece, or 15% for ranks with many pieces.
				if d := math.Abs(got[row][r] - want[row][r]); d > max(0.15, 0.15*want[row][r]) {
					t.Errorf("%s: row %d: %.2f %s expected, %.2f drawn", rulesName(rules), row+1, want[row][r], r.Plural(), got[row][r])
				}
			}
		}
	}
}

// TestFlagNeverOnAnOpenFrontSquare: the Flag is never drawn where nothing can
// cover it from the enemy Scouts' first move.
func TestFlagNeverOnAnOpenFrontSquare(t *testing.T) {
	for _, v := range []Variant{VariantClassic, VariantBarrage} {
		f := loadRealSetups().flagSquares(v)
		for col := range 10 {
			if open := !SquareAt(col, SetupRows).IsLake(); open != (f[col] == 0) {
				t.Errorf("%s: front-row column %d counts %d for the Flag", v, col+1, f[col])
			}
		}
	}
}
