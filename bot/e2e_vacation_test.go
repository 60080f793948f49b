package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestVacation: Alice goes on vacation for five days in a game of a day a
// move. Bob is told, the board shows it, her deadline moves on by five
// days, and the server's allowance bounds what she may take. She comes back
// early by moving, which tells Bob, gives the days not taken back and is
// listed in the history with its time. Her next vacation runs out on time, across a restart.
func TestVacation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.allowVacationDays(8)
	h.dayMatch()
	due := h.waitMoves(1, 0).Deadline
	day := 24 * time.Hour

	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 9)).Reply(t).Content; !strings.Contains(got, "You have 8 days of vacation left this year (8 in all)") {
		t.Errorf("nine days of eight answered %q", got)
	}
	// Asked in a DM, where no server sets an allowance, the server of the
	// match it would stop still bounds it.
	if got := h.alice.SlashCommand(t, h.alice.DM(), "stratego vacation", discordtest.Opt("days", 9)).Reply(t).Content; !strings.Contains(got, "You have 8 days of vacation left this year (8 in all)") {
		t.Errorf("nine days of eight, asked in a DM, answered %q", got)
	}
	left := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content
	until := h.clock.Now().Add(5 * day)
	untilMark := "<t:" + strconv.FormatInt(until.Unix(), 10) + ":f>"
	if !strings.Contains(left, "You are on vacation until "+untilMark) || !strings.Contains(left, "(1)") || !strings.Contains(left, "Days left this year: 3.") {
		t.Errorf("the vacation answered %q", left)
	}
	h.bot.deliverDue(t.Context())
	h.bob.WaitDM(t, contains("alice is on vacation until "+untilMark))
	if m := h.match(1); !m.Deadline.Equal(due.Add(5 * day)) {
		t.Errorf("Alice's deadline moved %v, want 5 days", m.Deadline.Sub(due))
	}
	// Her own board says it of her as "you", Bob's of her by name.
	if got := h.alice.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; !strings.Contains(got, "You are on vacation until "+untilMark) || strings.Contains(got, "alice is on vacation") {
		t.Errorf("her board does not show her vacation: %q", got)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; !strings.Contains(got, "alice is on vacation until "+untilMark) {
		t.Errorf("Bob's board does not show her vacation: %q", got)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego games").Reply(t).Content; !strings.Contains(got, "their move (deadline <t:"+strconv.FormatInt(due.Add(5*day).Unix(), 10)+":R>) · alice is on vacation until "+untilMark) {
		t.Errorf("Bob's list of games does not show the vacation: %q", got)
	}

	// Two days later she moves: the vacation ends, and so do the three days
	// she did not take.
	h.advance(2 * day)
	if m := h.match(1); m.Phase != storage.PhasePlaying {
		t.Fatalf("Alice lost during her vacation: %+v", m.Result)
	}
	backEarly := "alice came back from vacation early, <t:" + strconv.FormatInt(h.clock.Now().Unix(), 10) + ":f>."
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	settings := h.bot.settingsOf(t.Context(), h.alice.ID)
	if _, on := settings.OnVacation(h.clock.Now()); on || settings.VacationDaysUsed(h.clock.Now()) != 2 {
		t.Errorf("after her move: on vacation %v, %d days used, want 2", on, settings.VacationDaysUsed(h.clock.Now()))
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t).Content; got != "You are not on vacation." {
		t.Errorf("ending a vacation already over answered %q", got)
	}

	// Bob's turn; Alice leaves again for three days, then the restart.
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	h.waitMoves(1, 2)
	turn := h.match(1).Deadline
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
	if m := h.match(1); !m.Deadline.Equal(turn.Add(3 * day)) {
		t.Errorf("the second vacation moved her deadline %v, want 3 days", m.Deadline.Sub(turn))
	}
	h.shutdown()
	h.start()
	h.advance(3 * day)
	h.bob.WaitDM(t, contains("alice is back from vacation."))
	if m := h.match(1); !m.VacationUntil(game.Red).IsZero() || !m.Deadline.Equal(turn.Add(3*day)) {
		t.Errorf("after the vacation ran out: until %v, deadline %v after her turn began", m.VacationUntil(game.Red), m.Deadline.Sub(turn))
	}
	history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t).Content
	if strings.Count(history, "alice went on vacation for") != 2 || strings.Count(history, "alice came back from vacation.") != 1 {
		t.Errorf("the history does not keep both vacations, and the return from the one that ran out:\n%s", history)
	}
	// Her early return, by her move, is listed with its time, before that move.
	if !strings.Contains(history, "   "+backEarly+"\n1. Red A4-A5") {
		t.Errorf("the history does not list her early return before her move, as %q:\n%s", backEarly, history)
	}
}

