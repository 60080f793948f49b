package bot

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestCorrespondenceOverWeeks plays one Classic match of a day a move the
// way a correspondence game goes over two to three weeks, with every
// feature of fair time in it at once: set-ups by DM text and by the form,
// a set-up reminder, moves by slash command, DM text and menus, a board
// Discord holds for hours and one it fails with 503s (each turn's time
// starts when its board arrives), reminders at half time and an hour
// before, a vacation of a week that Alice ends two days early by moving, a
// pause of five days that Alice proposes and Bob accepts, Bob's three
// gifts of time and the fourth refused, and restarts of the bot in the
// middle of the vacation and of the pause. It ends by the capture of the
// Flag, or by Alice losing on time after her last reminder. Each deadline
// is checked a second before it and at it (the timers' tick is the
// second), each player's deadline as the <t:UNIX:R> Discord shows, each
// message as delivered once, and the history as keeping the pause, the
// vacation and the gifts.
func TestCorrespondenceOverWeeks(t *testing.T) {
	t.Parallel()
	for _, ending := range []string{"flag", "time"} {
		t.Run(ending, func(t *testing.T) {
			t.Parallel()
			playWeeks(t, ending == "time")
		})
	}
}

func playWeeks(t *testing.T, onTime bool) {
	const (
		day     = 24 * time.Hour
		dmRoute = "POST /channels/{channel_id}/messages"
	)
	h := newHarness(t)
	ctx := t.Context()
	w := weeks{t, h}
	rel, full, now := relMark, fullMark, h.clock.Now
	until, reminded, turn, byMenus := w.until, w.reminded, w.turn, w.byMenus
	moveReminders := func(p *discordtest.Member) int { return countDMs(p, txtMoveReminder) }

	// Day 0: the challenge; both invites arrive at once.
	h.challenge("Classic", discordtest.Opt("move_time", "24h"))
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.alice.WaitDM(t, contains("Send me your secret set-up"))
	h.bob.WaitDM(t, contains("Send me your secret set-up"))
	h.bot.deliverDue(ctx)
	setupDue := h.match(1).Deadline
	if !setupDue.Equal(now().Add(day)) {
		t.Fatalf("the set-ups are due %v after both invites arrived, want a day", setupDue.Sub(now()))
	}

	// Alice types hers an hour later; Bob is reminded at half time, she is not.
	h.advance(time.Hour)
	h.alice.SendDM(t, game.FormatSetup(red, game.NumberingModern))
	preview := h.alice.WaitDM(t, contains("Your set-up for match"))
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	setupReminders := func(p *discordtest.Member) int { return countDMs(p, "Reminder: your set-up is due") }
	until(setupDue.Add(-12*time.Hour), "the set-up reminder", func() bool { return setupReminders(h.bob) == 0 })
	h.bob.WaitDM(t, contains("Reminder: your set-up is due "+rel(setupDue)))
	if setupReminders(h.alice) != 0 {
		t.Error("Alice, whose set-up is in, was reminded of it")
	}

	// Bob fills in the form an hour later: the game begins.
	h.advance(time.Hour)
	invite := h.bob.WaitDM(t, contains("Send me your secret set-up"))
	edit := h.bob.ClickButton(t, invite, button(t, invite, "Edit"))
	if form := edit.Wait(t); form.Modal == nil {
		t.Fatalf("Edit opened no form: %+v", form)
	}
	preview = h.bob.SubmitModal(t, edit, map[string]string{setupField: game.FormatSetup(blue, game.NumberingModern)}).Reply(t)
	h.bob.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.waitMoves(1, 0)
	turn(h.alice, h.alice.WaitDM(t, contains("the match begins")), day)
	h.bob.WaitDM(t, contains("the match begins"))

	// Move 1, Alice by slash command. Discord holds Bob's board for five
	// hours: his time starts when it arrives, and he is told so.
	h.advance(2 * time.Hour)
	hold := h.aliceMovesBobsBoardHeld()
	h.clock.Advance(5 * time.Hour)
	h.bot.handleDue(ctx)
	if m := h.match(1); !m.ClockPending || m.Phase != storage.PhasePlaying {
		t.Fatalf("five hours without his board: clock pending %v, phase %v", m.ClockPending, m.Phase)
	}
	hold.Release()
	h.bob.WaitDM(t, contains("alice moved A4-A5"))
	due := turn(h.bob, nil, day)
	late := h.bob.WaitDM(t, contains("Your board arrived late"))
	if !strings.Contains(late.Content, "<t:"+unix(now())+":t>") || !strings.Contains(late.Content, rel(due)) {
		t.Errorf("the late board's note does not say when it arrived and when the move is due: %q", late.Content)
	}

	// Move 2, Bob by DM after his half-time reminder. Discord fails Alice's
	// board with a 503 six times (2 s, 4 s … 64 s of the outbox's backoff)
	// and rate-limits the channel's: her time starts when her board
	// arrives, two minutes late, and she is told so.
	reminded(h.bob, h.alice, due, 12*time.Hour)
	h.advance(time.Hour)
	const fails = 6
	h.srv.FailNextIn(t, dmRoute, h.alice.DM(), fails, 503)
	h.srv.RateLimitNextIn(t, dmRoute, h.channel, 1, 20*time.Millisecond)
	h.bob.SendDM(t, "J7-J6")
	h.waitStored(1, 2)
	failed := func() int {
		n := 0
		for _, r := range h.srv.Requests(dmRoute) {
			if r.Status == 503 && strings.Contains(r.Path, h.alice.DM().ID) {
				n++
			}
		}
		return n
	}
	for k := 1; k <= fails; k++ {
		h.srv.WaitFor(t, "Alice's board to fail again", func() bool { return failed() == k })
		if !h.match(1).ClockPending {
			t.Fatalf("Alice's clock runs though her board failed %d times", k)
		}
		h.advance(backoff(k, 0))
	}
	board := h.alice.WaitDM(t, contains("bob moved J7-J6"))
	due = turn(h.alice, board, day)
	late = h.alice.WaitDM(t, contains("Your board arrived late"))
	if !strings.Contains(late.Content, "<t:"+unix(now())+":t>") || !strings.Contains(late.Content, rel(due)) {
		t.Errorf("Alice's late board's note does not say when it arrived and when her move is due: %q", late.Content)
	}

	// Alice is reminded at half time, then leaves for a week an hour later:
	// her deadline moves on by the week, and Bob is told until when.
	reminded(h.alice, h.bob, due, 12*time.Hour)
	h.advance(time.Hour)
	left := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 7)).Reply(t).Content
	back := now().Add(7 * day)
	if !strings.Contains(left, "You are on vacation until "+full(back)) || !strings.Contains(left, "Days left this year: 23.") {
		t.Errorf("the vacation answered %q", left)
	}
	h.bot.deliverDue(ctx)
	h.bob.WaitDM(t, contains("alice is on vacation until "+full(back)))
	due = due.Add(7 * day)
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Errorf("the vacation moved Alice's deadline to %v, want %v", m.Deadline, due)
	}

	// The bot restarts on the vacation's third day; nothing is due, and
	// neither player hears from the bot while she is away.
	h.outboxEmpty()
	quiet := w.dms()
	h.advance(2 * day)
	h.shutdown()
	h.start()
	h.advance(3*day - time.Hour)
	if m := h.match(1); m.Phase != storage.PhasePlaying || !m.Deadline.Equal(due) || !m.VacationUntil(game.Red).Equal(back) {
		t.Fatalf("five days into her vacation, after a restart: %s, deadline %v, back %v", m.Phase, m.Deadline, m.VacationUntil(game.Red))
	}
	if n := w.dms(); n != quiet {
		t.Errorf("the players got %d DMs by the fifth day of her vacation, want none", n-quiet)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "(deadline "+rel(due)+")") {
		t.Errorf("Alice's games do not show her deadline %s after the restart: %q", rel(due), got)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; !strings.Contains(got, "alice is on vacation until "+full(back)) {
		t.Errorf("Bob's board does not show Alice's vacation after the restart: %q", got)
	}

	// Move 3: she is back two days early, by the menus under her board.
	byMenus(h.alice, board, "A5", "A6")
	h.waitMoves(1, 3)
	if answer := h.alice.SlashCommand(t, h.channel, "stratego vacation").Reply(t).Content; !strings.Contains(answer, "You have 25 days of vacation left this year") {
		t.Errorf("the two days she did not take are not back: %q", answer)
	}
	board = h.bob.WaitDM(t, contains("alice moved A5-A6"))
	due = turn(h.bob, board, day)

	// Bob's turn: his half-time reminder; then Alice proposes a pause of
	// five days, which Bob accepts an hour later. His deadline moves on by
	// the five days; everyone is told until when, Bob his deadline too.
	reminded(h.bob, h.alice, due, 12*time.Hour)
	h.advance(2 * time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 5)).Reply(t).Content; got != "You proposed to pause the match for 5 days. Your opponent accepts or declines." {
		t.Errorf("the proposal answered %q", got)
	}
	h.bot.deliverDue(ctx)
	ask := h.bob.WaitDM(t, contains("alice proposes to pause the match for 5 days"))
	h.advance(time.Hour)
	resume := now().Add(5 * day)
	if got := h.bob.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t).Content; !strings.Contains(got, "You agreed to pause the match.") || !strings.Contains(got, full(resume)) {
		t.Errorf("Bob's acceptance answered %q", got)
	}
	h.bot.deliverDue(ctx)
	due = due.Add(5 * day)
	if m := h.match(1); !m.PausedUntil().Equal(resume) || !m.Deadline.Equal(due) {
		t.Fatalf("paused until %v, Bob's deadline %v; want %v and %v", m.PausedUntil(), m.Deadline, resume, due)
	}
	h.alice.WaitDM(t, contains("paused by agreement until "+full(resume)))
	h.bob.WaitDM(t, contains("Your move is then due "+rel(due)))
	h.channelSays("paused by agreement until " + full(resume))

	// The bot restarts halfway through the pause; nobody hears from the
	// bot until it ends, on time, and Bob, already reminded at half time,
	// is not reminded again then.
	h.outboxEmpty()
	quiet = w.dms()
	h.advance(2*day + 12*time.Hour)
	h.shutdown()
	h.start()
	if got := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "(deadline "+rel(due)+")") {
		t.Errorf("Bob's games do not show his deadline %s after the restart: %q", rel(due), got)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; !strings.Contains(got, "Paused until "+full(resume)) {
		t.Errorf("Alice's board does not show the pause after the restart: %q", got)
	}
	bobReminders := moveReminders(h.bob)
	until(resume, "the pause's end", func() bool { return w.dms() == quiet })
	h.bob.WaitDM(t, contains("The pause is over: your move is due "+rel(due)))
	h.alice.WaitDM(t, contains("The pause is over: the match goes on."))
	h.channelSays("The pause is over")
	h.outboxEmpty()
	if n := moveReminders(h.bob) - bobReminders; n != 0 {
		t.Errorf("Bob got %d reminders when the pause ended, after the half-time one he had had before it", n)
	}

	// Move 4, Bob by slash command after his reminder an hour before.
	reminded(h.bob, h.alice, due, time.Hour)
	h.advance(30 * time.Minute)
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J5")).Reply(t)
	h.waitMoves(1, 4)
	due = turn(h.alice, h.alice.WaitDM(t, contains("bob moved J6-J5")), day)

	// Bob gives Alice a day in her turn; she is told her new deadline. Her
	// half-time reminder stays twelve hours after her board arrived: the
	// gift moves only the deadline.
	halfTime := now().Add(12 * time.Hour)
	h.advance(time.Hour)
	if got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; got != "You gave alice 1 day more. Gifts of time you have left in this match: 2." {
		t.Errorf("Bob's first gift answered %q", got)
	}
	h.bot.deliverDue(ctx)
	due = due.Add(day)
	h.alice.WaitDM(t, contains("bob gave you 1 day more: your move is now due "+rel(due)))
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Errorf("the gift moved Alice's deadline to %v, want %v", m.Deadline, due)
	}
	reminded(h.alice, h.bob, due, due.Sub(halfTime))

	// Move 5, Alice by DM a day later, well before the hour before her
	// deadline. On his own turn Bob gives her his two other days, for her
	// next move; a fourth gift is refused.
	h.advance(day)
	h.alice.SendDM(t, "A6-A5")
	h.waitMoves(1, 5)
	board = h.bob.WaitDM(t, contains("alice moved A6-A5"))
	turn(h.bob, board, day)
	h.advance(time.Hour)
	for left := 1; left >= 0; left-- {
		if got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; !strings.HasSuffix(got, "Gifts of time you have left in this match: "+strconv.Itoa(left)+".") {
			t.Errorf("a gift on Bob's own turn answered %q", got)
		}
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; !strings.Contains(got, "already given your opponent more time 3 times") {
		t.Errorf("a fourth gift answered %q", got)
	}
	h.bot.deliverDue(ctx)
	if n := countDMs(h.alice, "bob gave you 1 day more for your next move."); n != 2 {
		t.Errorf("Alice was told of %d gifts for her next move, want 2", n)
	}

	// Move 6, Bob by the menus of the board he had before his gifts.
	h.advance(time.Hour)
	byMenus(h.bob, board, "J5", "J6")
	h.waitMoves(1, 6)
	board = h.alice.WaitDM(t, contains("bob moved J5-J6"))
	due = turn(h.alice, board, 3*day) // her day and Bob's two

	if onTime {
		// Alice lets her three days run out: reminded at their half time
		// and an hour before, she loses at the deadline, not a second before.
		reminded(h.alice, h.bob, due, 36*time.Hour)
		reminded(h.alice, h.bob, due, time.Hour)
		until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
		h.alice.WaitDM(t, contains("You lost: you ran out of time."))
		h.bob.WaitDM(t, contains("You won: alice ran out of time."))
		h.channelSays("bob won: alice ran out of time.")
		if m := h.match(1); m.Result != (game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}) || !m.Ended.Equal(due) {
			t.Errorf("the match ended %v at %v, want Blue on time at %v", m.Result, m.Ended, due)
		}
	} else {
		// Move 7: her Scout takes the Flag, two weeks after the challenge.
		h.advance(5 * time.Hour)
		h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "E4"), discordtest.Opt("to", "E7")).Reply(t)
		h.waitMoves(1, 7)
		h.bob.WaitDM(t, contains("You lost"))
		h.alice.WaitDM(t, contains("You won"))
		if m := h.match(1); m.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) {
			t.Errorf("the match ended %v, want Red capturing the Flag", m.Result)
		}
	}
	won, lost := "0 won · 1 lost", "1 won · 0 lost"
	if onTime {
		won, lost = lost, won
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego stats").Reply(t).Content; !strings.Contains(got, "Classic: "+won+" · 0 drawn") {
		t.Errorf("Bob's stats: %q, want Classic: %s", got, won)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego stats").Reply(t).Content; !strings.Contains(got, "Classic: "+lost+" · 0 drawn") {
		t.Errorf("Alice's stats: %q, want Classic: %s", got, lost)
	}
	if weeks := now().Sub(T0); weeks < 14*day {
		t.Errorf("the match lasted %v, want weeks", weeks)
	}
	h.outboxEmpty()

	// The history keeps what was done to the time, in both players' eyes.
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		history := p.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t).Content
		for _, want := range []struct {
			text string
			n    int
		}{{"alice went on vacation for 7 days.", 1}, {"alice and bob paused the match for 5 days.", 1}, {"The pause ended.", 1}, {"bob gave alice 1 day more.", 3}} {
			if got := strings.Count(history, want.text); got != want.n {
				t.Errorf("%s's history holds %q %d times, want %d:\n%s", p.Name, want.text, got, want.n, history)
			}
		}
	}

	// Every message came once. Reminders of one deadline and gifts for the
	// next move say the same each time, so they are counted; no other DM or
	// post of the bot's repeats another.
	aliceReminders := 2
	if onTime {
		aliceReminders = 4
	}
	for _, c := range []struct {
		p    *discordtest.Member
		text string
		n    int
	}{
		{h.alice, txtMoveReminder, aliceReminders},
		{h.bob, txtMoveReminder, 3},
		{h.alice, "Reminder: your set-up is due", 0},
		{h.bob, "Reminder: your set-up is due", 1},
		{h.alice, "bob gave you 1 day more", 3},
		{h.bob, "alice is on vacation until", 1},
		{h.alice, "The pause is over", 1},
		{h.bob, "The pause is over", 1},
		{h.bob, "Your board arrived late", 1},
		{h.alice, "Your board arrived late", 1},
	} {
		if got := countDMs(c.p, c.text); got != c.n {
			t.Errorf("%s got %d DMs with %q, want %d", c.p.Name, got, c.text, c.n)
		}
	}
	w.boardsOnce("A4-A5", "J7-J6", "A5-A6", "J6-J5", "A6-A5", "J5-J6")
	w.noRepeats()
}

