package bot

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestSeekPostedInTheFirstChannelOnce: a match the queue makes in the
// first seeker's channel (the second seeker's is one they cannot see) is
// posted there, pinging both, exactly once, whatever Discord does to the
// post: a 5xx, a 429, a stop of the bot before it is out, an answer lost
// (Discord made it, the bot never heard). Nothing answers an interaction
// there, so the post is the outbox's to deliver, as every message about a
// stored change is; where the bot may no longer post, the players are told
// by DM that the match goes on there.
func TestSeekPostedInTheFirstChannelOnce(t *testing.T) {
	const post = "POST /channels/{channel_id}/messages"
	for _, tc := range []struct {
		name  string
		fault func(h *harness, ch *discordtest.Channel) *discordtest.Hold
		stop  bool // the bot stops after the pairing, and starts again
		mode  string
	}{
		{"no fault, threads", func(*harness, *discordtest.Channel) *discordtest.Hold { return nil }, false, "thread"},
		{"a 503", func(h *harness, ch *discordtest.Channel) *discordtest.Hold {
			h.srv.FailNextIn(t, post, ch, 1, http.StatusServiceUnavailable)
			return nil
		}, false, ""},
		{"a 429 storm", func(h *harness, ch *discordtest.Channel) *discordtest.Hold {
			h.srv.RateLimitNextIn(t, post, ch, 5, 2*time.Second)
			return nil
		}, false, ""},
		{"a 503, then a restart", func(h *harness, ch *discordtest.Channel) *discordtest.Hold {
			h.srv.FailNextIn(t, post, ch, 1, http.StatusServiceUnavailable)
			return nil
		}, true, ""},
		{"the answer lost across a restart", func(h *harness, ch *discordtest.Channel) *discordtest.Hold {
			return h.srv.HoldNextIn(t, post, ch, 1)
		}, true, ""},
		{"the bot may not post there", func(h *harness, ch *discordtest.Channel) *discordtest.Hold {
			ch.SetOverwrite(h.srv.Bot(), discordgo.PermissionViewChannel, discordgo.PermissionSendMessages)
			overwritesKnown(h, ch, 1)
			return nil
		}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tc.mode != "" {
				boardMode(t, tc.mode)(h)
			}
			view := int64(discordgo.PermissionViewChannel)
			aliceCh, carolCh := h.guild.AddChannel("alice-corner"), h.guild.AddChannel("carol-corner")
			// alice cannot see carol's channel: the match is played in alice's.
			carolCh.SetOverwrite(h.guild.Everyone(), 0, view)
			carolCh.SetOverwrite(h.carol, view, 0)
			carolCh.SetOverwrite(h.srv.Bot(), view|discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles|discordgo.PermissionCreatePublicThreads, 0)
			overwritesKnown(h, carolCh, 3)
			h.alice.SlashCommand(t, aliceCh, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)

			hold := tc.fault(h, aliceCh)
			got := h.carol.SlashCommand(t, carolCh, "stratego seek", discordtest.Opt("time", "24h")).Reply(t)
			if want := "Match #1 is played in <#" + aliceCh.ID + ">"; !got.Ephemeral || !strings.Contains(got.Content, want) {
				t.Fatalf("carol's seek answered %q, want %q", got.Content, want)
			}
			if hold != nil {
				h.srv.WaitFor(t, "the post held", func() bool { return hold.Waiting() == 1 })
			}
			if tc.stop {
				h.shutdown()
				if hold != nil {
					hold.Release() // Discord makes it; the stopped bot never hears
				}
				h.start()
			}
			posts := func() int {
				n := 0
				for _, msg := range h.srv.ChannelMessages(aliceCh) {
					if seekPairing(msg, h.alice, h.carol) {
						n++
					}
				}
				return n
			}
			if tc.name == "the bot may not post there" {
				for _, m := range []*discordtest.Member{h.alice, h.carol} {
					m.WaitDM(t, contains("I may no longer post in the match's channel, so the match goes on here, by DM"))
				}
				if n := posts(); n != 0 {
					t.Errorf("the match was announced %d times in a channel the bot may not post in", n)
				}
				return
			}
			h.srv.WaitFor(t, "the match announced in alice's channel", func() bool {
				h.advance(time.Minute) // a retry's time
				return posts() > 0
			})
			h.alice.WaitDM(t, contains("Send me your secret set-up"))
			h.carol.WaitDM(t, contains("Send me your secret set-up"))
			h.outboxEmpty()
			if n := posts(); n != 1 {
				t.Errorf("the match was announced %d times in alice's channel, want once", n)
			}
			if m := h.match(1); m.LiveMessage == "" || (tc.mode == "thread") != (m.ThreadID != "") {
				t.Errorf("the match's live message %q, thread %q, in board mode %q", m.LiveMessage, m.ThreadID, tc.mode)
			}
			if n := len(h.srv.ChannelMessages(carolCh)); n != 0 {
				t.Errorf("carol's channel, which alice cannot see, got %d messages", n)
			}
		})
	}
}

// seekPairing reports whether msg announces match #1, made by the queue
// for a and b, pinging both (Red's player first).
func seekPairing(msg *discordtest.Message, a, b *discordtest.Member) bool {
	c := msg.Content
	return strings.Contains(c, ": the queue paired you.") && strings.Contains(c, "Match #1") &&
		(strings.Contains(c, "<@"+a.ID+"> and <@"+b.ID+">") || strings.Contains(c, "<@"+b.ID+"> and <@"+a.ID+">"))
}