// TestTournamentGamesGoOn: a tournament game of a day a move neither pauses
// nor stops for a vacation, in set-up or in play, since its round has a
// deadline that would cost both players; the member is told so, and that a
// vacation that would stop nothing is not taken.
func TestTournamentGamesGoOn(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Long games"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("move_time", "24h"), discordtest.Opt("starts_in_hours", 1)), "Tournament #1: Long games")
	h.expect(h.run(h.alice, "join"), "You joined")
	h.expect(h.run(h.bob, "join"), "You joined")
	h.advance(time.Hour)
	matches := h.roundMatches(1)
	if len(matches) != 1 {
		t.Fatalf("the round started %d matches, want 1", len(matches))
	}
	m := matches[0]
	// In set-up, its deadline does not wait for a vacation either.
	got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t).Content
	if !strings.Contains(got, "no days were taken") || !strings.Contains(got, "Your tournament games (1) go on") {
		t.Errorf("a vacation with a tournament game in set-up answered %q", got)
	}
	if after := h.match(m.ID); after.Phase != storage.PhaseSetup || !after.Deadline.Equal(m.Deadline) || len(after.Log) > 0 {
		t.Errorf("the tournament game's set-up waits for the vacation: %s, deadline moved %v, log %v", after.Phase, after.Deadline.Sub(m.Deadline), after.Log)
	}
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t)
	title := "**Match #" + m.ID.String() + "**"
	for side := game.Red; side <= game.Blue; side++ {
		p := h.members[m.Players[side].UserID]
		invite := p.WaitDM(t, func(msg *discordtest.Message) bool {
			return strings.Contains(msg.Content, title) && hasButton(msg, "Random")
		})
		preview := p.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
		p.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	}
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(m.ID).Phase == storage.PhasePlaying })

	if got := h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 3)).Reply(t).Content; !strings.Contains(got, "Tournament games do not pause") {
		t.Errorf("a pause in a tournament game answered %q", got)
	}
	got = h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t).Content
	if !strings.Contains(got, "no days were taken") || !strings.Contains(got, "Your tournament games (1) go on") {
		t.Errorf("a vacation with a tournament game answered %q", got)
	}
	if used := h.bot.settingsOf(t.Context(), h.alice.ID).VacationDaysUsed(h.clock.Now()); used != 0 {
		t.Errorf("vacations that stopped nothing cost %d days", used)
	}
	after := h.match(m.ID)
	side, plays := after.SideOf(h.alice.ID)
	if !plays {
		t.Fatalf("alice does not play match %s", after.ID)
	}
	if !after.VacationUntil(side).IsZero() || !after.PausedUntil().IsZero() {
		t.Errorf("the tournament game stopped: vacation until %v, paused until %v", after.VacationUntil(side), after.PausedUntil())
	}
}