// TestBarrageWhileAway plays a Barrage match of three days a move in
// which the clock stops while it waits: Bob goes on vacation on Alice's
// turn, so that his own turn begins stopped, across a restart, and he
// ends the vacation early by moving; Bob proposes a pause while Alice's
// board is held by Discord, she accepts it before her board arrives, and
// her time starts at its arrival plus what is left of the pause, across a
// restart; Bob gives her a day after her half-time reminder; she moves by
// the menus. Alice then gives Bob three days on his last turn (a fourth
// refused), and he loses on time after his reminder an hour before.
func TestBarrageWhileAway(t *testing.T) {
	t.Parallel()
	const (
		day     = 24 * time.Hour
		turn3   = 3 * day
		dmRoute = "POST /channels/{channel_id}/messages"
	)
	h := newHarness(t)
	w := weeks{t, h}
	now := h.clock.Now
	red, blue := barrageArmies(t)

	// Set-ups: both typed back by DM.
	h.challenge("Barrage", discordtest.Opt("move_time", "72h"))
	for _, s := range []struct {
		p     *discordtest.Member
		setup game.Setup
	}{{h.alice, red}, {h.bob, blue}} {
		s.p.WaitDM(t, contains("Send me your secret set-up"))
		s.p.SendDM(t, game.FormatSetup(s.setup, game.NumberingModern))
		preview := s.p.WaitDM(t, contains("Your set-up for match"))
		s.p.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
		h.advance(3 * time.Hour)
	}
	h.alice.WaitDM(t, contains("the match begins"))
	h.waitMoves(1, 0)
	h.outboxEmpty()

	// Alice's turn is a day old when Bob leaves for four days: his clock
	// is not running, so nothing moves yet, and Alice is told until when.
	h.advance(20 * time.Hour)
	back := now().Add(4 * day)
	if got := h.bob.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 4)).Reply(t).Content; !strings.Contains(got, "You are on vacation until "+fullMark(back)) {
		t.Errorf("Bob's vacation answered %q", got)
	}
	h.bot.deliverDue(t.Context())
	h.alice.WaitDM(t, contains("bob is on vacation until "+fullMark(back)))

	// Move 1, Alice by DM, before her half-time reminder: Bob's turn
	// begins stopped, his three days counted from his return.
	h.advance(10 * time.Hour)
	h.alice.SendDM(t, "I1-I2")
	h.waitMoves(1, 1)
	board := h.bob.WaitDM(t, contains("alice moved I1-I2"))
	due := w.turn(h.bob, board, back.Sub(now())+turn3)

	// The bot restarts during his vacation; he is reminded of nothing, and
	// comes back a day and a half early by moving, by slash command.
	h.advance(day)
	h.shutdown()
	h.start()
	h.advance(12 * time.Hour)
	if n := countDMs(h.bob, txtMoveReminder); n != 0 {
		t.Errorf("Bob was reminded %d times on vacation", n)
	}
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Errorf("Bob's deadline after the restart %v, want %v", m.Deadline, due)
	}

	// Move 2. Discord holds Alice's board; Bob proposes a pause of two
	// days meanwhile, and she accepts it by command before her board
	// comes. Her time starts when it arrives, six hours later, plus what
	// is left of the pause.
	hold := h.srv.HoldNextIn(t, dmRoute, h.alice.DM(), 1)
	defer hold.Release()
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	h.waitStored(1, 2)
	if got := h.bob.SlashCommand(t, h.channel, "stratego vacation").Reply(t).Content; !strings.Contains(got, "You have 28 days of vacation left this year") {
		t.Errorf("the day and a half Bob did not take is not back: %q", got)
	}
	h.srv.WaitFor(t, "Alice's board to be held", func() bool { return hold.Waiting() == 1 })
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
	h.clock.Advance(time.Hour)
	resume := now().Add(2 * day)
	if got := h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t).Content; !strings.Contains(got, "You agreed to pause the match.") || !strings.Contains(got, fullMark(resume)) {
		t.Errorf("Alice's acceptance answered %q", got)
	}
	h.clock.Advance(5 * time.Hour)
	h.bot.handleDue(t.Context())
	if m := h.match(1); !m.ClockPending || !m.PausedUntil().Equal(resume) {
		t.Fatalf("six hours without her board: clock pending %v, paused until %v", m.ClockPending, m.PausedUntil())
	}
	hold.Release()
	board = h.alice.WaitDM(t, contains("bob moved J7-J6"))
	due = w.turn(h.alice, nil, resume.Sub(now())+turn3)
	if late := h.alice.WaitDM(t, contains("Your board arrived late")); !strings.Contains(late.Content, relMark(due)) {
		t.Errorf("the late board's note does not give her deadline after the pause, %s: %q", relMark(due), late.Content)
	}
	h.alice.WaitDM(t, contains("paused by agreement until "+fullMark(resume)))
	h.bob.WaitDM(t, contains("paused by agreement until "+fullMark(resume)))

	// The bot restarts in the pause; it ends on time.
	h.advance(day)
	h.shutdown()
	h.start()
	w.until(resume, "the pause's end", func() bool { return countDMs(h.alice, "The pause is over") == 0 })
	h.alice.WaitDM(t, contains("The pause is over: your move is due "+relMark(due)))
	h.bob.WaitDM(t, contains("The pause is over: the match goes on."))

	// Alice's half-time reminder, then Bob gives her a day: her deadline
	// moves on, and so does the reminder an hour before it; the half-time
	// one, sent already, does not come again.
	w.reminded(h.alice, h.bob, due, turn3/2)
	h.advance(time.Hour)
	h.bob.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
	h.bot.deliverDue(t.Context())
	due = due.Add(day)
	h.alice.WaitDM(t, contains("bob gave you 1 day more: your move is now due "+relMark(due)))
	w.reminded(h.alice, h.bob, due, time.Hour)

	// Move 3, Alice by the menus of the board that came late, before the
	// pause, the reminders and the gift.
	w.byMenus(h.alice, board, "I2", "I3")
	h.waitMoves(1, 3)
	due = w.turn(h.bob, h.bob.WaitDM(t, contains("alice moved I2-I3")), turn3)

	// Alice gives Bob three days; the fourth is refused. He lets them run
	// out: reminded at half time (of the three days his turn had when his
	// board arrived) and an hour before his deadline, he loses at it.
	bobHalfTime := now().Add(turn3 / 2)
	h.advance(time.Hour)
	for k := 1; k <= storage.MaxGifts; k++ {
		h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t).Content; !strings.Contains(got, "already given your opponent more time 3 times") {
		t.Errorf("a fourth gift answered %q", got)
	}
	h.bot.deliverDue(t.Context())
	due = due.Add(3 * day)
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Fatalf("three gifts moved Bob's deadline to %v, want %v", m.Deadline, due)
	}
	w.reminded(h.bob, h.alice, due, due.Sub(bobHalfTime))
	w.reminded(h.bob, h.alice, due, time.Hour)
	w.until(due, "the loss on time", func() bool { return h.match(1).Phase == storage.PhasePlaying })
	h.bob.WaitDM(t, contains("You lost: you ran out of time."))
	h.alice.WaitDM(t, contains("You won: bob ran out of time."))
	h.outboxEmpty()

	history := h.alice.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t).Content
	for _, want := range []struct {
		text string
		n    int
	}{{"bob went on vacation for 4 days.", 1}, {"bob and alice paused the match for 2 days.", 1}, {"The pause ended.", 1},
		{"bob gave alice 1 day more.", 1}, {"alice gave bob 1 day more.", 3}} {
		if got := strings.Count(history, want.text); got != want.n {
			t.Errorf("the history holds %q %d times, want %d:\n%s", want.text, got, want.n, history)
		}
	}
	for _, c := range []struct {
		p    *discordtest.Member
		text string
		n    int
	}{
		{h.alice, txtMoveReminder, 2}, {h.bob, txtMoveReminder, 2},
		{h.alice, "their clock in this match stops until then", 1}, {h.alice, "Your board arrived late", 1}, {h.bob, "Your board arrived late", 0},
		{h.alice, "paused by agreement", 1}, {h.bob, "paused by agreement", 1}, {h.alice, "The pause is over", 1},
		{h.bob, "alice gave you 1 day more", 3},
	} {
		if got := countDMs(c.p, c.text); got != c.n {
			t.Errorf("%s got %d DMs with %q, want %d", c.p.Name, got, c.text, c.n)
		}
	}
	w.noRepeats()
}

