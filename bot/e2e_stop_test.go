package bot

import (
	"context"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestStopCutsAHeldSend: Discord holds the channel's board of a move (a new
// message, or in the live board mode the edit of the channel's board) while
// the bot is stopped. Run returns while the request is still held (before
// Discord answers it), the notice is left as it was (not
// marked sent, no failed attempt), and after a restart each player and the
// channel have the move's board exactly once, whether Discord makes the cut
// message before the restart or only after the new process sent it again.
func TestStopCutsAHeldSend(t *testing.T) {
	// heldFor is how long Discord holds the send before it answers after
	// all: far past a stop's second, so that only a stop that waits for
	// the answer sees it, however loaded the machine.
	const heldFor = 10 * time.Second
	t.Parallel()
	for _, tc := range []struct {
		name string
		live bool // the live board mode: the channel's board is an edit
		// afterRestart: Discord answers the cut request only once the
		// new process has sent the message again.
		afterRestart bool
	}{
		{"Discord makes it before the restart", false, false},
		{"Discord makes it after the restart", false, true},
		{"live board: Discord makes the edit before the restart", true, false},
		{"live board: Discord makes the edit after the restart", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			route := "POST /channels/{channel_id}/messages"
			if tc.live {
				boardMode(t, "live")(h)
				route = "PATCH /channels/{channel_id}/messages/{message_id}"
			}
			h.startClassic()
			h.bob.WaitDM(t, contains("the match begins"))
			h.channelSays("the match begins")
			held := h.srv.HoldNextIn(t, route, h.channel, 1)
			defer held.Release()
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.srv.WaitFor(t, "Discord to hold the channel's board", func() bool { return held.Waiting() > 0 })

			stopped := make(chan struct{})
			go func() {
				h.shutdown()
				close(stopped)
			}()
			select {
			case <-stopped:
			case <-time.After(heldFor):
				held.Release() // Discord answers at last
				<-stopped
				t.Fatal("Run returned only once Discord answered the send it held")
			}
			for _, n := range h.noticesLeft(t) {
				if n.Attempts != 0 {
					t.Errorf("notice %d (%s to %v): %d failed attempts counted for a send the stop cut, want 0", n.ID, n.Event, n.To, n.Attempts)
				}
			}
			if !tc.afterRestart {
				held.Release()
				h.srv.WaitFor(t, "Discord to make the cut message", func() bool { return held.Waiting() == 0 })
			}
			h.start()
			h.channelSays("alice moved A4-A5")
			h.bob.WaitDM(t, contains("alice moved A4-A5"))
			h.alice.WaitDM(t, contains("You moved"))
			held.Release()
			h.srv.WaitFor(t, "Discord to answer the cut request", func() bool { return held.Waiting() == 0 })
			h.bot.deliverDue(context.Background())
			h.seenOnce(t, "A4-A5")
		})
	}
}

// noticesLeft reads the outbox of a stopped bot: the notices still to be
// delivered, whenever due.
func (h *harness) noticesLeft(t *testing.T) []storage.Notice {
	t.Helper()
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	due, err := db.DueNotices(context.Background(), h.clock.Now().Add(24*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) == 0 {
		t.Fatal("the outbox is empty after the stop; want the cut notice left in it")
	}
	return due
}