// TestVacationCarriedIntoANewMatch: Alice goes on vacation for five days,
// which stops her clock in match #1, then Bob accepts her challenge to
// another match of a day a move, #2. Her vacation is carried into it at
// once, for the whole days of it still to come: the set-up deadline waits,
// Bob is told when the set-ups are now due, and when the game begins her
// first turn waits for her return. Her return by command is in the
// history, with its time.
func TestVacationCarriedIntoANewMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	day := 24 * time.Hour
	h.challengeIn(h.channel)
	h.bot.deliverDue(t.Context())
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content; !strings.Contains(got, "correspondence matches (1)") {
		t.Fatalf("a vacation with a match in set-up answered %q", got)
	}
	back := h.clock.Now().Add(5 * day)
	h.advance(time.Hour)
	h.challengeIn(h.channel)
	h.bot.deliverDue(t.Context())
	m := h.match(2)
	until := m.VacationUntil(game.Red)
	if until.IsZero() || until.After(back) || back.Sub(until) >= day {
		t.Fatalf("Alice's vacation in the new match ends %v, want within the day before %v", until, back)
	}
	if want := m.Created.Add(m.MoveTime).Add(until.Sub(m.Created)); m.Phase != storage.PhaseSetup || !m.Deadline.Equal(want) {
		t.Errorf("the set-ups are due %v after the match began, want %v", m.Deadline.Sub(m.Created), want.Sub(m.Created))
	}
	h.bob.WaitDM(t, contains("The set-ups of this match are now due <t:"+strconv.FormatInt(m.Deadline.Unix(), 10)+":f>"))

	h.advance(time.Hour)
	h.randomSetups(2)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(2).Phase == storage.PhasePlaying })
	h.bot.deliverDue(t.Context())
	m = h.match(2)
	if want := until.Add(m.MoveTime); m.ClockPending || !m.Deadline.Equal(want) {
		t.Errorf("Alice's deadline %v (clock pending %v), want her move time after her vacation, %v", m.Deadline, m.ClockPending, want)
	}

	// She ends it early by command: the history lists her return, with its time.
	h.advance(time.Hour)
	backEarly := "alice came back from vacation early, <t:" + strconv.FormatInt(h.clock.Now().Unix(), 10) + ":f>."
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t)
	if history := h.bob.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "2")).Reply(t).Content; !strings.Contains(history, "alice went on vacation for") || !strings.Contains(history, backEarly) {
		t.Errorf("the history does not list her vacation and her return %q:\n%s", backEarly, history)
	}
}

// TestVacationDuringSetUp: Alice goes on vacation for three days while the
// set-ups of a match of a day a move are still to come. The set-up deadline
// and its reminders move on by three days, across a restart: the match is
// not called off when its first deadline passes, and Bob is told when the
// set-ups are now due, when she leaves and when she is back. The game then
// begins as usual.
func TestVacationDuringSetUp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	day := 24 * time.Hour
	h.challengeIn(h.channel)
	h.bot.deliverDue(t.Context())
	first := h.match(1).Deadline
	h.advance(time.Hour)
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t).Content; !strings.Contains(got, "correspondence matches (1)") {
		t.Fatalf("a vacation with a match in set-up answered %q", got)
	}
	due := first.Add(3 * day)
	dueMark := "due <t:" + strconv.FormatInt(due.Unix(), 10) + ":f>"
	if m := h.match(1); !m.Deadline.Equal(due) || !m.RemindAt.Equal(due.Add(-12*time.Hour)) {
		t.Errorf("set-up deadline %v, reminder %v after the first deadline; want 3 days and 2.5 days", m.Deadline.Sub(first), m.RemindAt.Sub(first))
	}
	h.bot.deliverDue(t.Context())
	h.bob.WaitDM(t, func(msg *discordtest.Message) bool {
		return strings.Contains(msg.Content, "alice is on vacation until") && strings.Contains(msg.Content, dueMark)
	})

	// The first deadline, and its reminders, pass: nothing happens.
	h.advance(day)
	h.shutdown()
	h.start()
	h.advance(time.Hour)
	if m := h.match(1); m.Phase != storage.PhaseSetup {
		t.Fatalf("the match was %v at its first set-up deadline, during the vacation", m.Phase)
	}
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		for _, msg := range p.DMs() {
			if strings.Contains(msg.Content, "Reminder: your set-up is due") {
				t.Errorf("%s was reminded during the vacation: %q", p.Name, msg.Content)
			}
		}
	}

	// She is back on time; the deadline stays, and its reminders come.
	h.advance(2 * day)
	h.bob.WaitDM(t, func(msg *discordtest.Message) bool {
		return strings.Contains(msg.Content, "alice is back from vacation.") && strings.Contains(msg.Content, dueMark)
	})
	if m := h.match(1); !m.Deadline.Equal(due) || !m.VacationUntil(game.Red).IsZero() {
		t.Errorf("after the vacation: deadline %v after the first, vacation until %v", m.Deadline.Sub(first), m.VacationUntil(game.Red))
	}
	h.advance(due.Add(-12 * time.Hour).Sub(h.clock.Now()))
	reminder := "Reminder: your set-up is due <t:" + strconv.FormatInt(due.Unix(), 10) + ":R>"
	h.alice.WaitDM(t, contains(reminder))
	h.bob.WaitDM(t, contains(reminder))

	h.randomSetups(1)
	h.srv.WaitFor(t, "the match to begin", func() bool { return h.match(1).Phase == storage.PhasePlaying })
	h.bot.deliverDue(t.Context())
	if m := h.match(1); m.ClockPending || !m.Deadline.Equal(m.Started.Add(m.MoveTime)) {
		t.Errorf("Alice's first turn ends %v after the start (pending %v), want %v", m.Deadline.Sub(m.Started), m.ClockPending, m.MoveTime)
	}
}