// dms counts the bot's DMs to both players.
func (w weeks) dms() int {
	n := 0
	for _, p := range []*discordtest.Member{w.h.alice, w.h.bob} {
		for _, msg := range p.DMs() {
			if msg.FromBot() {
				n++
			}
		}
	}
	return n
}

// noRepeats checks that no DM or post of the bot's repeats another, but
// reminders of one deadline and gifts for the next move, which say the same
// each time (the scenarios count them).
func (w weeks) noRepeats() {
	h := w.h
	for who, msgs := range map[string][]*discordtest.Message{"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel)} {
		seen := map[string]bool{}
		for _, msg := range msgs {
			if !msg.FromBot() || strings.Contains(msg.Content, "Reminder: ") || strings.Contains(msg.Content, "for your next move.") {
				continue
			}
			if seen[msg.Content] {
				w.t.Errorf("%s got this message twice: %q", who, msg.Content)
			}
			seen[msg.Content] = true
		}
	}
}

// txtMoveReminder begins every reminder of a move.
const txtMoveReminder = "Reminder: your move is due"

// relMark and fullMark write a time as Discord's timestamps: relative ("in
// 3 days") and in full, each in its reader's time zone.
func relMark(at time.Time) string  { return "<t:" + unix(at) + ":R>" }
func fullMark(at time.Time) string { return "<t:" + unix(at) + ":f>" }

