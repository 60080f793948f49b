package bot

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// advance moves the bot's clock and returns once the timers due by then
// have been handled: it runs a pass itself, which waits for any pass of the
// timer loop under way.
func (h *harness) advance(d time.Duration) {
	h.clock.Advance(d)
	h.bot.handleDue(context.Background())
	h.bot.nudgeTimers()
}

func (h *harness) channelSays(what string) {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the channel to say "+what, func() bool {
		for _, m := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(m.Content, what) {
				return true
			}
		}
		return false
	})
}

func (h *harness) startClassic() {
	h.t.Helper()
	red := placed(h.t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(h.t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.challenge("Classic")
	h.sendSetups(red, blue)
}

func TestForfeitOnTimeAfterReminders(t *testing.T) {
	h := newHarness(t)
	h.startClassic() // Red (alice) is to move, with a day for it
	m, _ := h.db.Match(context.Background(), 1)
	if want := T0.Add(24 * time.Hour); !m.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", m.Deadline, want)
	}
	reminders := func(m *discordtest.Member) int {
		count := 0
		for _, d := range m.DMs() {
			if strings.Contains(d.Content, "Reminder") {
				count++
			}
		}
		return count
	}
	// advance returns after the timers have acted, so these counts are final.
	h.advance(11 * time.Hour)
	if n := reminders(h.alice); n != 0 {
		t.Fatalf("%d reminders before half time", n)
	}
	h.advance(time.Hour + time.Minute) // half time
	if n := reminders(h.alice); n != 1 {
		t.Fatalf("%d reminders at half time, want 1", n)
	}
	h.advance(11 * time.Hour) // one hour left
	if n := reminders(h.alice); n != 2 {
		t.Fatalf("%d reminders an hour before the deadline, want 2", n)
	}
	if n := reminders(h.bob); n != 0 {
		t.Fatalf("the player who waits was reminded %d times", n)
	}
	h.advance(time.Hour) // the deadline
	h.alice.WaitDM(t, contains("You lost: you ran out of time."))
	h.bob.WaitDM(t, contains("You won: alice ran out of time."))
	h.channelSays("bob won: alice ran out of time.")

	// The standings counted it once; stats and the leaderboard show it.
	stats := h.bob.SlashCommand(t, h.channel, "stratego stats").Reply(t)
	if !strings.Contains(stats.Content, "Classic: 1 won · 0 lost · 0 drawn") {
		t.Fatalf("bob's stats: %q", stats.Content)
	}
	stats = h.carol.SlashCommand(t, h.channel, "stratego stats", discordtest.Opt("member", h.alice)).Reply(t)
	if !strings.Contains(stats.Content, "Classic: 0 won · 1 lost · 0 drawn") {
		t.Fatalf("alice's stats seen by carol: %q", stats.Content)
	}
	board := h.carol.SlashCommand(t, h.channel, "stratego leaderboard").Reply(t)
	if lines := strings.Split(board.Content, "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "1. bob") || !strings.HasPrefix(lines[2], "2. alice") {
		t.Fatalf("leaderboard: %q", board.Content)
	}
}

func TestDeadlinePassedDuringRestart(t *testing.T) {
	h := newHarness(t)
	h.startClassic()
	h.shutdown()
	h.clock.Advance(30 * time.Hour) // the bot is down when the deadline passes
	h.start()
	h.alice.WaitDM(t, contains("You lost: you ran out of time."))
	if m, _ := h.db.Match(context.Background(), 1); m.Result != (game.Result{Outcome: game.BlueWon, Method: game.TimeForfeit}) {
		t.Fatalf("result %v", m.Result)
	}
}

func TestSetupNotSentInTime(t *testing.T) {
	h := newHarness(t)
	h.challenge("Classic")
	invite := h.alice.WaitDM(t, contains("Send me your secret set-up"))
	preview := h.alice.ClickButton(t, invite, button(t, invite, "Random")).Reply(t)
	h.alice.ClickButton(t, preview, button(t, preview, "Confirm")).Reply(t)
	h.advance(12*time.Hour + time.Minute)
	h.bob.WaitDM(t, contains("Reminder: your set-up is due"))
	h.advance(12 * time.Hour)
	h.channelSays("The match is called off")
	if m, _ := h.db.Match(context.Background(), 1); m.Phase != storage.PhaseAbandoned {
		t.Fatalf("phase %v", m.Phase)
	}
}

func TestChallengeExpires(t *testing.T) {
	h := newHarness(t)
	msg := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
	h.srv.WaitFor(t, "the challenge message to be recorded", func() bool {
		c, err := h.db.Challenge(context.Background(), 1)
		return err == nil && c.MessageID == msg.ID
	})
	h.advance(25 * time.Hour)
	h.srv.WaitFor(t, "the challenge to expire", func() bool {
		m := h.srv.Message(msg.ID)
		return strings.Contains(m.Content, "expired") && len(m.Buttons()) == 0
	})
	// The buttons are gone, and so is the challenge.
	if _, err := h.db.Challenge(context.Background(), 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the expired challenge is still stored: %v", err)
	}
}

func TestEndedTwiceAtOnceIsRatedOnce(t *testing.T) {
	h := newHarness(t)
	h.startClassic()
	ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
	h.clock.Advance(25 * time.Hour)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); h.bot.nudgeTimers() }()
	go func() { defer wg.Done(); h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Wait(t) }()
	wg.Wait()
	h.bob.WaitDM(t, contains("You won"))
	m := h.waitMoves(1, 0)
	if m.Phase != storage.PhaseFinished || !m.RatingApplied {
		t.Fatalf("phase %v, rated %v", m.Phase, m.RatingApplied)
	}
	for _, user := range []string{h.alice.ID, h.bob.ID} {
		s, err := h.db.Standing(context.Background(), h.guild.ID, game.VariantClassic, user)
		if err != nil || s.Played() != 1 {
			t.Fatalf("%s has %d rated games (%v)", user, s.Played(), err)
		}
	}
}