// TestVacationsOffOnAServer: a server's admins turn vacations off with
// vacation_days:0, and its settings say so. Alice plays a match of a day a
// move on each of two servers (#1 on the club, #2 on the other). A vacation
// stops her clock only where vacations are allowed, within the smallest
// allowance of those servers, and tells her which matches go on; when no
// server of hers allows vacations, she is refused, and nothing stops. Bob
// is told only where her clock stops.
func TestVacationsOffOnAServer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		club, other   int // each server's vacation_days; -1: never set
		askInOther    bool
		want          []string // in the answer to a vacation of 5 days
		stopped       [2]bool  // whether #1 and #2 stop
		allowanceText string   // in the answer to a vacation of 31 days; "": refused
	}{
		{name: "no server chose", club: -1, other: -1,
			want: []string{"correspondence matches (2)", "Days left this year: 25."}, stopped: [2]bool{true, true},
			allowanceText: "(30 in all)"},
		{name: "the other server turned them off", club: -1, other: 0,
			want:    []string{"correspondence matches (1)", "Your matches on servers that have turned vacations off (1) go on", "Days left this year: 25."},
			stopped: [2]bool{true, false}, allowanceText: "(30 in all)"},
		{name: "asked on the server that turned them off", club: 0, other: 10, askInOther: false,
			want:    []string{"correspondence matches (1)", "Your matches on servers that have turned vacations off (1) go on", "Days left this year: 5."},
			stopped: [2]bool{false, true}, allowanceText: "(10 in all)"},
		{name: "both servers turned them off", club: 0, other: 0, askInOther: true,
			want: []string{"The servers you play on have turned vacations off", "`/stratego pause days:3`"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			moderator(h)
			other := h.srv.AddGuild("Another Club")
			for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
				other.Join(m)
			}
			other.GiveRole(h.carol, other.AddRole("mods", discordgo.PermissionManageGuild))
			for _, s := range []struct {
				ch   *discordtest.Channel
				days int
			}{{h.channel, tc.club}, {other.General(), tc.other}} {
				if s.days < 0 {
					continue
				}
				got := h.carol.SlashCommand(t, s.ch, "stratego server", discordtest.Opt("vacation_days", s.days)).Reply(t).Content
				want := "vacation allowance: " + strconv.Itoa(s.days) + " days a year"
				if s.days == 0 {
					want = "vacations: off"
				}
				if strings.Count(got, want) != 2 { // the change, and the settings now
					t.Errorf("vacation_days:%d answered %q", s.days, got)
				}
			}
			h.challengeIn(h.channel)
			h.randomSetups(1)
			h.challengeIn(other.General())
			h.randomSetups(2)
			h.srv.WaitFor(t, "both matches to begin", func() bool {
				return h.match(1).Phase == storage.PhasePlaying && h.match(2).Phase == storage.PhasePlaying
			})
			h.bot.deliverDue(t.Context())
			before := [2]*storage.Match{h.match(1), h.match(2)}

			ask := h.channel
			if tc.askInOther {
				ask = other.General()
			}
			if tc.allowanceText != "" {
				if got := h.alice.SlashCommand(t, ask, "stratego vacation", discordtest.Opt("days", 31)).Reply(t).Content; !strings.Contains(got, tc.allowanceText) {
					t.Errorf("31 days answered %q, want %q", got, tc.allowanceText)
				}
			}
			got := h.alice.SlashCommand(t, ask, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the vacation answered %q, want %q in it", got, w)
				}
			}
			h.bot.deliverDue(t.Context())
			told := 0
			for _, msg := range h.bob.DMs() {
				if strings.Contains(msg.Content, "alice is on vacation until") {
					told++
					if !tc.stopped[0] && strings.Contains(msg.Content, "#1") || !tc.stopped[1] && strings.Contains(msg.Content, "#2") {
						t.Errorf("bob is told of a vacation in a match that goes on: %q", msg.Content)
					}
				}
			}
			want := 0
			for k, stops := range tc.stopped {
				m := h.match(storage.MatchID(k + 1))
				moved := m.Deadline.Sub(before[k].Deadline)
				if away := !m.VacationUntil(game.Red).IsZero(); away != stops || (stops && moved != 5*24*time.Hour) || (!stops && moved != 0) {
					t.Errorf("match #%d: on vacation %v, deadline moved %v; want stopped %v", k+1, away, moved, stops)
				}
				if stops {
					want++
				}
			}
			if told != want {
				t.Errorf("bob was told of %d vacations, want %d", told, want)
			}
			if _, on := h.bot.settingsOf(t.Context(), h.alice.ID).OnVacation(h.clock.Now()); on != (tc.allowanceText != "") {
				t.Errorf("alice on vacation: %v; refused: %v", on, tc.allowanceText == "")
			}
		})
	}
}

