package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestWeeksInThreeLanguages plays a Barrage match of two days a move over
// more than a week of the fake clock between alice, who reads Dutch, and
// bob, who reads French, on a German server, and reads what each is told
// as they would: bob's reminder at half time; alice's vacation of five
// days, which moves her deadline and which she ends on its second day by
// moving; a pause of three days bob proposes and alice accepts with her
// DM's button, which moves his deadline, across a restart, ended on time;
// bob's move whose board to alice Discord holds while the bot restarts, so
// that the new process sends it and her time starts then (her board, the
// note that it came late and her deadline agree, and she gets it once);
// bob's gift of a day, which moves her deadline but not her half-time
// reminder; and bob's resignation. Each message is in its reader's
// language, the channel's in German, and none comes twice.
func TestWeeksInThreeLanguages(t *testing.T) {
	t.Parallel()
	const (
		day           = 24 * time.Hour
		turn          = 2 * day
		aliceReminder = "Herinnering: je zet moet "
		bobReminder   = "Rappel : votre coup est attendu "
	)
	h := newHarness(t)
	h.guild.SetLocale("de")
	h.shutdown()
	h.start() // a new session, whose GUILD_CREATE carries the server's locale
	h.alice.SetLocale("nl")
	h.bob.SetLocale("fr")
	w := weeks{t, h}
	ctx := t.Context()
	now, rel, full := h.clock.Now, relMark, fullMark
	red, blue := barrageArmies(t)
	// shows checks that a board gives the deadline due, with the word its
	// reader's language has for it.
	shows := func(board *discordtest.Message, word string, due time.Time) {
		t.Helper()
		if !strings.Contains(board.Content, "("+word+" "+rel(due)+")") {
			t.Errorf("the board does not give the deadline %s: %q", rel(due), board.Content)
		}
	}

	// Day 0: the challenge, in German in the channel; both invites give
	// the set-ups two days.
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob),
		discordtest.Opt("variant", "Barrage"), discordtest.Opt("side", "red"), discordtest.Opt("move_time", "48h")).Reply(t)
	if !strings.Contains(msg.Content, "Barrage · 2 Tage pro Zug") {
		t.Errorf("the challenge in German: %q", msg.Content)
	}
	h.bob.ClickButton(t, msg, button(t, msg, "Annehmen")).Reply(t)
	h.alice.WaitDM(t, contains("**Partij #1** tegen bob — Barrage · 2 dagen per zet."))
	h.bob.WaitDM(t, contains("**Partie #1** contre alice — Barrage · 2 jours par coup."))
	for _, s := range []struct {
		p       *discordtest.Member
		setup   game.Setup
		preview string
		confirm string
	}{{h.alice, red, "Je opstelling voor partij #1", "Bevestigen"}, {h.bob, blue, "Votre placement pour la partie #1", "Confirmer"}} {
		h.advance(time.Hour)
		s.p.SendDM(t, game.FormatSetup(s.setup, game.NumberingModern))
		preview := s.p.WaitDM(t, contains(s.preview))
		s.p.ClickButton(t, preview, button(t, preview, s.confirm)).Reply(t)
	}
	h.waitMoves(1, 0)
	board := h.alice.WaitDM(t, contains("Beide opstellingen zijn binnen: de partij begint! Jij speelt Rood."))
	shows(board, "uiterlijk", w.turn(h.alice, nil, turn))

	// Move 1, alice by slash command; bob is reminded at half time, in
	// French, and moves by DM an hour later.
	h.advance(2 * time.Hour)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "I1"), discordtest.Opt("to", "I2")).Reply(t)
	h.waitMoves(1, 1)
	board = h.bob.WaitDM(t, contains("alice a joué I1-I2."))
	due := w.turn(h.bob, nil, turn)
	if !strings.Contains(board.Content, "Coup 2 : **à vous de jouer** (échéance "+rel(due)+")") {
		t.Errorf("bob's board does not give his deadline %s: %q", rel(due), board.Content)
	}
	h.channelSays("alice zog I1-I2.\nZug 2: bob ist am Zug.")
	w.remindedIn(h.bob, h.alice, bobReminder, aliceReminder, due, turn/2)
	h.advance(time.Hour)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	board = h.alice.WaitDM(t, contains("bob zette J7-J6."))
	due = w.turn(h.alice, nil, turn)
	if !strings.Contains(board.Content, "Zet 3: **jouw zet** (uiterlijk "+rel(due)+")") {
		t.Errorf("alice's board does not give her deadline %s: %q", rel(due), board.Content)
	}

	// Two hours later alice leaves for five days: her deadline moves on by
	// them, and bob is told until when, in French.
	h.advance(2 * time.Hour)
	back := now().Add(5 * day)
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content; !strings.HasPrefix(got, "Je bent op vakantie tot "+full(back)) {
		t.Errorf("alice's vacation answered %q", got)
	}
	h.bot.deliverDue(ctx)
	h.bob.WaitDM(t, contains("alice est en vacances jusqu'au "+full(back)+" ("+rel(back)+") : sa pendule dans cette partie est arrêtée jusque-là."))
	due = due.Add(5 * day)
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Fatalf("the vacation moved alice's deadline to %v, want %v", m.Deadline, due)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "au tour de l'adversaire (échéance "+rel(due)+")") {
		t.Errorf("bob's games do not give alice's deadline %s: %q", rel(due), got)
	}

	// A day and three hours later she is back early, by moving in the DM:
	// bob's two days start when his board arrives.
	h.advance(day + 3*time.Hour)
	h.alice.SendDM(t, "I2-I3")
	h.waitMoves(1, 3)
	board = h.bob.WaitDM(t, contains("alice a joué I2-I3."))
	due = w.turn(h.bob, nil, turn)
	shows(board, "échéance", due)
	if strings.Contains(board.Content, "vacances") {
		t.Errorf("bob's board still says alice is away: %q", board.Content)
	}

	// Bob proposes a pause of three days; alice accepts it an hour later
	// with the button of her Dutch DM. Bob's deadline moves on by three
	// days, and he is told it; the channel is told in German.
	h.advance(2 * time.Hour)
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t)
	h.bot.deliverDue(ctx)
	ask := h.alice.WaitDM(t, contains("bob stelt voor de partij 3 dagen te pauzeren"))
	h.advance(time.Hour)
	resume := now().Add(3 * day)
	h.alice.ClickButton(t, ask, button(t, ask, "Pauzeren")).Reply(t)
	h.bot.deliverDue(ctx)
	due = due.Add(3 * day)
	if m := h.match(1); !m.PausedUntil().Equal(resume) || !m.Deadline.Equal(due) {
		t.Fatalf("paused until %v, bob's deadline %v; want %v and %v", m.PausedUntil(), m.Deadline, resume, due)
	}
	h.bob.WaitDM(t, contains("La partie est en pause d'un commun accord jusqu'au "+full(resume)+" ("+rel(resume)+"). Votre coup sera ensuite attendu "+rel(due)))
	h.alice.WaitDM(t, func(m *discordtest.Message) bool {
		return m.Interaction == nil && strings.HasSuffix(m.Content, "\nDe partij is in onderling overleg gepauzeerd tot "+full(resume)+" ("+rel(resume)+").")
	})
	h.channelSays("Die Partie ist nach Absprache bis zum " + full(resume) + " pausiert")

	// The bot restarts a day into the pause; nobody hears from it until
	// the pause ends, on time.
	h.outboxEmpty()
	quiet := w.dms()
	h.advance(day)
	h.shutdown()
	h.start()
	w.until(resume, "the pause's end", func() bool { return w.dms() == quiet })
	h.bob.WaitDM(t, contains("La pause est terminée : votre coup est attendu "+rel(due)))
	h.alice.WaitDM(t, contains("De pauze is voorbij: de partij gaat verder."))
	h.channelSays("Die Pause ist vorbei: Die Partie geht weiter.")

	// Bob's reminder a day before his deadline; an hour later he moves by
	// slash command, and Discord holds alice's board. The bot restarts two
	// hours later, before Discord answers: the new process sends her board
	// again, her two days start as it arrives, and a note says so.
	w.remindedIn(h.bob, h.alice, bobReminder, aliceReminder, due, turn/2)
	h.advance(time.Hour)
	h.outboxEmpty()
	hold := h.srv.HoldNextIn(t, createMessageRoute, h.alice.DM(), 1)
	t.Cleanup(hold.Release)
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t)
	h.waitStored(1, 4)
	h.srv.WaitFor(t, "alice's board to be held", func() bool { return hold.Waiting() == 1 })
	h.clock.Advance(2 * time.Hour)
	h.bot.handleDue(ctx)
	if m := h.match(1); !m.ClockPending {
		t.Fatal("alice's clock runs though her board is held")
	}
	h.shutdown()
	h.clock.Advance(time.Hour)
	h.start()
	board = h.alice.WaitDM(t, contains("bob zette J6-J5."))
	due = w.turn(h.alice, nil, turn)
	shows(board, "uiterlijk", due)
	late := h.alice.WaitDM(t, contains("Je bord is laat aangekomen"))
	if !strings.Contains(late.Content, "om <t:"+unix(now())+":t>") || !strings.Contains(late.Content, rel(due)) {
		t.Errorf("the late board's note does not say when it arrived and when her move is due, %s: %q", rel(due), late.Content)
	}
	hold.Release()
	h.srv.WaitFor(t, "Discord to answer the held board", func() bool { return hold.Waiting() == 0 })
	h.bot.deliverDue(ctx)

	// Bob gives her a day an hour later: her deadline moves on, and she is
	// told it; her half-time reminder stays a day after her board arrived.
	halfTime := now().Add(turn / 2)
	h.advance(time.Hour)
	if got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; got != "Vous avez donné 1 jour de plus à alice. Dons de temps restants dans cette partie : 2." {
		t.Errorf("bob's gift answered %q", got)
	}
	h.bot.deliverDue(ctx)
	due = due.Add(day)
	h.alice.WaitDM(t, contains("bob heeft je 1 dag extra gegeven: je zet moet nu "+rel(due)+" binnen zijn ("+full(due)+")."))
	w.remindedIn(h.alice, h.bob, aliceReminder, bobReminder, due, due.Sub(halfTime))

	// Move 5, alice by slash command; bob resigns with the confirmation's
	// button.
	h.advance(3 * time.Hour)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "I3"), discordtest.Opt("to", "I4")).Reply(t)
	h.waitMoves(1, 5)
	h.bob.WaitDM(t, contains("alice a joué I3-I4."))
	h.advance(3 * time.Hour)
	confirm := h.bob.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	h.bob.ClickButton(t, confirm, button(t, confirm, "Abandonner")).Reply(t)
	h.waitMoves(1, 99)
	if m := h.match(1); m.Result != (game.Result{Outcome: game.RedWon, Method: game.Resignation}) {
		t.Fatalf("the match ended %v, want bob resigning", m.Result)
	}
	h.alice.WaitDM(t, contains("**Je hebt gewonnen: bob heeft opgegeven.**"))
	h.bob.WaitDM(t, contains("**Vous avez perdu : vous avez abandonné.**"))
	h.channelSays("**alice hat gewonnen: bob hat aufgegeben.**")
	h.outboxEmpty()
	if weeks := now().Sub(T0); weeks < 7*day {
		t.Errorf("the match lasted %v, want a week or more", weeks)
	}

	// What each was told, counted: once each, the reminders in the
	// reader's language only.
	for _, c := range []struct {
		p    *discordtest.Member
		text string
		n    int
	}{
		{h.alice, aliceReminder, 1}, {h.bob, bobReminder, 2}, {h.alice, txtMoveReminder, 0}, {h.bob, txtMoveReminder, 0},
		{h.bob, "est en vacances", 1}, {h.alice, "Je bord is laat aangekomen", 1}, {h.bob, "arrivé en retard", 0},
		{h.bob, "La pause est terminée", 1}, {h.alice, "De pauze is voorbij", 1}, {h.alice, "extra gegeven", 1},
	} {
		if got := countDMs(c.p, c.text); got != c.n {
			t.Errorf("%s got %d DMs with %q, want %d", c.p.Name, got, c.text, c.n)
		}
	}
	// Each move's board reached both players and the channel once, the
	// one Discord held across the restart too.
	w.boardsOnce("I1-I2", "J7-J6", "I2-I3", "J6-J5", "I3-I4")
	for who, msgs := range map[string][]*discordtest.Message{"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel)} {
		seen := map[string]bool{}
		for _, msg := range msgs {
			if !msg.FromBot() || strings.Contains(msg.Content, aliceReminder) || strings.Contains(msg.Content, bobReminder) {
				continue
			}
			if seen[msg.Content] {
				t.Errorf("%s got this message twice: %q", who, msg.Content)
			}
			seen[msg.Content] = true
		}
	}
}
