package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestMoveMenusKeepTheBoardText: the menus under a board DM change only the
// menus. The board's text (its match, whose move) stays after picking a
// piece, going back and a stale click, and a stale click shows the board as
// it is now.
func TestMoveMenusKeepTheBoardText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	board := h.alice.WaitDM(t, contains("the match begins"))
	text := board.Content
	if !strings.Contains(text, "**Match #1**") || !strings.Contains(text, "your move") {
		t.Fatalf("alice's first board says %q", text)
	}

	picked, _ := h.pick(h.alice, board, 0, "A4")
	if picked.Content != text {
		t.Fatalf("after picking A4 the board says %q, want %q", picked.Content, text)
	}
	if menus := picked.SelectMenus(); len(menus) != 1 || !strings.Contains(menus[0].Placeholder, "Move A4 to") {
		t.Fatalf("after picking A4: menus %+v", menus)
	}
	back := h.alice.ClickButton(t, picked, button(t, picked, "Back"))
	back.Wait(t)
	picked = h.srv.Message(board.ID)
	if picked.Content != text {
		t.Fatalf("after Back the board says %q, want %q", picked.Content, text)
	}
	if menus := picked.SelectMenus(); len(menus) != 1 || !strings.Contains(menus[0].Placeholder, "Move a piece") {
		t.Fatalf("after Back: menus %+v", menus)
	}

	// The match moves on by slash command; the menu under the old board is stale.
	picked, _ = h.pick(h.alice, picked, 0, "A4")
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	stale, in := h.pick(h.alice, picked, 0, "A5")
	if stale.Content != text {
		t.Fatalf("after a stale click the board says %q, want %q", stale.Content, text)
	}
	if len(stale.SelectMenus()) != 0 {
		t.Fatalf("the stale board still has menus: %+v", stale.SelectMenus())
	}
	if h.waitMoves(1, 1).Moves() != 1 {
		t.Fatal("a stale menu played a move")
	}
	now := h.followUp(in)
	if !strings.Contains(now.Content, "**Match #1**") || !strings.Contains(now.Content, "bob to move") || len(now.Files) != 1 {
		t.Fatalf("the answer to a stale click: %q with %d files", now.Content, len(now.Files))
	}
}

// scoutArmy is a Custom army whose set-up scoutSetup leaves 27 pieces free
// to move: more than one select menu or autocomplete answer can hold.
const scoutArmy = "29x 2 F"

// scoutSetup fills the front and third rows, and every other square of the
// second and back rows, with Scouts; the Flag sits in a back corner.
func scoutSetup(t *testing.T) game.Setup {
	t.Helper()
	rules := game.DefaultRules(game.VariantCustom)
	army, err := game.ParseArmy(scoutArmy, game.NumberingModern)
	if err != nil {
		t.Fatal(err)
	}
	rules.Army = army
	cells := map[[2]int]game.Rank{{3, 0}: game.Flag}
	for col := 0; col < 10; col++ {
		cells[[2]int{0, col}] = game.Scout
		cells[[2]int{2, col}] = game.Scout
		if col%2 == 1 {
			cells[[2]int{1, col}] = game.Scout
		} else if col > 0 {
			cells[[2]int{3, col}] = game.Scout
		}
	}
	return setupOf(t, rules, cells)
}