// dayMatchesInPlay starts n matches of a day a move between alice (Red) and
// bob, numbered 1 to n, each with Random set-ups, and delivers what is due.
func (h *harness) dayMatchesInPlay(n int) {
	h.t.Helper()
	for k := 1; k <= n; k++ {
		h.challengeIn(h.channel)
		h.randomSetups(k)
	}
	h.bot.deliverDue(h.t.Context())
}

// challengeIn makes alice challenge bob to a Classic match of a day a move
// in ch (she plays Red), and bob accept.
func (h *harness) challengeIn(ch *discordtest.Channel) {
	t := h.t
	t.Helper()
	msg := h.alice.SlashCommand(t, ch, "stratego challenge", discordtest.Opt("opponent", h.bob), discordtest.Opt("variant", "Classic"),
		discordtest.Opt("side", "red"), discordtest.Opt("move_time", "24h")).Reply(t)
	if !strings.Contains(msg.Content, "challenges you") {
		t.Fatalf("challenge message %q", msg.Content)
	}
	if accepted := h.bob.ClickButton(t, msg, button(t, msg, "Accept")).Reply(t); !strings.Contains(accepted.Content, "Match #") {
		t.Fatalf("accepted challenge shows %q", accepted.Content)
	}
}

// TestVacationEndsDuringAPause: Alice goes on vacation for two days on her
// turn, and the players then agree to pause for five. Her vacation ends on
// time, inside the pause: Bob is told then, not when the pause ends, and
// her board no longer shows it. Her deadline stays the rest of her day
// after the pause.
func TestVacationEndsDuringAPause(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	h := newHarness(t)
	w := weeks{t, h}
	h.dayMatch()
	due := h.waitMoves(1, 0).Deadline
	h.advance(2 * time.Hour)
	h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 2)).Reply(t)
	back := h.clock.Now().Add(2 * day)
	h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 5)).Reply(t)
	h.alice.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("action", "accept")).Reply(t)
	resume := h.clock.Now().Add(5 * day)
	due = resume.Add(due.Sub(h.clock.Now()))
	if m := h.match(1); !m.Deadline.Equal(due) {
		t.Fatalf("Alice's deadline %v, want the rest of her day after the pause, %v", m.Deadline, due)
	}
	h.outboxEmpty()

	w.until(back, "the end of the vacation", func() bool { return countDMs(h.bob, "is back from vacation") == 0 })
	h.srv.WaitFor(t, "Bob to be told Alice is back", func() bool { return countDMs(h.bob, "alice is back from vacation.") == 1 })
	m := h.match(1)
	if !m.VacationUntil(game.Red).IsZero() || !m.PausedUntil().Equal(resume) || !m.Deadline.Equal(due) {
		t.Errorf("after her vacation, in the pause: vacation until %v, paused until %v, deadline %v; want none, %v, %v", m.VacationUntil(game.Red), m.PausedUntil(), m.Deadline, resume, due)
	}
	if got := h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t).Content; strings.Contains(got, "on vacation") {
		t.Errorf("Bob's board still shows Alice's vacation: %q", got)
	}
	w.until(resume, "the end of the pause", func() bool { return countDMs(h.alice, "The pause is over") == 0 })
	h.alice.WaitDM(t, contains("The pause is over: your move is due "+relMark(due)))
	if n := countDMs(h.bob, "alice is back from vacation."); n != 1 {
		t.Errorf("Bob was told %d times that Alice is back", n)
	}
	// Her deadline after the pause she was told when it was agreed, and
	// again at its end: her vacation's end in it says nothing more.
	if n := countDMs(h.alice, "Your vacation is over"); n != 0 {
		t.Errorf("Alice was told %d times that her vacation is over, in the pause", n)
	}
}

