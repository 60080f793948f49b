// Package gametest holds what the tests of several packages share about
// games: random set-ups and random games for variety, Scripted for one exact
// position, and ShuffleHidden, the other game a player could equally be
// facing, for leak tests. It is for
// tests only; nothing in production imports it.
package gametest

import (
	"math/rand/v2"
	"testing"

	"github.com/strategobot/strategobot/game"
)

// Setup places rules' army at random in a zone, every arrangement alike
// (game.RandomSetup plays like a person instead): tests need variety, not
// realism. Armies that must fill the zone fill it.
func Setup(rules game.Rules, r *rand.Rand) game.Setup {
	var cells []game.Rank
	for _, k := range game.Ranks {
		for range rules.Army[k] {
			cells = append(cells, k)
		}
	}
	for len(cells) < game.SetupRows*10 {
		cells = append(cells, game.NoRank)
	}
	r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	var s game.Setup
	for i, k := range cells {
		s[i/10][i%10] = k
	}
	return s
}

// Swapped returns s with n pairs of unlike pieces swapped, each pair apart
// from the others, so that it differs from s on 2n squares (n at most the
// pairs s has to swap).
func Swapped(s game.Setup, n int) game.Setup {
	cell := func(i int) *game.Rank { return &s[i/10][i%10] }
	for i := 0; n > 0 && i < len(s)*10; i++ {
		for j := i + 1; j < len(s)*10; j++ {
			if *cell(i) != *cell(j) {
				*cell(i), *cell(j) = *cell(j), *cell(i)
				n, i = n-1, j
				break
			}
		}
	}
	return s
}

// Game starts a game of rules from two Setup set-ups drawn with seed and
// plays up to plies random legal moves, showing each position to visit (see
// Play; nil: none).
func Game(t testing.TB, rules game.Rules, seed uint64, plies int, visit func(*game.Game) bool) *game.Game {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	g, err := game.NewGame(rules, Setup(rules, r), Setup(rules, r))
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	Play(t, g, r, plies, visit)
	return g
}

// Play plays up to plies uniformly random legal moves on g, until the game
// ends. visit, unless nil, sees the game before the first move and after each,
// and stops the game by returning false. A legal move refused fails t.
func Play(t testing.TB, g *game.Game, r *rand.Rand, plies int, visit func(*game.Game) bool) {
	t.Helper()
	if visit != nil && !visit(g) {
		return
	}
	buf := make([]game.Move, 0, 256)
	for i := 0; i < plies && !g.Result().Over(); i++ {
		buf = g.AppendLegalMoves(buf[:0])
		if len(buf) == 0 {
			t.Fatalf("ply %d: no legal move, but the game is on", g.Ply())
		}
		if _, err := g.Apply(buf[r.IntN(len(buf))]); err != nil {
			t.Fatalf("ply %d: a generated move was refused: %v", g.Ply(), err)
		}
		if visit != nil && !visit(g) {
			return
		}
	}
}

// Scripted starts a game of rules with the pieces placed on the named
// squares ("E4") and plays the moves given in notation ("E4-E5", "E5xE6"),
// for tests that need one exact position.
func Scripted(t testing.TB, rules game.Rules, red, blue map[string]game.Rank, moves ...string) *game.Game {
	t.Helper()
	var setups [2]game.Setup
	for side, cells := range [2]map[string]game.Rank{red, blue} {
		for name, r := range cells {
			sq, err := game.ParseSquare(name)
			if err != nil {
				t.Fatal(err)
			}
			row, col, ok := game.SetupCell(game.Side(side), sq)
			if !ok {
				t.Fatalf("%s is outside %s's zone", name, game.Side(side))
			}
			setups[side][row][col] = r
		}
	}
	g, err := game.NewGame(rules, setups[game.Red], setups[game.Blue])
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range moves {
		m, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Apply(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return g
}

// CustomRules returns Custom rules for an army in modern numbering
// ("10 9 3 3 B F"), failing the test if the text is not one.
func CustomRules(t testing.TB, army string) game.Rules {
	t.Helper()
	a, err := game.ParseArmy(army, game.NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	rules := game.DefaultRules(game.VariantCustom)
	rules.Army = a
	return rules
}

// ChaseInTurn returns a Custom game, its pieces set up, in which Red's
// General chases Blue's Captain around E5 F5 F6 E6 and Red's Colonel chases
// Blue's Major around I5 J5 J6 I6, turn about, and the moves of that chase,
// as a match stored when the More-Squares rule counted only the chase of one
// piece holds them. The last, J5-I5, leads back to the position after move 7:
// the rule refuses it as a new move. The moves are not played: replay them
// with game.Game.ApplyRecorded. After them, Blue's I6-J6 and Red's E5-E6
// would repeat the position after move 9.
func ChaseInTurn(t testing.TB) (*game.Game, []game.Move) {
	t.Helper()
	g := Scripted(t, CustomRules(t, "9 8 7 6 2 F"),
		map[string]game.Rank{"A1": game.Flag, "A2": game.Scout, "B1": game.Major, "C1": game.Captain, "E4": game.General, "I4": game.Colonel},
		map[string]game.Rank{"J10": game.Flag, "A9": game.Scout, "A10": game.General, "B10": game.Colonel, "E7": game.Captain, "I7": game.Major})
	var log []game.Move
	for _, text := range []string{"A2-A3", "E7-E6", "A3-A2", "I7-I6",
		"E4-E5", "E6-F6", "I4-I5", "I6-J6", "E5-E6", "F6-F5", "I5-I6", "J6-J5",
		"E6-F6", "F5-E5", "I6-J6", "J5-I5", "F6-F5", "E5-E6", "J6-J5", "I5-I6", "F5-E5", "E6-F6", "J5-I5"} {
		m, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, m)
	}
	return g, log
}