// TestMoreThan25MovablePieces: 27 pieces can move. The menus under the board
// split them over two menus of at most 25, and the second one works; the
// autocomplete of from offers Discord's maximum of 25.
func TestMoreThan25MovablePieces(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Custom", discordtest.Opt("army", scoutArmy))
	h.sendSetups(scoutSetup(t), scoutSetup(t))
	m := h.waitMoves(1, 0)
	g, err := m.Game()
	if err != nil {
		t.Fatal(err)
	}
	movable := map[game.Square]bool{}
	for _, mv := range g.LegalMoves() {
		movable[mv.From] = true
	}
	if len(movable) <= 25 {
		t.Fatalf("only %d pieces can move", len(movable))
	}

	choices := h.alice.Autocomplete(t, h.channel, "stratego move", discordtest.Focused("from", ""), discordtest.Opt("to", "A5"))
	if len(choices) != 25 {
		t.Fatalf("autocomplete offers %d pieces, want 25", len(choices))
	}

	board := h.alice.WaitDM(t, contains("the match begins"))
	menus := board.SelectMenus()
	if len(menus) != 2 || len(menus[0].Options)+len(menus[1].Options) != len(movable) || len(menus[0].Options) != 25 {
		t.Fatalf("%d pieces can move; the menus: %+v", len(movable), menus)
	}
	piece := menus[1].Options[0].Value
	picked, _ := h.pick(h.alice, board, 1, piece)
	targets := picked.SelectMenus()
	if len(targets) != 1 || !strings.Contains(targets[0].Placeholder, "Move "+piece+" to") {
		t.Fatalf("picking %s in the second menu gave menus %+v, board %q", piece, targets, picked.Content)
	}
	to := targets[0].Options[0].Value
	h.pick(h.alice, picked, 0, to)
	h.bob.WaitDM(t, contains("alice moved "+piece+"-"+to))
}

// TestMenusLastTheTurn: the menus under a board of a day a move stay live
// for the whole turn. What changes the match's time but not its position
// (the half-time reminder, the opponent's gift of time, a vacation) leaves
// them working, as a correspondence player who opens the board the next
// day expects.
func TestMenusLastTheTurn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		between func(h *harness)
	}{
		{"the half-time reminder", func(h *harness) {
			h.advance(12 * time.Hour)
			h.alice.WaitDM(t, contains("Reminder: your move is due"))
		}},
		{"a gift of time", func(h *harness) { h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t) }},
		{"a vacation", func(h *harness) {
			h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
			h.advance(24 * time.Hour)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatch()
			board := h.alice.WaitDM(t, contains("the match begins"))
			h.waitMoves(1, 0)
			tc.between(h)
			picked, _ := h.pick(h.alice, board, 0, "A4")
			if menus := picked.SelectMenus(); len(menus) != 1 || !strings.Contains(menus[0].Placeholder, "Move A4 to") {
				t.Fatalf("after %s, picking A4 gave the menus %+v", tc.name, menus)
			}
			h.pick(h.alice, picked, 0, "A5")
			if m := h.waitMoves(1, 1); m.Moves() != 1 {
				t.Fatalf("after %s the menus played no move", tc.name)
			}
			h.bob.WaitDM(t, contains("alice moved A4-A5"))
		})
	}
}

// TestMenuMoveRacesAGift: Bob's gift of time is stored between the moment
// the bot reads the match for Alice's pick of a target and the moment it
// plays her move. The position is the one her menus showed, so her move is
// played, not refused as stale.
func TestMenuMoveRacesAGift(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	board := h.alice.WaitDM(t, contains("the match begins"))
	h.waitMoves(1, 0)
	picked, _ := h.pick(h.alice, board, 0, "A4")
	gift := func() {
		if _, err := h.db.Act(t.Context(), 1, 0, storage.Action{Kind: storage.ActGiveTime, Side: game.Blue, At: h.clock.Now()}); err != nil {
			t.Errorf("the gift: %v", err)
		}
	}
	h.reads.beforeMove.Store(&gift)
	h.pick(h.alice, picked, 0, "A5")
	if m := h.waitMoves(1, 1); m.Moves() != 1 || m.GiftsBy(game.Blue) != 1 {
		t.Fatalf("after a gift raced her menu move: %d moves, %d gifts; want 1 and 1", m.Moves(), m.GiftsBy(game.Blue))
	}
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
}

