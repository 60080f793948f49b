package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestTwoWeeksInTwoLanguages plays a Barrage match of a day a move between
// alice, who reads English, and bob, whose Discord speaks German, over two
// weeks of the fake clock, the way two people play by correspondence: moves
// by slash command, by DM text and by the menus; bob reminded at half time
// and alice at half time and an hour before; bob's vacation of three days
// taken on alice's turn, so that his own turn begins stopped, across a
// restart of the bot, and ended two days early by his move; a pause of two
// days alice proposes and bob accepts with the DM's button, which her
// half-time reminder waits for; alice's gift of a day to bob, which his
// reminder an hour before follows; and the capture of bob's Flag, the
// finale, both histories and the Rematch button. Each reader's deadline is
// checked as Discord's <t:UNIX:R> markup, counted from when their board
// arrived; each message in its reader's language, once, to the right
// player; and bob never reads the rank of a piece of alice's he cannot see.
func TestTwoWeeksInTwoLanguages(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	h := newHarness(t)
	w := weeks{t, h}
	ctx := t.Context()
	now, rel, full := h.clock.Now, relMark, fullMark
	red, blue := barrageArmies(t)
	h.bob.SetLocale("de")
	const (
		bobReminder = "Erinnerung: Dein Zug ist " // bob's reminders, in German
		alicePiece  = "Aufklärer"                 // the rank of alice's Scouts, hidden from bob until one strikes
	)
	// remindedBob checks that bob is reminded exactly lead before due, once,
	// in German, and that alice is not.
	remindedBob := func(due time.Time, lead time.Duration) {
		t.Helper()
		mine, theirs := countDMs(h.bob, bobReminder), countDMs(h.alice, txtMoveReminder)
		w.until(due.Add(-lead), "bob's reminder "+lead.String()+" before", func() bool { return countDMs(h.bob, bobReminder) == mine })
		h.bob.WaitDM(t, contains(bobReminder+rel(due)+" fällig, sonst verlierst du diese Partie."))
		if got := countDMs(h.bob, bobReminder); got != mine+1 {
			t.Fatalf("bob got %d reminders %v before his deadline, want 1", got-mine, lead)
		}
		if countDMs(h.alice, txtMoveReminder) != theirs {
			t.Fatal("alice, who waits, was reminded")
		}
	}

	// Day 0: the challenge; alice types her set-up at once, bob his an hour later.
	h.challenge("Barrage", discordtest.Opt("move_time", "24h"))
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.bob.WaitDM(t, contains("Schick mir deine geheime Aufstellung"))
	for k, s := range []struct {
		p       *discordtest.Member
		setup   game.Setup
		preview string
		confirm string
	}{{h.alice, red, "Your set-up for match #1", "Confirm"}, {h.bob, blue, "Deine Aufstellung für Partie #1", "Bestätigen"}} {
		if k > 0 {
			h.advance(time.Hour)
		}
		s.p.SendDM(t, game.FormatSetup(s.setup, game.NumberingModern))
		preview := s.p.WaitDM(t, contains(s.preview))
		s.p.ClickButton(t, preview, button(t, preview, s.confirm)).Reply(t)
	}
	h.waitMoves(1, 0)
	board := h.alice.WaitDM(t, contains("the match begins"))
	w.turn(h.alice, board, day)
	h.bob.WaitDM(t, contains("Die Partie beginnt! Du spielst Blau.\nZug 1: alice ist am Zug."))

	// Move 1, alice by slash command two hours later: bob's board, in
	// German, gives his deadline and names no rank of hers.
	h.advance(2 * time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "I1"), discordtest.Opt("to", "I2")).Reply(t).Content; got != "You moved your Scout (2) I1-I2." {
		t.Errorf("alice's move answered %q", got)
	}
	h.waitMoves(1, 1)
	board = h.bob.WaitDM(t, contains("alice zog I1-I2."))
	due := w.turn(h.bob, nil, day)
	if want := "Zug 2: **Du bist am Zug** (Frist " + rel(due) + ")"; !strings.Contains(board.Content, want) {
		t.Errorf("bob's board does not say %q: %q", want, board.Content)
	}
	if len(board.Files) != 1 || !strings.HasPrefix(board.Files[0].Description, "Dein Stratego-Brett, Barrage, nach Zug 1") ||
		!strings.Contains(board.Files[0].Description, "alice (Rot) zog eine verdeckte Figur von I1 nach I2") {
		t.Errorf("the alt text of bob's board: %+v", board.Files)
	}
	if strings.Contains(board.Content, alicePiece) || strings.Contains(board.Files[0].Description, alicePiece) {
		t.Errorf("bob's board names the rank of alice's hidden Scout: %q %q", board.Content, board.Files[0].Description)
	}
	if mine := h.alice.WaitDM(t, contains("You moved your Scout (2) I1-I2.")); !strings.Contains(mine.Content, "Move 2: bob to move.") || strings.Contains(mine.Content, "your move") {
		t.Errorf("alice's board after her own move: %q", mine.Content)
	}

	// Move 2, bob by DM text an hour after his half-time reminder.
	remindedBob(due, 12*time.Hour)
	h.advance(time.Hour)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	due = w.turn(h.alice, h.alice.WaitDM(t, contains("bob moved J7-J6.")), day)

	// Three hours into alice's turn bob leaves for three days. Her clock
	// runs on; she is told until when his stops, and her board shows it.
	h.advance(3 * time.Hour)
	back := now().Add(3 * day)
	if got := h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t).Content; !strings.HasPrefix(got, "Du bist bis zum "+full(back)+" ("+rel(back)+") im Urlaub") ||
		!strings.HasSuffix(got, "Übrige Urlaubstage in diesem Jahr: 27.") {
		t.Errorf("bob's vacation answered %q", got)
	}
	h.bot.deliverDue(ctx)
	h.alice.WaitDM(t, contains("bob is on vacation until "+full(back)+" ("+rel(back)+"): their clock in this match stops until then."))
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Errorf("bob's vacation moved alice's deadline to %v, want %v", m.Deadline, due)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; !strings.Contains(got, "(deadline "+rel(due)+")") || !strings.Contains(got, "bob is on vacation until "+full(back)) {
		t.Errorf("alice's board does not show her deadline and bob's vacation: %q", got)
	}

	// Move 3, alice by DM text: bob's turn begins stopped, his day counted
	// from his return; his board (of him as "du") and the channel's say he
	// is away.
	h.advance(2 * time.Hour)
	h.alice.SendDM(t, "I2-I3")
	h.waitMoves(1, 3)
	board = h.bob.WaitDM(t, contains("alice zog I2-I3."))
	due = w.turn(h.bob, nil, back.Sub(now())+day)
	if !strings.Contains(board.Content, "(Frist "+rel(due)+")") || !strings.Contains(board.Content, "Du bist bis zum "+full(back)+" im Urlaub") {
		t.Errorf("bob's board on vacation: %q, want the deadline %s and the vacation", board.Content, rel(due))
	}
	h.channelSays("Move 4: bob to move.\nbob is on vacation until " + full(back))

	// The bot restarts on the vacation's second day; nobody hears from it,
	// bob is reminded of nothing, and his deadline holds.
	h.outboxEmpty()
	quiet := w.dms()
	h.advance(day)
	h.shutdown()
	h.start()
	h.advance(6 * time.Hour)
	if n := w.dms(); n != quiet {
		t.Errorf("the players got %d DMs during bob's vacation, want none", n-quiet)
	}
	if m := h.match(1); !m.Deadline.Equal(due) || !m.VacationUntil(game.Blue).Equal(back) {
		t.Fatalf("after the restart: bob's deadline %v, back %v; want %v, %v", m.Deadline, m.VacationUntil(game.Blue), due, back)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "du bist am Zug (Frist "+rel(due)+")") {
		t.Errorf("bob's games after the restart: %q, want his deadline %s", got, rel(due))
	}

	// Move 4: bob is back early, by slash command; the days he did not take
	// come back, and alice's day starts when her board arrives.
	backAt := now()
	if got := h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t).Content; got != "Du hast deinen Aufklärer (2) J6-J5 gezogen." {
		t.Errorf("bob's move answered %q", got)
	}
	h.waitMoves(1, 4)
	if got := h.bob.SlashCommand(t, h.channel, "stratego vacation").Reply(t).Content; !strings.Contains(got, "Du hast dieses Jahr noch 28 Tage Urlaub.") {
		t.Errorf("the two days bob did not take are not back: %q", got)
	}
	board = h.alice.WaitDM(t, contains("bob moved J6-J5."))
	due = w.turn(h.alice, board, day)
	if strings.Contains(board.Content, "on vacation") {
		t.Errorf("alice's board still says bob is away: %q", board.Content)
	}

	// An hour later alice proposes a pause of two days, and bob accepts it
	// an hour after with the button of his German DM: her deadline moves
	// on by the two days; she is told it, bob and the channel until when.
	h.advance(time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t).Content; got != "You proposed to pause the match for 2 days. Your opponent accepts or declines." {
		t.Errorf("alice's proposal answered %q", got)
	}
	h.bot.deliverDue(ctx)
	ask := h.bob.WaitDM(t, contains("alice schlägt vor, die Partie 2 Tage zu pausieren: Wenn du jetzt zustimmst, stehen beide Uhren bis zum "+full(now().Add(2*day))+" still."))
	if !hasButton(ask, "Pausieren") || !hasButton(ask, "Ablehnen") {
		t.Errorf("the proposal's buttons: %+v", ask.Buttons())
	}
	h.advance(time.Hour)
	resume := now().Add(2 * day)
	if got := h.bob.ClickButton(t, ask, button(t, ask, "Pausieren")).Reply(t).Content; got != "Du hast der Pause zugestimmt. Die Partie ist nach Absprache bis zum "+full(resume)+" pausiert ("+rel(resume)+")." {
		t.Errorf("bob's acceptance answered %q", got)
	}
	h.bot.deliverDue(ctx)
	due = due.Add(2 * day)
	if m := h.match(1); !m.PausedUntil().Equal(resume) || !m.Deadline.Equal(due) {
		t.Fatalf("paused until %v, alice's deadline %v; want %v and %v", m.PausedUntil(), m.Deadline, resume, due)
	}
	h.alice.WaitDM(t, contains("The match is paused by agreement until "+full(resume)+" ("+rel(resume)+"). Your move is then due "+rel(due)+" ("+full(due)+")."))
	paused := h.bob.WaitDM(t, func(m *discordtest.Message) bool {
		return m.Interaction == nil && strings.HasSuffix(m.Content, "\nDie Partie ist nach Absprache bis zum "+full(resume)+" pausiert ("+rel(resume)+").")
	})
	if strings.Contains(paused.Content, "Zug") {
		t.Errorf("bob, who waits, is told of a move due: %q", paused.Content)
	}
	h.channelSays("The match is paused by agreement until " + full(resume))

	// Nobody hears from the bot in the pause, though alice's half-time
	// would have come in it; it ends on time, and her reminders come at
	// half time and an hour before her moved deadline.
	h.outboxEmpty()
	quiet = w.dms()
	w.until(resume, "the pause's end", func() bool { return w.dms() == quiet })
	h.alice.WaitDM(t, contains("The pause is over: your move is due "+rel(due)+" ("+full(due)+")."))
	h.bob.WaitDM(t, contains("Die Pause ist vorbei: Die Partie geht weiter."))
	h.channelSays("The pause is over: the match goes on.")
	if n := countDMs(h.alice, txtMoveReminder); n != 0 {
		t.Errorf("alice got %d reminders by the end of the pause, want none", n)
	}
	w.reminded(h.alice, h.bob, due, 12*time.Hour)
	w.reminded(h.alice, h.bob, due, time.Hour)

	// Move 5, alice by the menus of the board that came before the pause.
	h.advance(30 * time.Minute)
	w.byMenus(h.alice, board, "I3", "I4")
	h.waitMoves(1, 5)
	board = h.bob.WaitDM(t, contains("alice zog I3-I4."))
	due = w.turn(h.bob, nil, day)
	if !strings.Contains(board.Content, "Zug 6: **Du bist am Zug** (Frist "+rel(due)+")") {
		t.Errorf("bob's board does not give his deadline %s: %q", rel(due), board.Content)
	}

	// alice gives bob a day an hour into his turn: he is told his new
	// deadline, in German; his half-time reminder stays twelve hours after
	// his board came, and the one an hour before follows the gift.
	halfTime := now().Add(12 * time.Hour)
	h.advance(time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; got != "You gave bob 1 day more. Gifts of time you have left in this match: 2." {
		t.Errorf("alice's gift answered %q", got)
	}
	h.bot.deliverDue(ctx)
	due = due.Add(day)
	h.bob.WaitDM(t, contains("alice hat dir 1 Tag zusätzlich gegeben: Dein Zug ist jetzt "+rel(due)+" fällig ("+full(due)+")."))
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Errorf("the gift moved bob's deadline to %v, want %v", m.Deadline, due)
	}
	remindedBob(due, due.Sub(halfTime))
	remindedBob(due, time.Hour)

	// Move 6, bob by DM text; then alice's Scout takes his Flag.
	h.advance(20 * time.Minute)
	h.bob.SendDM(t, "J5-J4")
	h.waitMoves(1, 6)
	board = h.alice.WaitDM(t, contains("bob moved J5-J4."))
	w.turn(h.alice, board, day)
	if !strings.Contains(board.Content, "Time given: alice 1×, bob 0× (1 day each)") {
		t.Errorf("alice's board does not show the gift: %q", board.Content)
	}
	h.advance(2 * time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "E4"), discordtest.Opt("to", "E7")).Reply(t).Content; got != "Your Scout (2) captured bob's Flag on E7!" {
		t.Errorf("alice's last move answered %q", got)
	}
	h.waitMoves(1, 7)
	if m := h.match(1); m.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) || m.Phase != storage.PhaseFinished {
		t.Fatalf("the match ended %v (%v), want Red capturing the Flag", m.Result, m.Phase)
	}
	if weeks := now().Sub(T0); weeks < 7*day {
		t.Errorf("the match lasted %v, want a week or more", weeks)
	}
	h.alice.WaitDM(t, contains("**You won: bob's Flag was captured.**"))
	h.bob.WaitDM(t, contains("**Du hast verloren: Deine Fahne wurde erobert.**"))
	h.channelSays("**alice won: bob's Flag was captured.**")
	h.outboxEmpty()

	// The histories keep the vacation, its early end, the pause and the
	// gift, each under the move it followed, in each reader's language.
	backMark := full(backAt)
	for _, c := range []struct {
		p    *discordtest.Member
		want string
	}{
		{h.alice, "**Match #1** · alice (Red) vs bob (Blue)\n1. Red I1-I2\n2. Blue J7-J6\n   bob went on vacation for 3 days.\n3. Red I2-I3\n" +
			"   bob came back from vacation early, " + backMark + ".\n4. Blue J6-J5\n   alice and bob paused the match for 2 days.\n   The pause ended.\n" +
			"5. Red I3-I4\n   alice gave bob 1 day more.\n6. Blue J5-J4\n7. Red E4xE7 Scout (2) captures the Flag\nYou won: bob's Flag was captured."},
		{h.bob, "**Partie #1** · alice (Rot) gegen bob (Blau)\n1. Rot I1-I2\n2. Blau J7-J6\n   bob ist für 3 Tage in den Urlaub gegangen.\n3. Rot I2-I3\n" +
			"   bob ist früher aus dem Urlaub zurückgekommen, " + backMark + ".\n4. Blau J6-J5\n   alice und bob haben die Partie 2 Tage pausiert.\n   Die Pause ist zu Ende.\n" +
			"5. Rot I3-I4\n   alice hat bob 1 Tag zusätzlich gegeben.\n6. Blau J5-J4\n7. Rot E4xE7 Aufklärer (2) erobert die Fahne\nDu hast verloren: Deine Fahne wurde erobert."},
	} {
		if got := c.p.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t).Content; !strings.HasPrefix(got, c.want) {
			t.Errorf("%s's history:\n%s\nwant it to begin\n%s", c.p.Name, got, c.want)
		}
	}

	// Each message came once, to the right player: the reminders, the
	// notices of the vacation, the pause and the gift.
	for _, c := range []struct {
		p    *discordtest.Member
		text string
		n    int
	}{
		{h.alice, txtMoveReminder, 2}, {h.bob, bobReminder, 3}, {h.bob, txtMoveReminder, 0}, {h.alice, bobReminder, 0},
		{h.alice, "their clock in this match stops", 1}, {h.bob, "im Urlaub bis", 0},
		{h.bob, "schlägt vor", 1}, {h.alice, "proposes to pause", 0},
		{h.alice, "Your move is then due", 1}, {h.bob, "\nDie Partie ist nach Absprache", 1},
		{h.alice, "The pause is over", 1}, {h.bob, "Die Pause ist vorbei", 1},
		{h.bob, "zusätzlich gegeben", 1}, {h.alice, "more", 0},
		{h.alice, "arrived late", 0}, {h.bob, "spät angekommen", 0},
	} {
		if got := countDMs(c.p, c.text); got != c.n {
			t.Errorf("%s got %d DMs with %q, want %d", c.p.Name, got, c.text, c.n)
		}
	}
	// Each move's board reached both players and the channel once, and no
	// board of alice's moves but the last named a rank of hers to bob.
	for k, mv := range []string{"I1-I2", "J7-J6", "I2-I3", "J6-J5", "I3-I4", "J5-J4"} {
		for who, msgs := range map[string][]*discordtest.Message{"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel)} {
			n := 0
			for _, msg := range msgs {
				if !msg.FromBot() || !strings.Contains(msg.Content, mv) || len(msg.Files) != 1 {
					continue
				}
				n++
				if who != "alice" && k%2 == 0 && (strings.Contains(msg.Content, alicePiece) || strings.Contains(msg.Files[0].Description, alicePiece) ||
					strings.Contains(msg.Content, "Scout") || strings.Contains(msg.Files[0].Description, "Scout")) {
					t.Errorf("%s's board of %s names the rank of alice's piece: %q %q", who, mv, msg.Content, msg.Files[0].Description)
				}
			}
			if n != 1 {
				t.Errorf("%s got the board of %s %d times, want once", who, mv, n)
			}
		}
	}
	noRepeatsBut(t, h, bobReminder)

	// The finale in the channel: every piece shown, and the Rematch button,
	// with which bob offers alice the same terms, the colours swapped.
	var finale *discordtest.Message
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if hasButton(m, "Rematch") {
			finale = m
		}
	}
	if finale == nil || len(finale.Files) != 2 || finale.Files[0].Name != "final.png" || finale.Files[1].Name != "replay.gif" ||
		!strings.Contains(finale.Files[0].Description, "Every piece is shown. Red won: Blue's Flag was captured.") {
		t.Fatalf("the finale: %+v", finale)
	}
	offer := h.bob.ClickButton(t, finale, button(t, finale, "Rematch")).Reply(t)
	if offer.Ephemeral || !strings.Contains(offer.Content, "<@"+h.alice.ID+">, bob challenges you") || !strings.Contains(offer.Content, "Barrage · 1 day per move. bob plays Red.") {
		t.Fatalf("the rematch offer: %q", offer.Content)
	}
	if got := h.alice.ClickButton(t, offer, button(t, offer, "Accept")).Reply(t).Content; !strings.Contains(got, "Match #2") {
		t.Fatalf("accepting the rematch: %q", got)
	}
	m1, m2 := h.match(1), h.match(2)
	if m2.Players[game.Red].UserID != h.bob.ID || m2.Players[game.Blue].UserID != h.alice.ID || m2.Rules != m1.Rules || m2.MoveTime != m1.MoveTime {
		t.Errorf("the rematch: %+v, want bob Red, alice Blue, the same terms", m2.Players)
	}
	h.bob.WaitDM(t, contains("**Partie #2** gegen alice — Barrage · 1 Tag pro Zug. Du spielst **Rot** und ziehst zuerst."))
}

// noRepeatsBut is weeks.noRepeats, with reminders in another language
// (begun with reminder) counted as the scenarios count them.
func noRepeatsBut(t *testing.T, h *harness, reminder string) {
	t.Helper()
	for who, msgs := range map[string][]*discordtest.Message{"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel)} {
		seen := map[string]bool{}
		for _, msg := range msgs {
			if !msg.FromBot() || strings.Contains(msg.Content, "Reminder: ") || strings.Contains(msg.Content, reminder) {
				continue
			}
			if seen[msg.Content] {
				t.Errorf("%s got this message twice: %q", who, msg.Content)
			}
			seen[msg.Content] = true
		}
	}
}
