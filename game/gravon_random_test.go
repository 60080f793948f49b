package game_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// gvPlayRandom plays random legal moves until the game ends or plies run out.
func gvPlayRandom(t testing.TB, rules game.Rules, seed uint64, plies int) *game.Game {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x6a7))
	g, err := game.NewGame(rules, gametest.Setup(rules, r), gametest.Setup(rules, r))
	if err != nil {
		t.Fatal(err)
	}
	var buf []game.Move
	for g.Ply() < plies && !g.Result().Over() {
		buf = g.AppendLegalMoves(buf[:0])
		// Prefer infiltrations, which random play rarely reaches, and attacks,
		// so that games end within the test's budget.
		pick := buf[r.IntN(len(buf))]
		for _, m := range buf {
			_, rank, _ := g.PieceAt(m.From)
			forward := (m.To.Row() > m.From.Row()) == (g.ToMove() == game.Red) && m.To.Row() != m.From.Row()
			if (m.IsInfiltration() || rank == game.Infiltrator && forward) && r.IntN(3) == 0 {
				pick = m
			}
		}
		for range 3 {
			if pick.IsInfiltration() {
				break
			}
			m := buf[r.IntN(len(buf))]
			if _, _, ok := g.PieceAt(m.To); ok {
				pick = m
				break
			}
		}
		if _, err := g.Apply(pick); err != nil {
			t.Fatalf("seed %d: generated move %s refused: %v", seed, pick, err)
		}
	}
	return g
}

// TestGravonGameRoundTrip exports games of every variant, with options and all
// endings, re-imports them and replays them by the rules they state.
func TestGravonGameRoundTrip(t *testing.T) {
	custom := game.DefaultRules(game.VariantCustom)
	custom.Army = game.Army{game.Marshal: 1, game.Colonel: 2, game.Miner: 2, game.Scout: 3, game.Spy: 1, game.Infiltrator: 2, game.Bomb: 3, game.Flag: 1}
	rulesList := []game.Rules{
		game.DefaultRules(game.VariantClassic),
		game.DefaultRules(game.VariantBarrage),
		game.DefaultRules(game.VariantDuel),
		game.DefaultRules(game.VariantInfiltrator),
		custom,
	}
	loose := game.DefaultRules(game.VariantInfiltrator)
	loose.TwoSquares, loose.MoreSquares, loose.ScoutStrikesAtRange = 0, false, false
	five := custom
	five.TwoSquares, five.MaxMoves = 5, 40 // the games cut short reach the move limit first
	rulesList = append(rulesList, loose, five)

	seen := map[game.Method]bool{}
	infiltrations := 0
	for i, rules := range rulesList {
		for seed := uint64(0); seed < 6; seed++ {
			plies := 2000 // most games end by themselves; cut the others short
			if seed >= 3 {
				plies = 20 + 9*int(seed)
			}
			g := gvPlayRandom(t, rules, seed*10+uint64(i), plies)
			switch {
			case g.Result().Over():
			case seed%3 == 0:
				g.Resign(g.ToMove())
			case seed%3 == 1:
				g.TimeOut(g.ToMove())
			default:
				g.OfferDraw(game.Red)
				g.AcceptDraw(game.Blue)
			}
			for _, m := range g.Moves() {
				if m.Move.IsInfiltration() {
					infiltrations++
				}
			}
			seen[g.Result().Method] = true
			rec := game.NewRecord(g, "Röd <red>", "Blå & \"blue\"")
			back := game.GravonRoundTrip(t, rec)
			replayed, err := game.Replay(back, back.Rules)
			if err != nil {
				t.Fatalf("%s seed %d: replay: %v", rules.Variant, seed, err)
			}
			if replayed.Result() != g.Result() {
				t.Errorf("%s seed %d: replayed result %v, played %v", rules.Variant, seed, replayed.Result(), g.Result())
			}
			if !reflect.DeepEqual(replayed.Moves(), g.Moves()) {
				t.Errorf("%s seed %d: replayed moves differ", rules.Variant, seed)
			}
		}
	}
	for _, m := range []game.Method{game.FlagCaptured, game.Resignation, game.TimeForfeit, game.DrawAgreed, game.MoveLimit} {
		if !seen[m] {
			t.Errorf("no game ended by %s; the test should cover it", m)
		}
	}
	if infiltrations == 0 {
		t.Error("no game had an infiltration; the test should cover it")
	}
}