// TestBoardCommandHasTheMenus: /stratego board on the member's turn says
// to choose the move in the menu below, and the menus are below it, and
// they play: the answer had no menu at all. In a server channel it names
// the menu and `/stratego move` only, in every language: it said "Reply
// with a move like …" to an answer only its reader sees, which cannot be
// replied to; in the DM, where a move typed plays, it keeps that line. On
// the opponent's turn there is no menu, and the text offers none.
func TestBoardCommandHasTheMenus(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	mine := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t)
	if !mine.Ephemeral || !strings.Contains(mine.Content, "**your move** (deadline <t:") ||
		!strings.Contains(mine.Content, ". Choose it in the menu below, or use `/stratego move`.") || strings.Contains(mine.Content, "Reply") {
		// An answer only alice sees cannot be replied to.
		t.Fatalf("alice's board: %q", mine.Content)
	}
	for locale, want := range map[string]string{"nl": "Kies hem in het menu hieronder, of gebruik `/stratego move`.",
		"de": "Wähle deinen Zug im Menü unten oder nutze `/stratego move`.", "fr": "Choisissez-le dans le menu ci-dessous, ou utilisez `/stratego move`."} {
		h.alice.SetLocale(locale)
		if got := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; !strings.Contains(got, want) {
			t.Errorf("alice's board in %s: %q", locale, got)
		}
	}
	h.alice.SetLocale("en")
	// In the DM a move typed there plays, as under a board DM.
	if got := h.alice.SlashCommand(t, h.alice.DM(), "stratego board").Reply(t).Content; !strings.Contains(got, "Reply with a move like `B4-B5`, use `/stratego move`, or the menu below.") {
		t.Errorf("alice's board in the DM: %q", got)
	}
	if menus := mine.SelectMenus(); len(menus) != 1 || menus[0].Placeholder != "Move a piece…" {
		t.Fatalf("alice's board says the menu is below, and has the menus %+v", menus)
	}
	picked, _ := h.pick(h.alice, mine, 0, "A4")
	h.pick(h.alice, picked, 0, "A5")
	h.waitMoves(1, 1)
	h.bob.WaitDM(t, contains("alice moved A4-A5."))
	theirs := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t)
	if len(theirs.SelectMenus()) != 0 || strings.Contains(theirs.Content, "menu") {
		t.Errorf("alice's board on bob's turn: %q with %d menus", theirs.Content, len(theirs.SelectMenus()))
	}
}

// TestMoveExampleIsTheReadersOwn: the board of a player's turn gives, as
// the example of how a move reads, a step forward from that player's own
// side: Blue was shown `B4-B5`, a square of Red's, which, typed as shown,
// is refused.
func TestMoveExampleIsTheReadersOwn(t *testing.T) {
	t.Parallel()
	h, _, _ := aliceToMove(t)
	example := func(board *discordtest.Message) string {
		t.Helper()
		_, rest, _ := strings.Cut(board.Content, "Reply with a move like `")
		example, _, ok := strings.Cut(rest, "`")
		if !ok {
			t.Fatalf("the board gives no example of a move: %q", board.Content)
		}
		return example
	}
	if got := example(h.alice.SlashCommand(t, h.alice.DM(), "stratego board").Reply(t)); got != "B4-B5" {
		t.Errorf("alice's (Red's) example of a move is %q, want B4-B5", got)
	}
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	for _, board := range []*discordtest.Message{h.bob.WaitDM(t, contains("alice moved A4-A5.")), h.bob.SlashCommand(t, h.bob.DM(), "stratego board").Reply(t)} {
		if got := example(board); got != "B7-B6" {
			t.Errorf("bob's (Blue's) example of a move is %q, want B7-B6: %q", got, board.Content)
		}
	}
	h.bob.SetLocale("de")
	if got := h.bob.SlashCommand(t, h.bob.DM(), "stratego board").Reply(t).Content; !strings.Contains(got, "Antworte mit einem Zug wie `B7-B6`,") {
		t.Errorf("bob's board in German: %q", got)
	}
}
