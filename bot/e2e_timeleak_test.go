package bot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestMatchTimeLeaksNothing is the leak comparison of everything a
// day-a-move match says besides its moves: a gift of time, a pause by
// agreement and its end, a vacation begun and ended, Bob's history, board
// (picture and text) and refused record, Carol watching, the resignation
// and the rematch it offers. Played twice with Red's hidden pieces
// shuffled, Bob and the channel see exactly the same (the final reveal
// aside: it shows every piece by design), and so do Bob's and the public's
// pages of the web board, which word the pause, the vacation and the gifts.
func TestMatchTimeLeaksNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	var bobSaw, publicSaw [2][]string
	var pages [2][2][]string // run, then Bob's page's states and the public page's
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h := newHarness(t)
		// The web board's pages too, from the start.
		rec := &pageRecorder{}
		rec.prepare(t)(h)
		day := 24 * time.Hour
		h.challenge("Classic", discordtest.Opt("move_time", "24h"))
		h.sendSetups(setup, placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
		h.waitMoves(1, 0)
		h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
		h.waitMoves(1, 1)

		h.alice.SlashCommand(t, h.channel, "stratego give_time").Reply(t)
		h.bot.deliverDue(t.Context())
		h.bob.WaitDM(t, contains("alice gave you"))
		h.bob.SlashCommand(t, h.channel, "stratego pause", discordtest.Opt("days", 2)).Reply(t)
		h.bot.deliverDue(t.Context())
		ask := h.alice.WaitDM(t, contains("bob proposes to pause the match for 2 days"))
		rec.waitFor(t, `"offer":`)
		h.alice.ClickButton(t, ask, button(t, ask, "Pause")).Reply(t)
		h.bot.deliverDue(t.Context())
		h.bob.WaitDM(t, contains("paused by agreement"))
		rec.waitFor(t, `"paused":`)
		h.advance(2*day + time.Minute)
		h.bob.WaitDM(t, contains("The pause is over"))

		h.bob.SendDM(t, "J7-J6")
		h.waitMoves(1, 2)
		h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", 3)).Reply(t)
		h.bot.deliverDue(t.Context())
		rec.waitFor(t, `"away":[`)
		h.advance(time.Hour)
		h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("end", true)).Reply(t)
		h.bot.deliverDue(t.Context())

		history := h.bob.SlashCommand(t, h.channel, "stratego history").Reply(t)
		if !strings.Contains(history.Content, "J7-J6") || !strings.Contains(history.Content, "gave") || !strings.Contains(history.Content, "vacation") {
			t.Fatalf("bob's history: %q", history.Content)
		}
		h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t)
		h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
		if record := h.bob.SlashCommand(t, h.channel, "stratego record").Reply(t); len(record.Files) != 0 {
			t.Fatalf("bob got the record of a match in play: %q", record.Content)
		}
		h.carol.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt("match", "1")).Reply(t)

		confirm := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
		h.alice.ClickButton(t, confirm, button(t, confirm, "Resign")).Updated(t)
		h.bot.deliverDue(t.Context())
		var finale *discordtest.Message
		h.srv.WaitFor(t, "the finale's Rematch button", func() bool {
			for _, m := range h.srv.ChannelMessages(h.channel) {
				if rematchOn(m) != "" {
					finale = m
				}
			}
			return finale != nil
		})
		h.bob.ClickButton(t, finale, rematchOn(finale)).Reply(t)
		h.bot.deliverDue(t.Context())

		// Each harness draws its members' ids: a mention names the member.
		ids := strings.NewReplacer(h.alice.ID, "alice", h.bob.ID, "bob", h.carol.ID, "carol")
		bob, public := transcript(h, h.bob, true), transcript(h, h.carol, true)
		for _, lines := range [][]string{bob, public} {
			for i, line := range lines {
				lines[i] = ids.Replace(line)
			}
			slices.Sort(lines)
		}
		joined := strings.Join(bob, "\n")
		for _, want := range []string{"[board.png ", "paused by agreement", "vacation", "resigned", "<menu ", "<button "} {
			if !strings.Contains(joined, want) {
				t.Fatalf("bob never saw %q: the comparison proves little:\n%s", want, joined)
			}
		}
		bobSaw[k], publicSaw[k] = bob, public
		pages[k] = rec.final(t)
		for _, want := range []string{`"paused":`, `"away":[`, `"gifts":[`, `"offer":`} {
			if !strings.Contains(strings.Join(pages[k][0], "\n"), want) {
				t.Fatalf("Bob's page never got %s: the comparison proves little", want)
			}
		}
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob", bobSaw)
	sameSight(t, "the channel", publicSaw)
	samePages(t, "Bob's page", pages[0][0], pages[1][0])
	samePages(t, "the public page", pages[0][1], pages[1][1])
}
