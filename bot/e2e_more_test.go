package bot

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// setupOf builds a set-up from cells (row, col from the player's view).
func setupOf(t *testing.T, rules game.Rules, cells map[[2]int]game.Rank) game.Setup {
	t.Helper()
	var s game.Setup
	for c, r := range cells {
		s[c[0]][c[1]] = r
	}
	if err := s.Validate(rules); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitMoves waits until the stored match has n moves.
func (h *harness) waitMoves(id storage.MatchID, n int) *storage.Match {
	h.t.Helper()
	var m *storage.Match
	h.srv.WaitFor(h.t, "the match to reach its next move", func() bool {
		var err error
		m, err = h.db.Match(context.Background(), id)
		return err == nil && (m.Moves() >= n || !m.Phase.Active())
	})
	return m
}

// planBarrage plays, on a local game, a Barrage match in which Blue throws
// every movable piece at Red's Marshal and General, and Red waits with its
// other pieces: it ends with Blue left without a movable piece.
func planBarrage(t *testing.T, red, blue game.Setup) []game.Move {
	t.Helper()
	rules := game.DefaultRules(game.VariantBarrage)
	g, err := game.NewGame(rules, red, blue)
	if err != nil {
		t.Fatal(err)
	}
	var plan []game.Move
	for ply := 0; ply < 300 && !g.Result().Over(); ply++ {
		legal := g.LegalMoves()
		var pick game.Move
		found := false
		if g.ToMove() == game.Blue {
			// A losing or equal attack if there is one, else the step that
			// brings a piece closest to Red's front.
			best := 1000
			for _, m := range legal {
				_, att, _ := g.PieceAt(m.From)
				if side, def, ok := g.PieceAt(m.To); ok && side == game.Red {
					if game.Fight(att, def) != game.AttackerWon {
						pick, found = m, true
						break
					}
					continue
				}
				if d := m.To.Row(); d < best {
					best, pick, found = d, m, true
				}
			}
		} else {
			// A quiet move of a piece that is not the Marshal or the General,
			// never next to a Blue piece.
			for _, m := range legal {
				_, r, _ := g.PieceAt(m.From)
				if _, _, occupied := g.PieceAt(m.To); occupied || r == game.Marshal || r == game.General || nextToBlue(g, m.To) {
					continue
				}
				pick, found = m, true
				break
			}
		}
		if !found {
			t.Fatalf("the plan is stuck at ply %d", ply)
		}
		if _, err := g.Apply(pick); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, pick)
	}
	if r := g.Result(); r != (game.Result{Outcome: game.RedWon, Method: game.NoMovablePieces}) {
		t.Fatalf("the planned game ends %v", r)
	}
	return plan
}

func nextToBlue(g *game.Game, s game.Square) bool {
	for _, d := range [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}} {
		c, r := s.Col()+d[0], s.Row()+d[1]
		if c < 0 || c > 9 || r < 0 || r > 9 {
			continue
		}
		if side, _, ok := g.PieceAt(game.SquareAt(c, r)); ok && side == game.Blue {
			return true
		}
	}
	return false
}

func TestBarrageEndsWithoutMovablePieces(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	red := setupOf(t, rules, map[[2]int]game.Rank{
		{0, 4}: game.Marshal, {0, 5}: game.General, {3, 0}: game.Flag, {3, 1}: game.Bomb,
		{3, 9}: game.Miner, {3, 8}: game.Scout, {3, 7}: game.Scout, {3, 6}: game.Spy})
	blue := setupOf(t, rules, map[[2]int]game.Rank{ // from Blue's side: column c is square 9-c
		{0, 5}: game.Scout, {0, 4}: game.Scout, {1, 5}: game.General, {1, 4}: game.Miner,
		{2, 5}: game.Spy, {2, 4}: game.Marshal, {3, 9}: game.Flag, {3, 8}: game.Bomb})
	plan := planBarrage(t, red, blue)

	h := newHarness(t)
	h.challenge("Barrage")
	h.sendSetups(red, blue)
	for k, mv := range plan {
		if k%2 == 0 {
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", mv.From.String()), discordtest.Opt("to", mv.To.String())).Reply(t)
		} else {
			h.bob.SendDM(t, mv.String())
		}
		h.waitMoves(1, k+1)
	}
	m := h.waitMoves(1, len(plan))
	if m.Result != (game.Result{Outcome: game.RedWon, Method: game.NoMovablePieces}) || m.Phase != storage.PhaseFinished {
		t.Fatalf("result %v, phase %v", m.Result, m.Phase)
	}
	h.alice.WaitDM(t, contains("You won: bob has no piece left that can move"))
	h.bob.WaitDM(t, contains("You lost: you have no piece left that can move"))
}