// weeks plays match #1 of its harness over days of the fake clock and
// checks its timers.
type weeks struct {
	t *testing.T
	h *harness
}

// aliceToMove starts a match of a day a move in which alice (Red) is to
// move first against bob, and returns her deadline, a day after her board
// arrived.
func aliceToMove(t *testing.T) (*harness, weeks, time.Time) {
	t.Helper()
	h := newHarness(t)
	w := weeks{t, h}
	h.dayMatch()
	h.waitMoves(1, 0)
	return h, w, w.turn(h.alice, nil, 24*time.Hour)
}

// until advances the clock to at less a second, checks that nothing fired
// early (quiet), and then takes the last second: the timers' tick.
func (w weeks) until(at time.Time, what string, quiet func() bool) {
	w.t.Helper()
	w.h.advance(at.Sub(w.h.clock.Now()) - time.Second)
	if !quiet() {
		w.t.Fatalf("%s came a second early", what)
	}
	w.h.advance(time.Second)
}

// reminded checks that p is reminded exactly lead before due, once, with
// the deadline, and that the other player is not.
func (w weeks) reminded(p, other *discordtest.Member, due time.Time, lead time.Duration) {
	w.t.Helper()
	w.remindedIn(p, other, txtMoveReminder+" ", txtMoveReminder, due, lead)
}

