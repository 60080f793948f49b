package ai

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// testPlayer is a player whose search is small enough for tests under the
// race detector, and bounded by nodes only, so that it is deterministic
// however slow the machine.
func testPlayer(level Level, seed uint64) *Player {
	p := New(level, seed)
	p.cfg.timeCap = 0
	if p.cfg.nodeBudget > 8_000 {
		p.cfg.nodeBudget = 8_000
	}
	if p.cfg.samples > 6 {
		p.cfg.samples = 6
	}
	return p
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    Level
		wantErr bool
	}{
		{"random", Random, false},
		{"Easy", Easy, false},
		{" normal ", Normal, false},
		{"medium", Normal, false},
		{"HARD", Hard, false},
		{"impossible", Random, true},
		{"", Random, true},
	}
	for _, tc := range tests {
		got, err := ParseLevel(tc.in)
		if (err != nil) != tc.wantErr || (err == nil && got != tc.want) {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	for _, l := range Levels {
		text, _ := l.MarshalText()
		var back Level
		if err := back.UnmarshalText(text); err != nil || back != l {
			t.Errorf("%v does not survive MarshalText/UnmarshalText: %v %v", l, back, err)
		}
	}
}

// variantRules is one set of rules of each kind the player must handle.
func variantRules(t testing.TB) map[string]game.Rules {
	noRange := game.DefaultRules(game.VariantBarrage)
	noRange.ScoutStrikesAtRange, noRange.TwoSquares, noRange.MoreSquares = false, 5, false
	return map[string]game.Rules{
		"classic":     game.DefaultRules(game.VariantClassic),
		"barrage":     game.DefaultRules(game.VariantBarrage),
		"barrage-old": noRange,
		"duel":        game.DefaultRules(game.VariantDuel),
		"infiltrator": game.DefaultRules(game.VariantInfiltrator),
		"custom":      gametest.CustomRules(t, "10 9 8 8 3 3 2 2 2 S I B B F"),
	}
}

// newGame starts a game with the player's set-ups.
func newGame(t testing.TB, rules game.Rules, seed uint64) *game.Game {
	t.Helper()
	g, err := game.NewGame(rules, Setup(rules, seed), Setup(rules, seed+1))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playOut lets two players play up to plies moves and fails on any error or
// illegal choice.
func playOut(t testing.TB, g *game.Game, players [2]*Player, plies int) {
	t.Helper()
	for i := 0; i < plies && !g.Result().Over(); i++ {
		side := g.ToMove()
		m, err := players[side].Choose(g.View(game.ViewerOf(side)))
		if err != nil {
			t.Fatalf("ply %d, %s (%s): %v", g.Ply()+1, side, players[side].Level(), err)
		}
		if _, err := g.Apply(m); err != nil {
			t.Fatalf("ply %d, %s (%s) chose %s: %v", g.Ply()+1, side, players[side].Level(), m, err)
		}
	}
}

// TestEveryLevelPlaysLegalMoves plays short games at every level in every
// variant; every chosen move must be accepted by the rules.
func TestEveryLevelPlaysLegalMoves(t *testing.T) {
	for name, rules := range variantRules(t) {
		for _, level := range Levels {
			t.Run(name+"/"+level.String(), func(t *testing.T) {
				t.Parallel()
				plies := 80
				if level == Hard {
					plies = 10
				}
				g := newGame(t, rules, uint64(level)+7)
				playOut(t, g, [2]*Player{testPlayer(level, 1), testPlayer(Random, 2)}, plies)
				g2 := newGame(t, rules, uint64(level)+8)
				playOut(t, g2, [2]*Player{testPlayer(Random, 3), testPlayer(level, 4)}, plies)
			})
		}
	}
}

// TestChooseAfterARecordedChase: a match whose log holds a move the
// More-Squares rule now refuses (gametest.ChaseInTurn, replayed as recorded)
// still gets the computer's moves, at every level and for both sides, and
// they are legal: never the chasing move the rule refuses.
func TestChooseAfterARecordedChase(t *testing.T) {
	g, log := gametest.ChaseInTurn(t)
	for _, m := range log {
		if _, err := g.ApplyRecorded(m); err != nil {
			t.Fatalf("recorded %s: %v", m, err)
		}
	}
	move := func(text string) game.Move {
		m, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	choose := func() {
		side := g.ToMove()
		for _, level := range Levels {
			m, err := testPlayer(level, 5).Choose(g.View(game.ViewerOf(side)))
			if err != nil {
				t.Fatalf("%s (%s): %v", side, level, err)
			}
			if _, err := g.Clone().Apply(m); err != nil {
				t.Fatalf("%s (%s) chose %s: %v", side, level, m, err)
			}
		}
	}
	choose() // Blue's
	if _, err := g.Apply(move("I6-J6")); err != nil {
		t.Fatal(err)
	}
	if err := g.Check(move("E5-E6")); err == nil {
		t.Fatal("test set-up: E5-E6 should break the More-Squares rule")
	}
	choose() // Red's
}

// TestChooseIgnoresHiddenRanks is the leak test: shuffling the opponent's
// pieces that the player cannot tell apart never changes its choice.
func TestChooseIgnoresHiddenRanks(t *testing.T) {
	rules := variantRules(t)
	tests := []struct {
		name  string
		rules game.Rules
		plies []int
	}{
		{"classic", rules["classic"], []int{0, 1, 30, 81, 160}},
		{"barrage", rules["barrage"], []int{6, 41, 90}},
		{"infiltrator", rules["infiltrator"], []int{50, 120}},
		{"custom", rules["custom"], []int{20, 70}},
	}
	for _, tc := range tests {
		for _, level := range []Level{Random, Easy, Normal, Hard} {
			t.Run(tc.name+"/"+level.String(), func(t *testing.T) {
				t.Parallel()
				for i, plies := range tc.plies {
					g := newGame(t, tc.rules, uint64(i))
					gametest.Play(t, g, rand.New(rand.NewPCG(uint64(i), 5)), plies, nil)
					if g.Result().Over() {
						continue
					}
					side := g.ToMove()
					p := testPlayer(level, uint64(i)+99)
					want, err := p.Choose(g.View(game.ViewerOf(side)))
					if err != nil {
						t.Fatal(err)
					}
					for shuffle := uint64(0); shuffle < 3; shuffle++ {
						other := gametest.ShuffleHidden(t, g, side.Opponent(), shuffle)
						if !reflect.DeepEqual(other.View(game.ViewerOf(side)), g.View(game.ViewerOf(side))) {
							t.Fatal("ShuffleHidden changed the player's view")
						}
						got, err := p.Choose(other.View(game.ViewerOf(side)))
						if err != nil {
							t.Fatal(err)
						}
						if got != want {
							t.Fatalf("ply %d: %s with the opponent's hidden pieces shuffled, %s without", plies, got, want)
						}
					}
				}
			})
		}
	}
}

// TestChooseIsDeterministic checks that a seed fixes the choice, and that
// a Player can be shared by goroutines.
func TestChooseIsDeterministic(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	g := newGame(t, rules, 11)
	playOut(t, g, [2]*Player{testPlayer(Random, 1), testPlayer(Random, 2)}, 30)
	v := g.View(game.ViewerOf(g.ToMove()))
	for _, level := range Levels {
		p := testPlayer(level, 42)
		want, err := p.Choose(v)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan game.Move, 4)
		for range 4 {
			go func() {
				m, err := p.Choose(v)
				if err != nil {
					t.Error(err)
				}
				done <- m
			}()
		}
		for range 4 {
			if m := <-done; m != want {
				t.Errorf("%v: %s, then %s from the same seed and view", level, want, m)
			}
		}
	}
}

func TestChooseErrors(t *testing.T) {
	g := newGame(t, game.DefaultRules(game.VariantDuel), 3)
	over := newGame(t, game.DefaultRules(game.VariantDuel), 4)
	if err := over.Resign(game.Red); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		v    game.View
		want error
	}{
		{"public view", g.View(game.PublicViewer), ErrNotPlayerView},
		{"not its turn", g.View(game.BlueViewer), game.ErrNotYourTurn},
		{"game over", over.View(game.BlueViewer), game.ErrGameOver},
	}
	for _, tc := range tests {
		for _, level := range Levels {
			if _, err := testPlayer(level, 1).Choose(tc.v); !errors.Is(err, tc.want) {
				t.Errorf("%s, %v: error %v, want %v", tc.name, level, err, tc.want)
			}
		}
	}
}

// scripted starts a Custom game of army with pieces placed on the named
// squares and plays the moves given in notation.
func scripted(t *testing.T, army string, red, blue map[string]game.Rank, moves ...string) *game.Game {
	t.Helper()
	return gametest.Scripted(t, gametest.CustomRules(t, army), red, blue, moves...)
}

// TestTactics checks choices any level but random must get right.
func TestTactics(t *testing.T) {
	type check func(m game.Move) bool
	is := func(text string) check {
		return func(m game.Move) bool { return m.String() == text }
	}
	tests := []struct {
		name      string
		army      string
		red, blue map[string]game.Rank
		moves     []string
		want      check
		describe  string
	}{
		{
			name: "take the Flag that is the last unmoved piece",
			army: "9 3 F",
			red:  map[string]game.Rank{"E4": game.General, "A1": game.Miner, "J1": game.Flag},
			blue: map[string]game.Rank{"E7": game.Flag, "A10": game.Miner, "J10": game.General},
			// Both of Blue's movable pieces have moved: E7 can only be the Flag.
			moves:    []string{"E4-E5", "A10-A9", "E5-E6", "J10-J9"},
			want:     is("E6-E7"),
			describe: "E6xE7",
		},
		{
			name: "run from a known stronger piece",
			army: "10 9 3 F",
			red:  map[string]game.Rank{"E4": game.Miner, "F4": game.General, "A1": game.Marshal, "J1": game.Flag},
			blue: map[string]game.Rank{"E7": game.Marshal, "A10": game.Miner, "J10": game.General, "E10": game.Flag},
			// Blue's Marshal shows itself by taking the Miner, next to Red's General.
			moves: []string{"F4-F5", "E7-E6", "E4-E5", "E6xE5"},
			want: func(m game.Move) bool {
				return m.From.String() == "F5" && m.To.String() != "E5"
			},
			describe: "a move of the General on F5 away from E5",
		},
		{
			name:     "take a known weaker piece",
			army:     "10 9 3 F",
			red:      map[string]game.Rank{"E4": game.Miner, "F4": game.Marshal, "A1": game.General, "J1": game.Flag},
			blue:     map[string]game.Rank{"E7": game.General, "A10": game.Miner, "J10": game.Marshal, "E10": game.Flag},
			moves:    []string{"F4-F5", "E7-E6", "E4-E5", "E6xE5"},
			want:     is("F5-E5"),
			describe: "F5xE5",
		},
	}
	for _, tc := range tests {
		for _, level := range []Level{Easy, Normal, Hard} {
			t.Run(tc.name+"/"+level.String(), func(t *testing.T) {
				g := scripted(t, tc.army, tc.red, tc.blue, tc.moves...)
				for seed := uint64(0); seed < 3; seed++ {
					m, err := testPlayer(level, seed).Choose(g.View(game.ViewerOf(g.ToMove())))
					if err != nil {
						t.Fatal(err)
					}
					if !tc.want(m) {
						t.Errorf("seed %d: played %s, want %s", seed, m, tc.describe)
					}
				}
			})
		}
	}
}

// TestBeliefs checks, over positions of random games, that the beliefs are
// distributions that respect what is known, that their expected counts
// match the ranks left, and that samples respect the counts exactly.
func TestBeliefs(t *testing.T) {
	for name, rules := range variantRules(t) {
		t.Run(name, func(t *testing.T) {
			for seed := uint64(0); seed < 6; seed++ {
				g := newGame(t, rules, seed)
				gametest.Play(t, g, rand.New(rand.NewPCG(seed, 9)), int(20+seed*40), nil)
				if g.Result().Over() {
					continue
				}
				v := g.View(game.ViewerOf(g.ToMove()))
				for _, inf := range []inference{countsOnly, setupsAndBehaviour, recognition} {
					k, err := newKnowledge(&v, inf)
					if err != nil {
						t.Fatal(err)
					}
					checkBeliefs(t, g, k)
				}
			}
		})
	}
}

func checkBeliefs(t *testing.T, g *game.Game, k *knowledge) {
	t.Helper()
	var col [game.NumRanks]float64
	for i, id := range k.unknown {
		tr := k.tracks[id]
		sum := 0.0
		for r, p := range k.belief[i] {
			sum += p
			col[r] += p
			rank := game.Rank(r)
			if p > 0 && ((tr.Moved && !rank.Movable()) || k.pool[r] == 0) {
				t.Fatalf("%s (moved %v) may be a %s with probability %.3f", tr.Square, tr.Moved, rank, p)
			}
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("%s: probabilities sum to %f", tr.Square, sum)
		}
		if _, real, _ := g.PieceAt(tr.Square); k.belief[i][real] == 0 {
			t.Fatalf("%s: the real rank %s has probability 0", tr.Square, real)
		}
	}
	for r := range col {
		if math.Abs(col[r]-float64(k.pool[r])) > 0.05 {
			t.Fatalf("expected number of %s %.3f, %d are left", game.Rank(r), col[r], k.pool[r])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20; n++ {
		var guess [numIDs]game.Rank
		k.sample(rng, &guess)
		var counts game.Army
		for _, id := range k.unknown {
			r := guess[id]
			counts[r]++
			if k.tracks[id].Moved && !r.Movable() {
				t.Fatalf("sample makes the moved piece on %s a %s", k.tracks[id].Square, r)
			}
		}
		if counts != k.pool {
			t.Fatalf("sample counts %v, pool %v", counts, k.pool)
		}
	}
}

// TestWorldAgreesWithGame plays random games on the game and, with the true
// ranks, on a world side by side: the world's moves (with the repetition
// rules off) and battles must be the game's, the score it keeps must be the
// one computed from scratch, and unmake must restore it.
func TestWorldAgreesWithGame(t *testing.T) {
	for name, rules := range variantRules(t) {
		if rules.Army[game.Infiltrator] > 0 {
			continue // the world leaves infiltrations to the root; checked by the legality test
		}
		rules.TwoSquares, rules.MoreSquares = 0, false
		t.Run(name, func(t *testing.T) {
			for seed := uint64(0); seed < 4; seed++ {
				g := newGame(t, rules, seed)
				r := rand.New(rand.NewPCG(seed, 3))
				for !g.Result().Over() && g.Ply() < 400 {
					k, v, w := truthWorld(t, g)
					w.ev = newEvaluator(k, v, configs[Hard])
					w.score = w.ev.evalFull(w)
					var all [numIDs]bool
					ms := w.genMoves(nil, &all, true, false)
					legal := g.LegalMoves()
					if len(ms) != len(legal) {
						t.Fatalf("ply %d: world has %d moves, game %d", g.Ply(), len(ms), len(legal))
					}
					m := legal[r.IntN(len(legal))]
					before := *w
					u := w.make(fromGame(m))
					if _, err := g.Apply(m); err != nil {
						t.Fatal(err)
					}
					for s := range w.board {
						gs, gr, ok := g.PieceAt(game.Square(s))
						c := w.board[s]
						if ok != (c >= 0) || (ok && (sideOf(c) != gs || w.rank[c] != gr)) {
							t.Fatalf("ply %d after %s: %s differs", g.Ply(), m, game.Square(s))
						}
					}
					if over := g.Result(); over.Over() && over.Method != game.NoLegalMoves && over.Method != game.NoMovablePieces && w.result == 0 {
						t.Fatalf("ply %d: the game ended (%v), the world did not", g.Ply(), over)
					}
					if w.score != w.ev.evalFull(w) {
						t.Fatalf("ply %d after %s: score %d kept, %d computed", g.Ply(), m, w.score, w.ev.evalFull(w))
					}
					w.unmake(u)
					if *w != before {
						t.Fatalf("ply %d: unmake of %s did not restore the world", g.Ply(), m)
					}
				}
			}
		})
	}
}

// BenchmarkChoose measures one move of each level in mid-game Classic positions.
func BenchmarkChoose(b *testing.B) {
	var views []game.View
	for seed := uint64(0); len(views) < 8; seed++ {
		g := newGame(b, game.DefaultRules(game.VariantClassic), seed)
		playOut(b, g, [2]*Player{New(Normal, seed), New(Normal, seed+1)}, 40+int(seed)*20)
		if !g.Result().Over() {
			views = append(views, g.View(game.ViewerOf(g.ToMove())))
		}
	}
	for _, level := range Levels {
		b.Run(level.String(), func(b *testing.B) {
			p := New(level, 1)
			for i := 0; i < b.N; i++ {
				if _, err := p.Choose(views[i%len(views)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNormalBeatsRandomSample is a sample of the arena's measurement
// (strategolab arena -a normal -b random -n 200): whole Classic games
// between normal, at its real settings, and a random mover, normal taking
// each side in turn. Normal wins over 98% of games, so each of these fixed
// games must be a win; a loss means the player got weaker.
func TestNormalBeatsRandomSample(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	for i := range 6 {
		normalSide := game.Side(i % 2)
		t.Run(normalSide.String()+"/"+string(rune('a'+i)), func(t *testing.T) {
			t.Parallel()
			g := newGame(t, rules, uint64(100+i))
			players := [2]*Player{New(Random, uint64(i)), New(Random, uint64(i))}
			players[normalSide] = New(Normal, uint64(i))
			players[normalSide].cfg.timeCap = 0 // nodes only: the same game on any machine
			playOut(t, g, players, game.MaxMovesLimit)
			if w, ok := g.Result().Winner(); !ok || w != normalSide {
				t.Errorf("normal played %s against random: %s after %d plies", normalSide, g.Result(), g.Ply())
			}
		})
	}
}

// TestHardSearchesDeeperOnSmallBoards: hard adds a ply when few pieces are
// left on the board, and only then; normal never does.
func TestHardSearchesDeeperOnSmallBoards(t *testing.T) {
	tests := []struct {
		variant game.Variant
		level   Level
		want    int
	}{
		{game.VariantClassic, Hard, 3},     // 80 pieces
		{game.VariantInfiltrator, Hard, 3}, // 80 pieces
		{game.VariantBarrage, Hard, 4},     // 16 pieces
		{game.VariantDuel, Hard, 4},        // 20 pieces
		{game.VariantBarrage, Normal, 1},
	}
	for _, tt := range tests {
		t.Run(tt.variant.String()+"/"+tt.level.String(), func(t *testing.T) {
			g := newGame(t, game.DefaultRules(tt.variant), 5)
			_, s, err := New(tt.level, 1).choose(g.View(game.ViewerOf(g.ToMove())))
			if err != nil {
				t.Fatal(err)
			}
			if s.depth != tt.want {
				t.Errorf("searched %d plies after each move, want %d", s.depth, tt.want)
			}
		})
	}
}
