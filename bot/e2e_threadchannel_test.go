package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// A match made in a thread is played in that thread (TestChallengeInThreadPlaysInIt):
// the thread is the match's channel. Discord archives a thread after a
// quiet spell (an hour to a week, as the thread's creator chose), which in a
// game of a day a move comes between moves; a moderator may lock it, or
// take what the bot may do there. Each test changes the local Discord's
// world and plays on.

// threadMatch starts a public thread in the harness's channel, has alice
// challenge bob there and both send their set-ups: the match is played in
// the thread. The harness's channel is the thread afterwards.
func threadMatch(t *testing.T, h *harness) *discordtest.Channel {
	t.Helper()
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	h.channel = thread
	h.startClassic()
	h.waitMoves(1, 0)
	if m := h.match(1); m.Where() != thread.ID {
		t.Fatalf("match #1 is played in %s, want the thread %s", m.Where(), thread.ID)
	}
	return thread
}

// TestLiveBoardInArchivedThread: on a server whose boards are one live
// message, a match made in a thread that archived itself between two moves
// goes on in it: the bot unarchives the thread (as a post there would) and
// edits the live message, also when Discord first fails the unarchiving.
// The channel is not given up, nobody is told the bot may no longer post
// there, and each move is shown once. A thread locked and archived, which
// the bot may not unarchive, is out of reach: both players are told once.
func TestLiveBoardInArchivedThread(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(h *harness, th *discordtest.Channel)
		lost   bool // the thread is out of reach: the match goes on by DM
	}{
		{"archived after a quiet spell", func(h *harness, th *discordtest.Channel) { th.Archive() }, false},
		{"archived, and Discord fails the unarchiving once", func(h *harness, th *discordtest.Channel) {
			th.Archive()
			h.srv.FailNextIn(t, "PATCH /channels/{channel_id}", th, 1, 500)
		}, false},
		{"locked and archived", func(h *harness, th *discordtest.Channel) { th.Lock(); th.Archive() }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			boardMode(t, "live")(h)
			thread := threadMatch(t, h)
			live := h.match(1).LiveMessage
			if live == "" {
				t.Fatal("no live message")
			}
			tc.change(h, thread)
			h.alice.SendDM(t, "A4-A5")
			h.waitMoves(1, 1)
			if tc.lost {
				for _, p := range []*discordtest.Member{h.alice, h.bob} {
					p.WaitDM(t, contains("I may no longer post in the match's channel"))
				}
			}
			h.advance(time.Minute) // a notice put off is tried again
			h.outboxEmpty()
			if m := h.match(1); m.PublicGone != tc.lost {
				t.Fatalf("the match counts its thread out of reach: %v, want %v", m.PublicGone, tc.lost)
			}
			if thread.Archived() != tc.lost {
				t.Errorf("the thread is archived after the move: %v", thread.Archived())
			}
			want := 1
			if tc.lost {
				want = 0
			}
			for _, p := range []*discordtest.Member{h.alice, h.bob} {
				if n := toldCount(p, "I may no longer post"); n != 1-want {
					t.Errorf("%s was told %d times the channel is out of reach", p.Name, n)
				}
			}
			shown := 0
			for _, msg := range h.srv.ChannelMessages(thread) {
				if strings.Contains(msg.Content, "alice moved A4-A5") {
					shown++
					if msg.ID != live || len(msg.Files) != 1 {
						t.Errorf("move 1 shows in message %s with %d pictures, want the live message %s with its board", msg.ID, len(msg.Files), live)
					}
				}
			}
			if shown != want {
				t.Errorf("move 1 shows in %d messages, want %d", shown, want)
			}
		})
	}
}