func TestResignationAndDraw(t *testing.T) {
	h := newHarness(t)
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.challenge("Classic")
	h.sendSetups(red, blue)

	// A draw offered, declined, offered again and accepted.
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	offer := h.bob.WaitDM(t, contains("offers a draw"))
	// Carol cannot answer for bob, even with the match named.
	if r := h.carol.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "accept"), discordtest.Opt("match", "1")).Reply(t); !strings.Contains(r.Content, "not your match") {
		t.Fatalf("carol's draw: %q", r.Content)
	}
	h.bob.ClickButton(t, offer, button(t, offer, "Decline")).Reply(t)
	h.alice.WaitDM(t, contains("declined the draw"))
	h.alice.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "offer")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "accept")).Reply(t)
	h.alice.WaitDM(t, contains("The game is drawn by agreement."))
	if m, _ := h.db.Match(context.Background(), 1); m.Result != (game.Result{Outcome: game.Drawn, Method: game.DrawAgreed}) {
		t.Fatalf("result %v", m.Result)
	}

	// A second match, resigned with confirmation.
	h.challenge("Classic")
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		invite := p.WaitDM(t, contains("**Match #2**"))
		preview := p.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
		p.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	}
	h.bob.WaitDM(t, contains("the match begins"))
	ask := h.bob.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	if !ask.Ephemeral || !hasButton(ask, "Resign") {
		t.Fatalf("resign asks %q", ask.Content)
	}
	h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Reply(t)
	h.alice.WaitDM(t, contains("You won: bob resigned."))
	if m, _ := h.db.Match(context.Background(), 2); m.Result != (game.Result{Outcome: game.RedWon, Method: game.Resignation}) {
		t.Fatalf("result %v", m.Result)
	}
}

func TestRestartMidMatch(t *testing.T) {
	h := newHarness(t)
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.challenge("Classic")
	h.sendSetups(red, blue)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)

	h.shutdown() // the process stops; only the bbolt file remains
	h.start()

	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", "A6")).Reply(t)
	h.bob.SendDM(t, "J6-J5")
	h.waitMoves(1, 4)
	h.alice.SendDM(t, "E4xE7")
	m := h.waitMoves(1, 5)
	if m.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) {
		t.Fatalf("result %v", m.Result)
	}
	h.bob.WaitDM(t, contains("You lost"))
}

func TestClosedDMs(t *testing.T) {
	h := newHarness(t)
	h.bob.CloseDMs()
	h.challenge("Classic")
	// The channel asks bob to open his DMs or use the private commands.
	h.srv.WaitFor(t, "the closed-DM notice", func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(m.Content, "can't send you direct messages") && strings.Contains(m.Content, "<@"+h.bob.ID+">") {
				return true
			}
		}
		return false
	})
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	// Bob does it all privately in the channel.
	setup := h.bob.SlashCommand(t, h.channel, "stratego setup").Reply(t)
	if !setup.Ephemeral {
		t.Fatal("the set-up answer is not private")
	}
	preview = h.bob.ClickButton(t, setup, button(t, setup, "Random")).Reply(t)
	if !preview.Ephemeral || len(preview.Files) != 1 {
		t.Fatalf("bob's preview: ephemeral %v, %d files", preview.Ephemeral, len(preview.Files))
	}
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.alice.WaitDM(t, contains("the match begins"))
	m := h.waitMoves(1, 0)
	if m.Phase != storage.PhasePlaying {
		t.Fatalf("phase %v", m.Phase)
	}
	g, _ := m.Game()
	mv := g.LegalMoves()[0]
	h.alice.SendDM(t, mv.String())
	h.waitMoves(1, 1)
	board := h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t)
	if !board.Ephemeral || len(board.Files) != 1 || !strings.Contains(board.Content, "your move") {
		t.Fatalf("bob's board: ephemeral %v, %d files, %q", board.Ephemeral, len(board.Files), board.Content)
	}
	if len(h.bob.DMs()) != 0 {
		t.Fatalf("bob with closed DMs has %d DMs", len(h.bob.DMs()))
	}
}

func TestSameMoveRacedTwice(t *testing.T) {
	h := newHarness(t)
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.challenge("Classic")
	h.sendSetups(red, blue)
	var wg sync.WaitGroup
	replies := make([]string, 3)
	for k := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k == 2 {
				h.alice.SendDM(t, "A4-A5")
				return
			}
			replies[k] = h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t).Content
		}()
	}
	wg.Wait()
	m := h.waitMoves(1, 1)
	if m.Moves() != 1 {
		t.Fatalf("%d moves stored", m.Moves())
	}
	played := 0
	for _, r := range replies[:2] {
		if strings.Contains(r, "You moved") {
			played++
		}
	}
	if played > 1 {
		t.Fatalf("two slash commands both played the move: %q", replies)
	}
}