func TestBetweenMoves(t *testing.T) {
	h := newHarness(t)
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)

	games := h.alice.SlashCommand(t, h.channel, "stratego games").Reply(t)
	if !strings.Contains(games.Content, "**#1** vs bob — Classic, you are Red — your move") || !strings.Contains(games.Content, "<t:") {
		t.Fatalf("games: %q", games.Content)
	}
	history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t)
	if !strings.Contains(history.Content, "1. Red A4-A5\n2. Blue J7-J6") {
		t.Fatalf("history: %q", history.Content)
	}
	notOver := h.bob.SlashCommand(t, h.channel, "stratego record", discordtest.Opt("match", "1")).Reply(t)
	if !strings.Contains(notOver.Content, "once the match is over") || len(notOver.Files) != 0 {
		t.Fatalf("record of a match in play: %q", notOver.Content)
	}

	// Settings: classic numbering, a saved set-up, then deleted.
	set := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("numbering", "classic"),
		discordtest.Opt("reminders", false), discordtest.Opt("save_setup", "scout rush")).Reply(t)
	if !strings.Contains(set.Content, "numbering: classic (Marshal 1)") || !strings.Contains(set.Content, "reminders: off") || !strings.Contains(set.Content, "• scout rush — Classic") {
		t.Fatalf("settings: %q", set.Content)
	}
	choices := h.alice.Autocomplete(t, h.channel, "stratego settings", discordtest.Focused("delete_setup", "sc"))
	if len(choices) != 1 || choices[0].Value != "scout rush" {
		t.Fatalf("saved set-up choices %+v", choices)
	}
	// Alice's next board says ranks in classic numbering.
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", "A6")).Reply(t)
	h.bob.SendDM(t, "J6-J5")
	h.waitMoves(1, 4)
	h.alice.SendDM(t, "E4xE7")
	h.bob.WaitDM(t, contains("You lost"))
	record := h.bob.SlashCommand(t, h.channel, "stratego record").Reply(t)
	if len(record.Files) != 1 {
		t.Fatalf("record: %q with %d files", record.Content, len(record.Files))
	}
	rec, err := game.ParseGravon(bytes.NewReader(record.Files[0].Data))
	if err != nil || len(rec.Moves) != 5 || rec.Result != (game.Result{Outcome: game.RedWon, Method: game.FlagCaptured}) {
		t.Fatalf("the record reads back as %d moves, %v (%v)", len(rec.Moves), rec.Result, err)
	}
	history = h.alice.SlashCommand(t, h.channel, "stratego history", discordtest.Opt("match", "1")).Reply(t)
	if !strings.Contains(history.Content, "5. Red E4xE7 Scout (9) beats Flag") {
		t.Fatalf("final history in classic numbering: %q", history.Content)
	}
	rules := h.carol.SlashCommand(t, h.channel, "stratego rules", discordtest.Opt("variant", "Barrage")).Reply(t)
	if !strings.Contains(rules.Content, "**Barrage**: 1× Marshal (10), 1× General (9), 1× Miner (3), 2× Scout (2), 1× Spy, 1× Bomb, 1× Flag") {
		t.Fatalf("rules: %q", rules.Content)
	}
	del := h.alice.SlashCommand(t, h.channel, "stratego settings", discordtest.Opt("delete_setup", "scout rush")).Reply(t)
	if !strings.Contains(del.Content, "No saved set-ups") {
		t.Fatalf("after deleting: %q", del.Content)
	}
}

// TestSetupReminderSaysWhatHappens: a set-up not sent in time calls the
// match off with no result, and the reminder says so.
func TestSetupReminderSaysWhatHappens(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.challenge("Classic")
	h.advance(12*time.Hour + time.Minute)
	reminder := h.alice.WaitDM(t, contains("Reminder: your set-up is due"))
	if strings.Contains(reminder.Content, "lose") || !strings.Contains(reminder.Content, "called off with no result") {
		t.Fatalf("the set-up reminder says %q", reminder.Content)
	}
}