// TestVacationTakesNoDaysForNothing: a vacation that would stop no clock is
// not taken, and costs no days: Alice is told so plainly, and stays off
// vacation with her whole allowance, whether she has no match at all, her
// only match is over, or its time ran out before the timers recorded it
// (the vacation comes too late to stop it: she loses on time).
func TestVacationTakesNoDaysForNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		before func(h *harness) // what became of Alice's matches
		phase  storage.Phase    // of match #1 after the vacation; 0: none
	}{
		{name: "she has no match", before: func(*harness) {}},
		{name: "Bob resigned her only match", before: func(h *harness) {
			h.dayMatch()
			h.waitMoves(1, 0)
			ask := h.bob.SlashCommand(h.t, h.channel, "stratego resign", discordtest.Opt("match", "1")).Reply(h.t)
			h.bob.ClickButton(h.t, ask, button(h.t, ask, "Resign")).Updated(h.t)
		}, phase: storage.PhaseFinished},
		{name: "her only match was lost on time", before: func(h *harness) {
			h.dayMatch()
			due := h.waitMoves(1, 0).Deadline
			h.advance(due.Sub(h.clock.Now()) + time.Hour)
			h.srv.WaitFor(h.t, "the time-out", func() bool { return !h.match(1).Phase.Active() })
		}, phase: storage.PhaseFinished},
		{name: "her only match ran out of time, not yet recorded", before: func(h *harness) {
			h.dayMatch()
			due := h.waitMoves(1, 0).Deadline
			h.clock.Advance(due.Sub(h.clock.Now()) + time.Hour) // the timers are not told
			if m := h.match(1); m.Phase != storage.PhasePlaying {
				h.t.Fatalf("the time-out was recorded already: %v", m.Phase)
			}
		}, phase: storage.PhaseFinished},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			tc.before(h)
			got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content
			if !strings.Contains(got, "You have no correspondence match in which a vacation would stop your clock, so no days were taken.") {
				t.Errorf("the vacation answered %q", got)
			}
			settings := h.bot.settingsOf(t.Context(), h.alice.ID)
			if _, on := settings.OnVacation(h.clock.Now()); on || settings.VacationDaysUsed(h.clock.Now()) != 0 {
				t.Errorf("after it: on vacation %v, %d days used; want neither", on, settings.VacationDaysUsed(h.clock.Now()))
			}
			if tc.phase != 0 {
				h.srv.WaitFor(t, "match #1 to be over", func() bool { return h.match(1).Phase == tc.phase })
				if m := h.match(1); !m.VacationUntil(game.Red).IsZero() || slices.ContainsFunc(m.Log, func(a storage.Action) bool { return a.Kind == storage.ActVacation }) {
					t.Errorf("match #1 holds a vacation: %v", m.Log)
				}
			}
			if got := h.alice.SlashCommand(t, h.channel, "stratego vacation").Reply(t).Content; !strings.Contains(got, "You have 30 days of vacation left this year") {
				t.Errorf("her allowance after it: %q", got)
			}
		})
	}
}

