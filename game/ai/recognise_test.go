package ai

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// beliefCheck is how well beliefs named the opponent's hidden pieces.
type beliefCheck struct {
	pieces         int
	trueRank, logP float64 // sums over the pieces of the real rank's chance, and of its log
	certain, wrong int     // pieces nearly certain, and of those the ones whose likeliest rank is not theirs
}

// add checks k's beliefs against the pieces of g.
func (c *beliefCheck) add(t *testing.T, g *game.Game, k *knowledge) {
	t.Helper()
	for i, id := range k.unknown {
		_, r, ok := g.PieceAt(k.tracks[id].Square)
		if !ok {
			t.Fatalf("no piece on %s", k.tracks[id].Square)
		}
		p := k.belief[i][r]
		c.pieces++
		c.trueRank += p
		c.logP += math.Log(max(p, 1e-4))
		if k.nearlyCertain(id) {
			c.certain++
			if slices.Max(k.belief[i][:]) != p {
				c.wrong++
			}
		}
	}
}

func (c *beliefCheck) mean() float64    { return c.trueRank / float64(c.pieces) }
func (c *beliefCheck) logMean() float64 { return c.logP / float64(c.pieces) }

// TestRecognition: against a published set-up, once its pieces have shown
// a little, hard's beliefs name most hidden pieces, and against one with two
// or four pairs of pieces swapped still many; against a set-up of the
// player's own (the generator's, which is never published) recognition costs
// the beliefs nothing that matters. Nearly certain pieces are what the
// beliefs say, swapped pairs too: the swaps hide among the squares that
// have not shown yet (see matchCopies).
func TestRecognition(t *testing.T) {
	for _, vt := range []struct {
		variant game.Variant
		index   func() *setupIndex
		// distinct published set-ups and mirror images
		distinct int
		// the least gain in the mean log chance of the real rank against a
		// published set-up: Barrage's eight pieces have mostly shown
		// themselves by then, so there is less to gain, and a shown square
		// tells less, as the board shows from the start where the pieces
		// stand (see shownSquares).
		gain float64
	}{
		{game.VariantClassic, classicIndex, 89_528, 1.0},
		{game.VariantBarrage, barrageIndex, 7_078, 0.4},
	} {
		t.Run(vt.variant.String(), func(t *testing.T) {
			testRecognition(t, vt.variant, vt.index(), vt.distinct, vt.gain)
		})
	}
}

func testRecognition(t *testing.T, v game.Variant, idx *setupIndex, distinct int, gain float64) {
	if idx == nil {
		t.Fatalf("the published %s set-ups are not indexed", v)
	}
	if len(idx.cells) != distinct {
		t.Fatalf("%d distinct published %s set-ups and mirror images indexed, want %d", len(idx.cells), v, distinct)
	}
	published, err := game.PublishedSetups(v)
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(v)
	swapped := func(s game.Setup, seed uint64, swaps int) game.Setup {
		rng := rand.New(rand.NewPCG(seed, 3))
		for range swaps {
			a, b := rng.IntN(40), rng.IntN(40)
			s[a/10][a%10], s[b/10][b%10] = s[b/10][b%10], s[a/10][a%10]
		}
		return s
	}
	tests := []struct {
		name  string
		setup func(seed uint64) game.Setup
		// the least mean chance of the real rank with recognition, and the
		// least gain in its mean log over the beliefs without (negative: the
		// most it may lose).
		atLeast, gain float64
		// at most one in certainOdds nearly certain pieces may be wrong.
		certainOdds int
	}{
		{"published", func(seed uint64) game.Setup { return published[seed*997%uint64(len(published))] }, 0.65, gain, 20},
		{"published, mirrored", func(seed uint64) game.Setup { return published[seed*991%uint64(len(published))].Mirror() }, 0.65, gain, 20},
		{"published, two pairs swapped", func(seed uint64) game.Setup {
			return swapped(published[seed*983%uint64(len(published))], seed, 2)
		}, 0.5, gain / 2, 20},
		{"published, four pairs swapped", func(seed uint64) game.Setup {
			return swapped(published[seed*977%uint64(len(published))], seed, 4)
		}, 0.4, gain / 3, 10},
		{"the player's own", func(seed uint64) game.Setup { return game.RandomSetup(rules, seed+1000) }, 0, -0.05, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var with, without beliefCheck
			for seed := range uint64(16) {
				g, v := playedView(t, rules, tc.setup(seed), seed, 120)
				with.add(t, g, knowledgeOf(t, &v, recognition))
				without.add(t, g, knowledgeOf(t, &v, setupsAndBehaviour))
			}
			t.Logf("mean chance of the real rank %.3f; mean log %.3f with recognition, %.3f without; %d of %d pieces nearly certain, %d of them wrongly",
				with.mean(), with.logMean(), without.logMean(), with.certain, with.pieces, with.wrong)
			if with.mean() < tc.atLeast {
				t.Errorf("the beliefs give the real rank %.3f on average, want at least %.2f", with.mean(), tc.atLeast)
			}
			if gain := with.logMean() - without.logMean(); gain < tc.gain {
				t.Errorf("recognition changes the mean log chance of the real rank by %+.3f, want at least %+.2f", gain, tc.gain)
			}
			// Nearly certain is as good as known to the search: it must
			// be right as often as it says.
			if with.wrong*tc.certainOdds > with.certain {
				t.Errorf("%d of %d nearly certain pieces are another rank, more than 1 in %d", with.wrong, with.certain, tc.certainOdds)
			}
		})
	}
}

