package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestLiveMessageDeleted: in the live board mode a moderator deletes the
// match's live message. The next board is posted anew in the channel and
// edited from then on: the channel is not given up (nobody is told the bot
// may no longer post there), and each move is shown once.
func TestLiveMessageDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	boardMode(t, "live")(h)
	h.startClassic()
	h.waitMoves(1, 0)
	m := h.match(1)
	if m.LiveMessage == "" {
		t.Fatal("no live message")
	}
	h.srv.DeleteMessage(m.LiveMessage)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	h.outboxEmpty()
	for _, who := range []*discordtest.Member{h.alice, h.bob} {
		for _, dm := range who.DMs() {
			if strings.Contains(dm.Content, "no longer post") || strings.Contains(dm.Content, "goes on here, by DM") {
				t.Errorf("%s was told the channel is out of reach: %q", who.Name, dm.Content)
			}
		}
	}
	if m := h.match(1); m.PublicGone {
		t.Error("the match gave its channel up")
	}
	boards := 0
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if len(msg.Files) == 1 {
			boards++
			if !strings.Contains(msg.Content, "J7-J6") {
				t.Errorf("the channel's board says %q; want the last move, J7-J6", msg.Content)
			}
		}
	}
	if boards != 1 {
		t.Errorf("the channel shows %d boards; want one live message", boards)
	}
}

// TestSentBoardDeletedBeforeItsRetry: the channel's board is made, but
// Discord's answer comes too late, and a moderator deletes the board before
// the outbox sends it again. Discord answers the resend (its nonce) with
// Unknown Message: the board was delivered, and the match keeps its channel.
func TestSentBoardDeletedBeforeItsRetry(t *testing.T) {
	t.Parallel()
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithClientTimeout(2 * time.Second)})
	h.startClassic()
	h.waitMoves(1, 0)
	h.srv.DelayNextIn(t, "POST /channels/{channel_id}/messages", h.channel, 1, 2500*time.Millisecond)
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitStored(1, 1)
	var board *discordtest.Message
	h.srv.WaitFor(t, "the late board", func() bool {
		for _, msg := range h.srv.ChannelMessages(h.channel) {
			if strings.Contains(msg.Content, "alice moved A4-A5") {
				board = msg
			}
		}
		return board != nil
	})
	h.srv.WaitFor(t, "the board to be put off", func() bool {
		due, err := h.db.DueNotices(context.Background(), h.clock.Now().Add(time.Hour), 0)
		return err == nil && len(due) == 1 && due[0].Attempts == 1
	})
	h.srv.DeleteMessage(board.ID)
	h.advance(backoff(1, 0))
	h.outboxEmpty()
	if m := h.match(1); m.PublicGone {
		t.Error("the match gave its channel up")
	}
	for _, who := range []*discordtest.Member{h.alice, h.bob} {
		if n := countDMs(who, "no longer post"); n != 0 {
			t.Errorf("%s was told the channel is out of reach", who.Name)
		}
	}
}
