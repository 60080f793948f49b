package bot

import (
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

func TestForfeitOnTimeAfterReminders(t *testing.T) {
	t.Parallel()
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

func TestSetupNotSentInTime(t *testing.T) {
	t.Parallel()
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

func TestChallengeExpires(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