// remindedIn is reminded for players who read other languages: a reminder
// begins with prefix in p's, with otherPrefix in the other player's.
func (w weeks) remindedIn(p, other *discordtest.Member, prefix, otherPrefix string, due time.Time, lead time.Duration) {
	t := w.t
	t.Helper()
	mine, theirs := countDMs(p, prefix), countDMs(other, otherPrefix)
	w.until(due.Add(-lead), p.Name+"'s reminder "+lead.String()+" before", func() bool { return countDMs(p, prefix) == mine })
	p.WaitDM(t, contains(prefix+relMark(due)))
	if got := countDMs(p, prefix); got != mine+1 {
		t.Fatalf("%s got %d reminders %v before the deadline, want 1", p.Name, got-mine, lead)
	}
	if countDMs(other, otherPrefix) != theirs {
		t.Fatalf("%s, who waits, was reminded", other.Name)
	}
}

// boardsOnce checks that the board of each move reached both players and
// the channel once.
func (w weeks) boardsOnce(moves ...string) {
	w.t.Helper()
	h := w.h
	for _, mv := range moves {
		for who, msgs := range map[string][]*discordtest.Message{"alice": h.alice.DMs(), "bob": h.bob.DMs(), "the channel": h.srv.ChannelMessages(h.channel)} {
			n := 0
			for _, msg := range msgs {
				if msg.FromBot() && strings.Contains(msg.Content, mv) && len(msg.Files) == 1 {
					n++
				}
			}
			if n != 1 {
				w.t.Errorf("%s got the board of %s %d times, want once", who, mv, n)
			}
		}
	}
}