// TestVacationWhileTheListIsAway: when the database does not answer which
// matches Alice plays, her vacation is not "for nothing": she is asked to
// try again, nothing is taken, and the next try stops her match's clock.
func TestVacationWhileTheListIsAway(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.dayMatch()
	h.waitMoves(1, 0)
	h.reads.failLists.Store(1)
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content; got != "Something went wrong on my side. Please try again in a moment." {
		t.Errorf("the vacation, the list away, answered %q", got)
	}
	if settings := h.bot.settingsOf(t.Context(), h.alice.ID); settings.VacationDaysUsed(h.clock.Now()) != 0 {
		t.Errorf("%d days taken for a vacation that was not started", settings.VacationDaysUsed(h.clock.Now()))
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content; !strings.Contains(got, "correspondence matches (1)") {
		t.Errorf("the vacation tried again answered %q", got)
	}
	if h.match(1).VacationUntil(game.Red).IsZero() {
		t.Error("match #1 does not wait for her")
	}
}

// TestVacationEndsWithItsLastMatch: Alice goes on vacation for five days,
// which stops her clock in her matches. Two days later Bob resigns match #1.
// When it was the only match her vacation stopped, the vacation is over then:
// she is charged the two days she used, and has the rest back. When it
// stops another match still, it goes on, and is charged in full.
func TestVacationEndsWithItsLastMatch(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	tests := []struct {
		name     string
		matches  int
		onAfter  bool
		wantUsed int
	}{
		{name: "her only match", matches: 1, onAfter: false, wantUsed: 2},
		{name: "one of her two matches", matches: 2, onAfter: true, wantUsed: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.dayMatchesInPlay(tc.matches)
			got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 5)).Reply(t).Content
			if want := "correspondence matches (" + strconv.Itoa(tc.matches) + ")"; !strings.Contains(got, want) {
				t.Fatalf("the vacation answered %q, want %q in it", got, want)
			}
			h.advance(2 * day)
			ask := h.bob.SlashCommand(t, h.channel, "stratego resign", discordtest.Opt("match", "1")).Reply(t)
			h.bob.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
			h.srv.WaitFor(t, "match #1 to be over", func() bool { return h.match(1).Phase == storage.PhaseFinished })

			// The resignation is answered before the bot looks at what it changed.
			h.outboxEmpty()
			h.srv.WaitFor(t, fmt.Sprintf("alice on vacation %v, %d days used", tc.onAfter, tc.wantUsed), func() bool {
				settings := h.bot.settingsOf(t.Context(), h.alice.ID)
				_, on := settings.OnVacation(h.clock.Now())
				return on == tc.onAfter && settings.VacationDaysUsed(h.clock.Now()) == tc.wantUsed
			})
			if tc.matches > 1 {
				if m := h.match(2); m.VacationUntil(game.Red).IsZero() {
					t.Errorf("match #2 no longer waits for her")
				}
				return
			}
			if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t).Content; got != "You are not on vacation." {
				t.Errorf("ending the vacation after it answered %q", got)
			}
		})
	}
}

// TestVacationAcrossTheNewYear: late in December a vacation may run into
// the new year, each year giving its own days: with 3 days a year, on 30
// December in the morning alice may take 2 days of this year and 3 of the
// next, and a vacation of 4 days leaves her 1 this year.
func TestVacationAcrossTheNewYear(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.allowVacationDays(3)
	h.advance(time.Date(2026, 12, 30, 9, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
	h.dayMatch()
	h.waitMoves(1, 0)
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 6)).Reply(t).Content; !strings.Contains(got, "You may take at most 5 days from now") {
		t.Errorf("six days on 30 December answered %q", got)
	}
	if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 4)).Reply(t).Content; !strings.Contains(got, "You are on vacation until") || !strings.Contains(got, "Days left this year: 1.") {
		t.Errorf("four days on 30 December answered %q", got)
	}
	settings := h.bot.settingsOf(t.Context(), h.alice.ID)
	if this, next := settings.VacationDaysUsed(h.clock.Now()), settings.VacationDaysUsed(h.clock.Now().AddDate(1, 0, 0)); this != 2 || next != 2 {
		t.Errorf("the vacation costs %d days of 2026 and %d of 2027, want 2 and 2", this, next)
	}
}

// allowVacationDays makes carol a moderator who sets the server's yearly
// vacation allowance to days.
func (h *harness) allowVacationDays(days int) {
	h.t.Helper()
	moderator(h)
	if got := h.carol.SlashCommand(h.t, h.channel, "stratego server", discordtest.Opt("vacation_days", days)).Reply(h.t).Content; !strings.Contains(got, fmt.Sprintf("vacation allowance: %d days a year", days)) {
		h.t.Fatalf("setting the allowance answered %q", got)
	}
}