// BenchmarkRecognisedPrior measures the prior of a mid-game Classic view
// against a published set-up.
func BenchmarkRecognisedPrior(b *testing.B) {
	published, err := game.PublishedSetups(game.VariantClassic)
	if err != nil {
		b.Fatal(err)
	}
	k := midGameKnowledge(b, published[12345])
	idx, base := classicIndex(), priorFor(k.rules)
	b.ResetTimer()
	for b.Loop() {
		k.recognisedPrior(base, base, idx)
	}
}

// midGameKnowledge is what Red knows after 150 random plies of a Classic
// game against the set-up opp.
func midGameKnowledge(b *testing.B, opp game.Setup) *knowledge {
	b.Helper()
	_, v := playedView(b, game.DefaultRules(game.VariantClassic), opp, 1, 150)
	return knowledgeOf(b, &v, setupsAndBehaviour)
}

// playedView plays plies random plies of a game of Red's generated set-up
// (seed) against blue and returns the game and Red's view.
func playedView(t testing.TB, rules game.Rules, blue game.Setup, seed uint64, plies int) (*game.Game, game.View) {
	t.Helper()
	g, err := game.NewGame(rules, game.RandomSetup(rules, seed), blue)
	if err != nil {
		t.Fatal(err)
	}
	gametest.Play(t, g, rand.New(rand.NewPCG(seed, 11)), plies, nil)
	return g, g.View(game.ViewerOf(game.Red))
}

// knowledgeOf is what v's viewer knows, read with inf.
func knowledgeOf(t testing.TB, v *game.View, inf inference) *knowledge {
	t.Helper()
	k, err := newKnowledge(v, inf)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestNearlyCertainInEveryGuess: the search takes a nearly certain piece's
// rank in a guess as known, so every guess gives each such piece its
// likeliest rank, and the counts still come out right.
func TestNearlyCertainInEveryGuess(t *testing.T) {
	published, err := game.PublishedSetups(game.VariantClassic)
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(game.VariantClassic)
	certain := 0
	for seed := range uint64(4) {
		_, v := playedView(t, rules, published[seed*997%uint64(len(published))], seed, 120)
		k := knowledgeOf(t, &v, recognition)
		rng := rand.New(rand.NewPCG(seed, 5))
		for range 200 {
			var guess [numIDs]game.Rank
			k.sample(rng, &guess)
			var counts game.Army
			for i, id := range k.unknown {
				counts[guess[id]]++
				if !k.nearlyCertain(id) {
					continue
				}
				certain++
				if p := k.belief[i][guess[id]]; p != slices.Max(k.belief[i][:]) {
					t.Fatalf("seed %d: the nearly certain piece on %s came out a %s (chance %.3f)", seed, k.tracks[id].Square, guess[id], p)
				}
			}
			if counts != k.pool {
				t.Fatalf("seed %d: the guess counts %v, the pool %v", seed, counts, k.pool)
			}
		}
	}
	if certain == 0 {
		t.Fatal("no piece was nearly certain: the test checks nothing")
	}
}
