package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTenDaysInDutchAndGerman plays a Classic match of a day a move over
// nine days and more of the fake clock, as two members of an English
// server play it by correspondence: alice, whose Discord speaks Dutch, and
// bob, whose Discord speaks German. alice types her set-up in the DM; bob
// draws one with Random, opens the form with Edit (which holds the drawn
// set-up) and types his own. Moves come by slash command, by DM text, as a
// reply to an older board and by the menus; bob is reminded at half time
// and writes a move the bot cannot read; both read /stratego history,
// games and board mid-game; alice offers a draw, offers it again (refused:
// it stands) and bob declines it with his DM's button; the bot restarts on
// alice's turn and tells her how long it was away and when her move is now
// due; battles reveal both ranks; and alice's Scout captures bob's Flag.
// Each reader reads their own language, each deadline as Discord's
// timestamp markup, and bob and the channel never read the rank of a
// piece of alice's before a battle reveals it.
func TestTenDaysInDutchAndGerman(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	w := weeks{t, h}
	now, rel, full := h.clock.Now, relMark, fullMark
	h.alice.SetLocale("nl")
	h.bob.SetLocale("de")
	// alice's Sergeant on A4 and Scout on E4 go forward; bob's Flag is on
	// E7 behind nothing, his Scout on A7 and Lieutenant on J7 in front.
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 1}: game.Scout, {0, 4}: game.Scout, {0, 9}: game.Captain,
		{2, 0}: game.Bomb, {3, 0}: game.Flag, {3, 1}: game.Bomb})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Lieutenant, {0, 4}: game.Bomb, {0, 5}: game.Flag, {0, 9}: game.Scout, {1, 0}: game.Miner})
	// hidden are the words that would name alice's Sergeant or Scouts
	// to bob (German) or the channel (English) before a battle shows them.
	hidden := []string{"Unteroffizier", "Aufklärer", "Sergeant", "Scout"}
	unseen := func(who string, msg *discordtest.Message) {
		t.Helper()
		if len(msg.Files) != 1 {
			t.Errorf("%s's board has %d pictures: %q", who, len(msg.Files), msg.Content)
			return
		}
		for _, word := range hidden {
			if strings.Contains(msg.Content, word) || strings.Contains(msg.Files[0].Description, word) {
				t.Errorf("%s's board names a hidden piece of alice's (%s): %q %q", who, word, msg.Content, msg.Files[0].Description)
			}
		}
	}
	// aliceMoved checks bob's and the channel's boards of alice's quiet
	// move mv, before any battle, and returns bob's, with his deadline of
	// a day.
	aliceMoved := func(mv string) (*discordtest.Message, time.Time) {
		t.Helper()
		board := h.bob.WaitDM(t, contains("alice zog "+mv+"."))
		due := w.turn(h.bob, nil, day)
		if want := "**Du bist am Zug** (Frist " + rel(due) + ")"; !strings.Contains(board.Content, want) {
			t.Errorf("bob's board of %s does not say %q: %q", mv, want, board.Content)
		}
		unseen("bob", board)
		h.channelSays("alice moved " + mv + ".")
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(m.Content, "alice moved "+mv+".") {
				unseen("the channel", m)
			}
		}
		return board, due
	}
	// wait lets d go by an hour at a time, as the timers see a day go by.
	wait := func(d time.Duration) {
		t.Helper()
		for ; d > time.Hour; d -= time.Hour {
			h.advance(time.Hour)
		}
		h.advance(d)
	}
	// bobMoved checks alice's board of bob's move, and returns it, with
	// her deadline of a day.
	bobMoved := func(text string) (*discordtest.Message, time.Time) {
		t.Helper()
		board := h.alice.WaitDM(t, contains(text))
		due := w.turn(h.alice, nil, day)
		if want := "**jouw zet** (uiterlijk " + rel(due) + ")"; !strings.Contains(board.Content, want) {
			t.Errorf("alice's board after %q does not say %q: %q", text, want, board.Content)
		}
		return board, due
	}

	// Day 0: alice challenges in the channel, which reads English, and bob
	// accepts. Each invite is in its reader's language.
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	h.alice.WaitDM(t, contains("**Partij #1** tegen bob — Klassiek · 1 dag per zet. Jij speelt **Rood** en begint.\nStuur me je geheime opstelling"))
	invite := h.bob.WaitDM(t, contains("**Partie #1** gegen alice — Klassisch · 1 Tag pro Zug. Du spielst **Blau**.\nSchick mir deine geheime Aufstellung"))

	wait(30 * time.Minute)
	h.alice.SendDM(t, game.FormatSetup(red, game.NumberingModern))
	preview := h.alice.WaitDM(t, contains("Je opstelling voor partij #1 (jij bent Rood):\n```\n"+game.FormatSetup(red, game.NumberingModern)+"\n```"))
	if got := h.alice.ClickButton(t, preview, button(t, preview, "Bevestigen")).Reply(t).Content; got != "Opstelling bevestigd. Partij #1 begint zodra ook bob een opstelling heeft bevestigd." {
		t.Errorf("alice's confirmation answered %q", got)
	}

	// The next morning, reminded of it at half time, bob draws a set-up,
	// opens the form on it, and types his own there.
	setupDue := h.match(1).Deadline
	wait(18 * time.Hour)
	h.bob.WaitDM(t, contains("Erinnerung: Deine Aufstellung ist "+rel(setupDue)+" fällig; ist sie bis dahin nicht da, wird die Partie ohne Ergebnis abgesagt."))
	drawn := h.bob.ClickButton(t, invite, button(t, invite, "Zufällig")).Reply(t)
	random := game.FormatSetup(h.match(1).Setups[game.Blue].Setup, game.NumberingModern)
	if !strings.HasPrefix(drawn.Content, "Deine Aufstellung für Partie #1 (du bist Blau):\n```\n"+random+"\n```") || len(drawn.Files) != 1 ||
		!strings.HasPrefix(drawn.Files[0].Description, "Ein Bild deiner Aufstellung für Partie #1") {
		t.Errorf("bob's drawn set-up: %q (%d pictures), want it to show %q with its picture", drawn.Content, len(drawn.Files), random)
	}
	for _, label := range []string{"Bestätigen", "Bearbeiten", "Zufällig"} {
		if !hasButton(drawn, label) {
			t.Errorf("bob's preview has no %q button: %+v", label, drawn.Buttons())
		}
	}
	edit := h.bob.ClickButton(t, drawn, button(t, drawn, "Bearbeiten"))
	if form := edit.Wait(t).Modal; form == nil || form.Title != "Deine Aufstellung für Partie #1" || len(form.Inputs) != 1 || form.Inputs[0].Value != random {
		t.Fatalf("the form bob opened on his drawn set-up: %+v, want it to hold %q", form, random)
	}
	preview = h.bob.SubmitModal(t, edit, map[string]string{setupField: game.FormatSetup(blue, game.NumberingModern)}).Reply(t)
	if got := h.bob.ClickButton(t, preview, button(t, preview, "Bestätigen")).Reply(t).Content; got != "Aufstellung bestätigt. Partie #1 beginnt!" {
		t.Errorf("bob's confirmation answered %q", got)
	}
	h.waitMoves(1, 0)
	if s := h.match(1).Setups[game.Blue].Setup; s != blue {
		t.Fatalf("bob's set-up is\n%s\nwant the one he typed", game.FormatSetup(s, game.NumberingModern))
	}
	board := h.alice.WaitDM(t, contains("Beide opstellingen zijn binnen: de partij begint! Jij speelt Rood."))
	due := w.turn(h.alice, nil, day)
	if want := "Zet 1: **jouw zet** (uiterlijk " + rel(due) + ")"; !strings.Contains(board.Content, want) {
		t.Errorf("alice's first board does not say %q: %q", want, board.Content)
	}
	h.bob.WaitDM(t, contains("Beide Aufstellungen sind da: Die Partie beginnt! Du spielst Blau.\nZug 1: alice ist am Zug."))
	h.channelSays("Both set-ups are in: the match begins!\nMove 1: alice to move.")

	// Move 1, alice by slash command on day 2, late in her day.
	wait(23 * time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t).Content; got != "Je zette je Sergeant (4) A4-A5." {
		t.Errorf("alice's move answered %q", got)
	}
	h.waitMoves(1, 1)
	_, due = aliceMoved("A4-A5")

	// bob is reminded at half time, in German; an hour later he writes a
	// move the bot cannot read, is told how moves read, and writes it so.
	w.remindedIn(h.bob, h.alice, "Erinnerung: Dein Zug ist ", "Herinnering: ", due, 12*time.Hour)
	h.bob.WaitDM(t, contains("Erinnerung: Dein Zug ist "+rel(due)+" fällig, sonst verlierst du diese Partie."))
	wait(8 * time.Hour)
	typo := h.bob.SendDM(t, "j7 nach j6")
	h.bob.WaitDM(t, answers(typo, "Ich lese Züge wie `B7-B6` (von, nach)"))
	if h.match(1).Moves() != 1 {
		t.Fatal("a move the bot could not read was played")
	}
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	board, due = bobMoved("bob zette J7-J6.")

	// alice waits: reminded at half time and an hour before, in Dutch; she
	// moves by DM text, in lower case, half an hour before her deadline,
	// as a reply to her board.
	w.remindedIn(h.alice, h.bob, "Herinnering: je zet moet ", "Erinnerung: ", due, 12*time.Hour)
	w.remindedIn(h.alice, h.bob, "Herinnering: je zet moet ", "Erinnerung: ", due, time.Hour)
	h.alice.WaitDM(t, contains("Herinnering: je zet moet "+rel(due)+" binnen zijn, anders verlies je deze partij."))
	wait(30 * time.Minute)
	h.alice.Reply(t, board, "a5-a6")
	h.waitMoves(1, 3)
	aliceMoved("A5-A6")

	// Both look at the match; alice offers a draw, again, and bob declines
	// it with his DM's button an hour later.
	wait(5 * time.Hour)
	if got, want := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t).Content,
		"**Partie #1** · alice (Rot) gegen bob (Blau)\n1. Rot A4-A5\n2. Blau J7-J6\n3. Rot A5-A6"; got != want {
		t.Errorf("bob's history:\n%s\nwant\n%s", got, want)
	}
	if got, want := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t).Content,
		"**#1** gegen alice — Klassisch, du bist Blau — du bist am Zug (Frist "+rel(h.match(1).Deadline)+") · <#"+h.channel.ID+">"; got != want {
		t.Errorf("bob's games:\n%s\nwant\n%s", got, want)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "de tegenstander is aan zet (uiterlijk "+rel(h.match(1).Deadline)+")") {
		t.Errorf("alice's games: %q", got)
	}
	if mine := h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t); !mine.Ephemeral || !strings.Contains(mine.Content, "Zug 4: **Du bist am Zug** (Frist "+rel(h.match(1).Deadline)+")") {
		t.Errorf("bob's board: %q", mine.Content)
	} else {
		unseen("bob", mine)
		if menus := mine.SelectMenus(); len(menus) != 1 || menus[0].Placeholder != "Eine Figur ziehen…" {
			t.Errorf("bob's board says the menu is below (\"im Menü unten\"), and has the menus %+v", menus)
		}
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t).Content; got != "Je hebt remise aangeboden." {
		t.Errorf("alice's draw offer answered %q", got)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego draw").Reply(t).Content; !strings.HasPrefix(got, "Je hebt al remise aangeboden: ") {
		t.Errorf("alice's second draw offer answered %q", got)
	}
	wait(time.Hour)
	offer := h.bob.WaitDM(t, contains("alice bietet Remis an."))
	if !hasButton(offer, "Remis annehmen") {
		t.Errorf("the offer's buttons: %+v", offer.Buttons())
	}
	if got := h.bob.ClickButton(t, offer, button(t, offer, "Ablehnen")).Reply(t).Content; got != "Du hast das Remis abgelehnt." {
		t.Errorf("bob's decline answered %q", got)
	}
	h.bot.deliverDue(t.Context())
	h.alice.WaitDM(t, contains("bob heeft de remise geweigerd; de partij gaat door."))

	// Move 4, bob by slash command that evening.
	wait(12 * time.Hour)
	if got := h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t).Content; got != "Du hast deinen Leutnant (5) J6-J5 gezogen." {
		t.Errorf("bob's move answered %q", got)
	}
	h.waitMoves(1, 4)
	board, due = bobMoved("bob zette J6-J5.")

	// The bot stops for twelve hours on alice's turn. When it is back,
	// alice is told, in Dutch, when it was away and when her move is now
	// due, and bob nothing.
	wait(10 * time.Hour)
	h.outboxEmpty()
	down := now()
	bobHad := len(h.bob.DMs())
	h.shutdown()
	h.clock.Advance(12 * time.Hour)
	up := now()
	h.start()
	h.advance(time.Minute)
	due = due.Add(up.Sub(down))
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Fatalf("after the restart alice's deadline is %v, want %v", m.Deadline, due)
	}
	h.alice.WaitDM(t, contains("Ik was weg van "+full(down)+" tot "+full(up)+", en je klok stond stil. Je zet moet nu "+rel(due)+" binnen zijn."))
	if n := len(h.bob.DMs()); n != bobHad {
		t.Errorf("bob, who waits, got %d DMs at the restart", n-bobHad)
	}

	// Move 5, alice by the menus of her board from before the restart:
	// her Sergeant takes bob's Scout, and both ranks show to all.
	wait(12 * time.Hour)
	picked, _ := h.pick(h.alice, board, 0, "A6")
	if menus := picked.SelectMenus(); len(menus) != 1 || menus[0].Placeholder != "A6 verzetten naar…" || menus[0].Options[0].Label != "A7 (aanvallen)" {
		t.Fatalf("alice picked A6 under her board from before the restart and got the menus %+v", menus)
	}
	h.pick(h.alice, picked, 0, "A7")
	h.waitMoves(1, 5)
	h.alice.WaitDM(t, contains("Jouw Sergeant (4) sloeg op A7 de Verkenner (2) van bob."))
	board = h.bob.WaitDM(t, contains("Der Unteroffizier (4) von alice schlug auf A7 deinen Aufklärer (2)."))
	h.channelSays("alice's Sergeant (4) took bob's Scout (2) on A7.")
	if due = w.turn(h.bob, nil, day); !strings.Contains(board.Content, "Zug 6: **Du bist am Zug** (Frist "+rel(due)+")") {
		t.Errorf("bob's board of the battle does not give his deadline %s: %q", rel(due), board.Content)
	}

	// Move 6, bob by DM: his Lieutenant attacks her Captain and is lost.
	wait(23 * time.Hour)
	h.bob.SendDM(t, "J5-J4")
	h.waitMoves(1, 6)
	bobMoved("De Luitenant (5) van bob viel op J4 jouw Kapitein (6) aan en ging verloren.")
	h.bob.WaitDM(t, contains("Dein Leutnant (5) griff auf J4 den Hauptmann (6) von alice an und ging verloren."))

	// Moves 7 and 8, late in each day; then alice's Scout strikes E7 from
	// E4 and takes bob's Flag.
	wait(23 * time.Hour)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "B4"), discordtest.Opt("to", "B5")).Reply(t)
	h.waitMoves(1, 7)
	h.bob.WaitDM(t, func(m *discordtest.Message) bool {
		return strings.Contains(m.Content, "alice zog B4-B5.") && len(m.Files) == 1 &&
			strings.Contains(m.Files[0].Description, "alice (Rot) zog eine verdeckte Figur von B4 nach B5.")
	})
	w.turn(h.bob, nil, day)
	wait(23 * time.Hour)
	h.bob.SendDM(t, "J8-J7")
	h.waitMoves(1, 8)
	bobMoved("bob zette J8-J7.")
	wait(22 * time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "E4"), discordtest.Opt("to", "E7")).Reply(t).Content; got != "Jouw Verkenner (2) veroverde op E7 de Vlag van bob!" {
		t.Errorf("alice's last move answered %q", got)
	}
	h.waitMoves(1, 9)
	if m := h.match(1); m.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) {
		t.Fatalf("the match ended %v, want Red capturing the Flag", m.Result)
	}
	if took := now().Sub(T0); took < 9*day {
		t.Errorf("the match took %v, want nine days or more", took)
	}
	h.alice.WaitDM(t, contains("**Je hebt gewonnen: de Vlag van bob is veroverd.**"))
	h.bob.WaitDM(t, contains("**Du hast verloren: Deine Fahne wurde erobert.**"))
	h.channelSays("**alice won: bob's Flag was captured.**")
	h.outboxEmpty()

	// The histories, each in its reader's language: the battles with both
	// ranks, the draw offered and declined and the bot's absence under the
	// move each followed.
	away := "<t:" + unix(down) + ":f>"
	back := "<t:" + unix(up) + ":f>"
	for _, c := range []struct {
		p    *discordtest.Member
		want string
	}{
		{h.alice, "**Partij #1** · alice (Rood) tegen bob (Blauw)\n1. Rood A4-A5\n2. Blauw J7-J6\n3. Rood A5-A6\n" +
			"   alice bood remise aan.\n   bob sloeg de remise af.\n4. Blauw J6-J5\n" +
			"   Ik was weg van " + away + " tot " + back + "; de klok van alice stond stil.\n5. Rood A6xA7 Sergeant (4) verslaat Verkenner (2)\n" +
			"6. Blauw J5xJ4 Luitenant (5) verliest van Kapitein (6)\n7. Rood B4-B5\n8. Blauw J8-J7\n9. Rood E4xE7 Verkenner (2) verovert de Vlag\n" +
			"Je hebt gewonnen: de Vlag van bob is veroverd."},
		{h.bob, "**Partie #1** · alice (Rot) gegen bob (Blau)\n1. Rot A4-A5\n2. Blau J7-J6\n3. Rot A5-A6\n" +
			"   alice bot Remis an.\n   bob lehnte das Remis ab.\n4. Blau J6-J5\n" +
			"   Ich war vom " + away + " bis zum " + back + " weg; die Uhr von alice stand still.\n5. Rot A6xA7 Unteroffizier (4) schlägt Aufklärer (2)\n" +
			"6. Blau J5xJ4 Leutnant (5) verliert gegen Hauptmann (6)\n7. Rot B4-B5\n8. Blau J8-J7\n9. Rot E4xE7 Aufklärer (2) erobert die Fahne\n" +
			"Du hast verloren: Deine Fahne wurde erobert."},
	} {
		if got := c.p.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t).Content; got != c.want {
			t.Errorf("%s's history:\n%s\nwant\n%s", c.p.Name, got, c.want)
		}
	}
	// (B4-B5 is also the example of how moves read.)
	w.boardsOnce("A4-A5", "J7-J6", "A5-A6", "J6-J5", "J8-J7")
	for who, msgs := range map[string][]*discordtest.Message{"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel)} {
		seen := map[string]bool{}
		for _, msg := range msgs {
			if msg.FromBot() && !strings.Contains(msg.Content, "Herinnering: ") && !strings.Contains(msg.Content, "Erinnerung: ") {
				if seen[msg.Content] {
					t.Errorf("%s got this message twice: %q", who, msg.Content)
				}
				seen[msg.Content] = true
			}
		}
	}
	for _, c := range []struct {
		p    *discordtest.Member
		text string
		n    int
	}{
		// Reminders of moves at half time and an hour before, when the
		// player waited so long: alice 2+2+1+2+1, bob 1+1+2+2 (and one
		// of his set-up).
		{h.alice, "Herinnering: je zet moet ", 8}, {h.bob, "Erinnerung: Dein Zug ist ", 6}, {h.bob, "Erinnerung: Deine Aufstellung ist ", 1}, {h.alice, "Ik was weg", 1}, {h.bob, "Ich war", 0},
		{h.bob, "bietet Remis an", 1}, {h.alice, "remise geweigerd", 1},
	} {
		if got := countDMs(c.p, c.text); got != c.n {
			t.Errorf("%s got %d DMs with %q, want %d", c.p.Name, got, c.text, c.n)
		}
	}
	// Every picture anyone was shown has its alt text (transcript checks).
	for _, p := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		transcript(h, p, false)
	}
}
