package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

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
	t.Parallel()
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
	t.Parallel()
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
	h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
	h.alice.WaitDM(t, contains("You won: bob resigned."))
	if m, _ := h.db.Match(context.Background(), 2); m.Result != (game.Result{Outcome: game.RedWon, Method: game.Resignation}) {
		t.Fatalf("result %v", m.Result)
	}
}

// TestOldDrawDeclineKeepsOwnOffer: the buttons under an opponent's draw
// offer answer that offer only. Bob declines Alice's offer by command and
// offers a draw himself; Decline or Accept pressed under Alice's old offer
// then neither takes Bob's offer back nor accepts it for him.
func TestOldDrawDeclineKeepsOwnOffer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	h.bot.deliverDue(t.Context())
	offer := h.bob.WaitDM(t, contains("offers a draw"))
	editHeld(t, h, h.bob) // the presses come before the DM loses its buttons
	h.bob.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Reply(t)
	h.bob.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "offer")).Reply(t)
	for _, label := range []string{"Decline", "Accept draw"} {
		got := h.bob.ClickButton(t, offer, button(t, offer, label)).Reply(t).Content
		if want := "no draw offer to answer"; !strings.Contains(got, want) {
			t.Errorf("Bob's press of %s under Alice's old offer answered %q, want %q", label, got, want)
		}
		g, err := h.match(1).Game()
		if err != nil {
			t.Fatal(err)
		}
		if by, ok := g.DrawOffer(); !ok || by != game.Blue {
			t.Fatalf("after Bob pressed %s under Alice's old offer: the offer standing is %v's (%v), want Bob's", label, by, ok)
		}
	}
}

// TestDrawOfferedAgain: a draw offered while one stands is refused with
// what to do instead, in the member's language, and nothing is logged as a
// failure: a player who offers twice, or offers while the opponent's offer
// waits for them, was told something went wrong on the bot's side and to
// try again, which could never work.
func TestDrawOfferedAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		locale string
		who    func(h *harness) *discordtest.Member
		want   string
	}{
		{"the offerer again", "", func(h *harness) *discordtest.Member { return h.alice },
			"You have already offered a draw: your opponent accepts or declines it. `/stratego draw action:decline` takes it back."},
		{"the opponent", "", func(h *harness) *discordtest.Member { return h.bob },
			"Your opponent has already offered a draw: `/stratego draw action:accept` accepts it, `action:decline` declines it."},
		{"the offerer again in Dutch", "nl", func(h *harness) *discordtest.Member { return h.alice },
			"Je hebt al remise aangeboden: je tegenstander neemt het aan of weigert het. `/stratego draw action:decline` trekt het aanbod in."},
		{"the opponent in German", "de", func(h *harness) *discordtest.Member { return h.bob },
			"Dein Gegner hat schon Remis angeboten: `/stratego draw action:accept` nimmt es an, `action:decline` lehnt es ab."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var logs logLines
			h := newHarness(t, logs.capture)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
			p := tc.who(h)
			p.SetLocale(tc.locale)
			if got := p.SlashCommand(t, h.channel, "stratego draw").Reply(t).Content; got != tc.want {
				t.Errorf("a second offer answered %q, want %q", got, tc.want)
			}
			g, err := h.match(1).Game()
			if err != nil {
				t.Fatal(err)
			}
			if by, ok := g.DrawOffer(); !ok || by != game.Red {
				t.Errorf("the offer standing is %v's (%v), want alice's", by, ok)
			}
			if strings.Contains(logs.String(), "level=ERROR") {
				t.Errorf("a second offer was logged as a failure:\n%s", logs.String())
			}
		})
	}
}

// TestDrawDeclinedByCommand: /stratego draw action:decline answers what it
// did. Bob, declining Alice's offer, declined it; Alice, taking back her
// own, withdrew it. Bob was told "The draw offer is withdrawn.", as if
// Alice had taken it back, while her DM said he declined it.
func TestDrawDeclinedByCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		locale string
		who    func(h *harness) *discordtest.Member
		want   string
	}{
		{"the opponent declines", "", func(h *harness) *discordtest.Member { return h.bob }, "You declined the draw."},
		{"the opponent declines, in German", "de", func(h *harness) *discordtest.Member { return h.bob }, "Du hast das Remis abgelehnt."},
		{"the offerer takes it back", "", func(h *harness) *discordtest.Member { return h.alice }, "The draw offer is withdrawn."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			h.waitMoves(1, 0)
			h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
			who := tc.who(h)
			if tc.locale != "" {
				who.SetLocale(tc.locale)
			}
			got := who.SlashCommand(t, h.channel, "stratego draw", discordtest.Opt("action", "decline")).Reply(t)
			if !got.Ephemeral || got.Content != tc.want {
				t.Errorf("%s's decline answered %q (ephemeral %v), want %q", who.Name, got.Content, got.Ephemeral, tc.want)
			}
			g, err := h.match(1).Game()
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := g.DrawOffer(); ok {
				t.Error("the offer still stands")
			}
		})
	}
}

// TestDrawOfferStandingOnEveryBoard: a draw offer still standing when its
// maker has moved is on every board of that move, and how to answer it only
// on the board of the one who can: the channel, and a spectator's
// /stratego watch, told everyone to use `/stratego draw action:accept`.
func TestDrawOfferStandingOnEveryBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	const (
		answer = " alice offered a draw: `/stratego draw action:accept` or `decline`."
		stands = "Move 2: bob to move. alice offered a draw."
	)
	for _, tc := range []struct {
		name string
		msg  func() *discordtest.Message
		want string
	}{
		{"bob's board", func() *discordtest.Message { return h.bob.WaitDM(t, contains("alice moved A4-A5")) }, "the menu below." + answer},
		{"alice's board", func() *discordtest.Message { return h.alice.WaitDM(t, contains("You moved your")) }, "Move 2: bob to move. You offered a draw."},
		{"the channel's board", func() *discordtest.Message { return lastPublicBoard(t, h) }, stands},
		{"carol watching", func() *discordtest.Message {
			return h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1")).Reply(t)
		}, ":R>). alice offered a draw."},
	} {
		got := tc.msg().Content
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s reads %q, want it to say %q", tc.name, got, tc.want)
		}
		if tc.name != "bob's board" && strings.Contains(got, "/stratego draw") {
			t.Errorf("%s tells how to answer the offer: %q", tc.name, got)
		}
	}
}