// barrageArmies are the Red and Blue Barrage set-ups that the scenarios of
// weeks play.
func barrageArmies(t *testing.T) (red, blue game.Setup) {
	t.Helper()
	rules := game.DefaultRules(game.VariantBarrage)
	red = setupOf(t, rules, map[[2]int]game.Rank{{0, 4}: game.Scout, {2, 0}: game.Bomb, {3, 0}: game.Flag, {3, 5}: game.Marshal,
		{3, 6}: game.General, {3, 7}: game.Miner, {3, 8}: game.Scout, {3, 9}: game.Spy})
	blue = setupOf(t, rules, map[[2]int]game.Rank{{0, 0}: game.Scout, {0, 5}: game.Flag, {3, 0}: game.Marshal, {3, 1}: game.General,
		{3, 2}: game.Miner, {3, 3}: game.Scout, {3, 4}: game.Spy, {3, 6}: game.Bomb})
	return red, blue
}

// turn checks that the time of p, to move, started now with turnTime for
// it (ahead of it, what is left of a pause or vacation), and that the
// board, if given, shows that deadline.
func (w weeks) turn(p *discordtest.Member, board *discordtest.Message, turnTime time.Duration) time.Time {
	t, h := w.t, w.h
	t.Helper()
	h.bot.deliverDue(t.Context())
	m := h.match(1)
	now := h.clock.Now()
	due := now.Add(turnTime)
	if m.ClockPending || !m.Deadline.Equal(due) {
		t.Fatalf("%s's turn: clock pending %v, deadline %v after its board arrived, want %v", p.Name, m.ClockPending, m.Deadline.Sub(now), turnTime)
	}
	if board != nil && !strings.Contains(board.Content, "(deadline "+relMark(due)+")") {
		t.Errorf("%s's board does not show the deadline %s: %q", p.Name, relMark(due), board.Content)
	}
	return due
}

// byMenus plays from-to with the menus under board, which must still be
// live: a board stays valid for as long as its turn.
func (w weeks) byMenus(p *discordtest.Member, board *discordtest.Message, from, to string) {
	t, h := w.t, w.h
	t.Helper()
	picked, _ := h.pick(p, board, 0, from)
	if menus := picked.SelectMenus(); len(menus) != 1 || !strings.Contains(menus[0].Placeholder, "Move "+from+" to") {
		t.Fatalf("%s picked %s under the board of their turn and got the menus %+v: the board went stale", p.Name, from, menus)
	}
	h.pick(p, picked, 0, to)
}
