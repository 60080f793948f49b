package bot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// The channel of a match comes back once the bot may post there again, and
// a channel where it may post but not attach files gets its boards as text.
// Each test changes the local Discord's world (permissions, as a moderator
// would) and plays on.

const (
	sendPerm   = int64(discordgo.PermissionSendMessages)
	attachPerm = int64(discordgo.PermissionAttachFiles)
)

// loseChannel has the bot lose its match's channel with lose, plays one
// move, and checks that both players were told it went on by DM.
func loseChannel(t *testing.T, h *harness, lose func()) {
	t.Helper()
	lose()
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("I may no longer post in the match's channel"))
	}
	if m := h.match(1); !m.PublicGone {
		t.Fatal("the match still counts on its channel")
	}
}

// toldCount counts p's DMs that contain text.
func toldCount(p *discordtest.Member, text string) int {
	n := 0
	for _, dm := range p.DMs() {
		if strings.Contains(dm.Content, text) {
			n++
		}
	}
	return n
}

// checkBack waits for the channel to be posted the board as it stands,
// once, and for each player to be told once; the boards of the moves played
// meanwhile are not posted, and the next move's board is.
func checkBack(t *testing.T, h *harness, missed []string, next, nextBoard string, nextBy *discordtest.Member, moves int) {
	t.Helper()
	h.srv.WaitFor(t, "the board posted as the channel comes back", func() bool { return publicBoards(h, h.channel, txtChannelBack) == 1 })
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("I can post in the match's channel again"))
	}
	if m := h.match(1); m.PublicGone {
		t.Error("the match still counts its channel out of reach")
	}
	nextBy.SendDM(t, next)
	h.waitMoves(1, moves)
	h.srv.WaitFor(t, "the next move's board in the channel", func() bool { return publicBoards(h, h.channel, nextBoard) == 1 })
	h.outboxEmpty()
	for _, move := range missed {
		if n := h.channelCount(move); n != 0 {
			t.Errorf("the board of %q, played while the channel was out of reach, was posted %d times", move, n)
		}
	}
	if n := h.channelCount(txtChannelBack); n != 1 {
		t.Errorf("the channel was posted %d boards as it came back, want 1", n)
	}
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		if n := toldCount(p, "I can post in the match's channel again"); n != 1 {
			t.Errorf("%s was told %d times that the channel is back", p.Name, n)
		}
		if n := toldCount(p, "I may no longer post in the match's channel"); n != 1 {
			t.Errorf("%s was told %d times that the channel is out of reach", p.Name, n)
		}
	}
}

// TestChannelComesBack: a moderator gives the bot back what it needs in its
// match's channel, by any of the ways Discord tells the gateway of: the
// channel's overwrite, a role given to the bot, a role's permissions. The
// channel is posted the board as it stands, once, the players are told
// once, and the moves go on there.
func TestChannelComesBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// ways returns how the bot loses the channel, and how it gets it back.
		ways func(h *harness) (lose, fix func())
	}{
		{"the channel's overwrite removed (CHANNEL_UPDATE)", func(h *harness) (func(), func()) {
			return func() { h.channel.SetOverwrite(h.srv.Bot(), 0, sendPerm) },
				func() { h.channel.RemoveOverwrite(h.srv.Bot()) }
		}},
		{"a role allowed in the channel given to the bot (GUILD_MEMBER_UPDATE)", func(h *harness) (func(), func()) {
			return func() { h.channel.SetOverwrite(h.guild.Everyone(), 0, sendPerm) },
				func() {
					bots := h.guild.AddRole("Bots", 0)
					h.channel.SetOverwrite(bots, sendPerm, 0) // the bot has not the role yet
					h.guild.GiveRole(h.srv.Bot(), bots)
				}
		}},
		{"the bot's role may post again (GUILD_ROLE_UPDATE)", func(h *harness) (func(), func()) {
			var bots *discordtest.Role
			return func() {
					all := h.channel.PermissionsOf(h.srv.Bot())
					bots = h.guild.AddRole("Bots", sendPerm)
					h.guild.GiveRole(h.srv.Bot(), bots)
					h.guild.Everyone().SetPermissions(all &^ sendPerm)
					bots.SetPermissions(0)
				},
				func() { bots.SetPermissions(sendPerm) }
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.waitMoves(1, 0)
			lose, fix := tc.ways(h)
			loseChannel(t, h, lose)
			h.bob.SendDM(t, "J7-J6")
			h.waitMoves(1, 2)
			h.alice.WaitDM(t, contains("bob moved J7-J6"))
			refused := refusedPosts(h, h.channel)
			fix()
			checkBack(t, h, []string{"alice moved A4-A5", "bob moved J7-J6"}, "A5-A6", "alice moved A5-A6", h.alice, 3)
			if n := refusedPosts(h, h.channel); n != refused {
				t.Errorf("%d posts refused after the fix", n-refused)
			}
		})
	}
}

// TestChannelTriedAgain: a channel whose return the gateway did not tell
// (fixed during an outage of the server) is tried again with the first
// board owed a day after it was lost, as a tournament's channel is: back,
// it is posted the board as it stands; still out of reach, one post is
// refused, the players are not told again, and the next try is a day
// later. A deleted channel is never tried again.
func TestChannelTriedAgain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		lose    func(h *harness)
		fix     func(h *harness) // nil: still out of reach
		deleted bool
	}{
		{"fixed during an outage", func(h *harness) { h.channel.SetOverwrite(h.srv.Bot(), 0, sendPerm) }, func(h *harness) { h.channel.RemoveOverwrite(h.srv.Bot()) }, false},
		{"still out of reach", func(h *harness) { h.channel.SetOverwrite(h.srv.Bot(), 0, sendPerm) }, nil, false},
		{"deleted", func(h *harness) { h.channel.Delete() }, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
			blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
			h.challenge("Classic", discordtest.Opt("move_time", "72h"))
			h.sendSetups(red, blue)
			h.waitMoves(1, 0)
			if tc.deleted {
				h.channel.Delete()
				h.alice.SendDM(t, "A4-A5")
				h.waitMoves(1, 1)
				for _, p := range []*discordtest.Member{h.alice, h.bob} {
					p.WaitDM(t, contains("The match's channel was deleted"))
				}
			} else {
				loseChannel(t, h, func() { tc.lose(h) })
			}
			if tc.fix != nil {
				h.guild.Outage()
				tc.fix(h)
				h.guild.EndOutage()
			}
			// Within the day: the channel is not tried.
			refused := refusedPosts(h, h.channel)
			h.bob.SendDM(t, "J7-J6")
			h.waitMoves(1, 2)
			h.alice.WaitDM(t, contains("bob moved J7-J6"))
			h.outboxEmpty()
			if n := refusedPosts(h, h.channel); n != refused {
				t.Errorf("the channel was tried %d times within a day of being lost", n-refused)
			}
			if n := h.channelCount(txtChannelBack); n != 0 {
				t.Fatalf("the channel came back within the day, %d times", n)
			}
			h.advance(25 * time.Hour)
			if tc.fix != nil {
				h.alice.SendDM(t, "A5-A6")
				h.waitMoves(1, 3)
				checkBack(t, h, []string{"alice moved A4-A5", "bob moved J7-J6", "alice moved A5-A6"}, "J6-J5", "bob moved J6-J5", h.bob, 4)
				return
			}
			h.alice.SendDM(t, "A5-A6")
			h.waitMoves(1, 3)
			h.bob.WaitDM(t, contains("alice moved A5-A6"))
			h.outboxEmpty()
			want := 1 // tried once, refused
			if tc.deleted {
				want = 0
			}
			if n := refusedPosts(h, h.channel); n != refused+want {
				t.Errorf("a day later the channel was tried %d times, want %d", n-refused, want)
			}
			h.bob.SendDM(t, "J6-J5")
			h.waitMoves(1, 4)
			h.alice.WaitDM(t, contains("bob moved J6-J5"))
			h.outboxEmpty()
			if n := refusedPosts(h, h.channel); n != refused+want {
				t.Errorf("the channel was tried again within a day of the last try: %d tries, want %d", n-refused, want)
			}
			if m := h.match(1); !m.PublicGone || m.PublicDeleted != tc.deleted {
				t.Errorf("after the tries: gone %v, deleted %v", m.PublicGone, m.PublicDeleted)
			}
			for _, p := range []*discordtest.Member{h.alice, h.bob} {
				if n := toldCount(p, "I can post in the match's channel again"); n != 0 {
					t.Errorf("%s was told %d times the channel is back", p.Name, n)
				}
				if n := toldCount(p, "channel") - toldCount(p, "bob moved") - toldCount(p, "alice moved"); n > 1 {
					t.Errorf("%s was told %d times of the channel", p.Name, n)
				}
			}
		})
	}
}

// TestChannelWithoutAttach: in a channel where the bot may post but not
// attach files, a match's boards are posted as text (their alt text, for
// the public view) with a note for the moderators, and the match stays in
// the channel; given the permission back, the pictures come back. On a
// server whose boards are one live message, that message is edited so.
func TestChannelWithoutAttach(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"", "live"} {
		t.Run("mode "+mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if mode != "" {
				boardMode(t, mode)(h)
			}
			h.startClassic()
			h.waitMoves(1, 0)
			h.channel.SetOverwrite(h.srv.Bot(), 0, attachPerm)
			h.alice.SendDM(t, "A4-A5")
			h.waitMoves(1, 1)
			var text *discordtest.Message
			h.srv.WaitFor(t, "move 1's board as text", func() bool {
				for _, msg := range h.srv.ChannelMessages(h.channel) {
					if strings.Contains(msg.Content, "alice moved A4-A5") {
						text = msg
						return true
					}
				}
				return false
			})
			if len(text.Files) != 0 || !strings.Contains(text.Content, "Stratego board, Classic, after move 1") || !strings.Contains(text.Content, "Attach Files") {
				t.Errorf("move 1's board in a channel without Attach Files: %d files, %q", len(text.Files), text.Content)
			}
			if live := h.match(1).LiveMessage; mode == "live" && text.ID != live {
				t.Errorf("the text board is message %s, not the live one %s", text.ID, live)
			}
			if m := h.match(1); m.PublicGone {
				t.Error("the match gave its channel up for a missing Attach Files")
			}
			for _, p := range []*discordtest.Member{h.alice, h.bob} {
				if n := toldCount(p, "I may no longer post"); n != 0 {
					t.Errorf("%s was told the channel is out of reach", p.Name)
				}
			}
			h.channel.RemoveOverwrite(h.srv.Bot())
			h.bob.SendDM(t, "J7-J6")
			h.waitMoves(1, 2)
			h.srv.WaitFor(t, "move 2's board with its picture", func() bool { return publicBoards(h, h.channel, "bob moved J7-J6") == 1 })
			want := 1 // the text board stays
			if mode == "live" {
				want = 0 // edited into move 2's
			}
			if n := h.channelCount("alice moved A4-A5"); n != want {
				t.Errorf("move 1's board shows in %d messages, want %d", n, want)
			}
		})
	}
}

// TestChannelBackLeaksNothing is the leak comparison of a match's channel
// that the bot may post in without attaching files (boards as text: their
// alt texts), then loses, then gets back (the board as it stands): played
// twice with Red's hidden pieces shuffled, Bob and the channel see exactly
// the same.
func TestChannelBackLeaksNothing(t *testing.T) {
	t.Parallel()
	red := leakRed(t)
	var bobSaw, publicSaw [2][]string
	bothWays(t, red, marshalAndBombSwapped(red), func(t *testing.T, k int, setup game.Setup) {
		h := newHarness(t)
		h.challenge("Classic")
		h.sendSetups(setup, placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant}))
		h.waitMoves(1, 0)
		h.channel.SetOverwrite(h.srv.Bot(), 0, attachPerm)
		h.alice.SendDM(t, "A4-A5")
		h.waitMoves(1, 1)
		h.channelSays("alice moved A4-A5")
		h.channel.SetOverwrite(h.srv.Bot(), 0, attachPerm|sendPerm)
		h.bob.SendDM(t, "J7-J6")
		h.waitMoves(1, 2)
		h.bob.WaitDM(t, contains("I may no longer post in the match's channel"))
		h.alice.SendDM(t, "A5-A6")
		h.waitMoves(1, 3)
		h.channel.SetOverwrite(h.srv.Bot(), 0, attachPerm)
		h.channelSays(txtChannelBack)
		h.bob.WaitDM(t, contains("I can post in the match's channel again"))
		h.bob.SendDM(t, "J6-J5")
		h.waitMoves(1, 4)
		h.channelSays("bob moved J6-J5")
		h.outboxEmpty()

		ids := strings.NewReplacer(h.alice.ID, "alice", h.bob.ID, "bob", h.carol.ID, "carol")
		bob, public := transcript(h, h.bob, true), transcript(h, h.carol, true)
		for _, lines := range [][]string{bob, public} {
			for i, line := range lines {
				lines[i] = ids.Replace(line)
			}
			slices.Sort(lines)
		}
		joined := strings.Join(public, "\n")
		for _, want := range []string{"alice moved A4-A5", "Attach Files", txtChannelBack, "bob moved J6-J5"} {
			if !strings.Contains(joined, want) {
				t.Fatalf("the channel never saw %q: the comparison proves little:\n%s", want, joined)
			}
		}
		bobSaw[k], publicSaw[k] = bob, public
	})
	if t.Failed() {
		return
	}
	sameSight(t, "Bob", bobSaw)
	sameSight(t, "the channel", publicSaw)
}

// TestChannelComesBackLive: on a server whose boards are one live message,
// a channel that comes back is posted the board as it stands, and that
// message is the one the next moves edit.
func TestChannelComesBackLive(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	boardMode(t, "live")(h)
	h.startClassic()
	h.waitMoves(1, 0)
	old := h.match(1).LiveMessage
	if old == "" {
		t.Fatal("no live message")
	}
	// A live board is edited, which posting is not needed for: the bot
	// loses it when it may no longer see the channel.
	loseChannel(t, h, func() { h.channel.SetOverwrite(h.srv.Bot(), 0, int64(discordgo.PermissionViewChannel)) })
	h.channel.RemoveOverwrite(h.srv.Bot())
	h.srv.WaitFor(t, "the board posted as the channel comes back", func() bool { return publicBoards(h, h.channel, txtChannelBack) == 1 })
	h.outboxEmpty()
	back := h.match(1).LiveMessage
	if back == old {
		t.Fatal("the live message is still the one from before the channel was lost")
	}
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	h.srv.WaitFor(t, "move 2 on the live board", func() bool {
		for _, msg := range h.srv.ChannelMessages(h.channel) {
			if msg.ID == back && strings.Contains(msg.Content, "bob moved J7-J6") {
				return true
			}
		}
		return false
	})
	if n := h.channelCount("bob moved J7-J6"); n != 1 {
		t.Errorf("move 2 shows in %d messages, want the live one", n)
	}
}

// TestChannelBackInTheirLanguage: each player is told in their own
// language that the channel is out of reach, and that it is back.
func TestChannelBackInTheirLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	h.waitMoves(1, 0)
	h.bob.SetLocale("fr")
	h.bob.SlashCommand(t, h.channel, "stratego board").Reply(t) // his language, from his interaction
	h.channel.SetOverwrite(h.srv.Bot(), 0, sendPerm)
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	h.alice.WaitDM(t, contains("I may no longer post in the match's channel"))
	h.bob.WaitDM(t, contains("Je ne peux plus publier dans le salon de la partie"))
	h.channel.RemoveOverwrite(h.srv.Bot())
	h.alice.WaitDM(t, contains("I can post in the match's channel again"))
	h.bob.WaitDM(t, contains("Je peux de nouveau publier dans le salon de la partie : son plateau y est donc de nouveau affiché après chaque coup."))
}

// TestLiveMessageDeletedWithoutAttach: on a server whose boards are one
// live message, in a channel where the bot may post but not attach files,
// a moderator deletes the live message. The next board is posted anew as
// text, and the match keeps its channel: nobody is told the bot may no
// longer post there.
func TestLiveMessageDeletedWithoutAttach(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	boardMode(t, "live")(h)
	h.startClassic()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	old := h.match(1).LiveMessage
	h.channel.SetOverwrite(h.srv.Bot(), 0, attachPerm)
	h.srv.DeleteMessage(old)
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	h.outboxEmpty()
	if m := h.match(1); m.PublicGone {
		t.Fatal("the match gave its channel up for a deleted live message and a missing Attach Files")
	}
	if n := h.channelCount("alice moved A4-A5"); n != 1 {
		t.Errorf("move 1's board shows in %d messages, want 1", n)
	}
	for _, msg := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(msg.Content, "alice moved A4-A5") && (len(msg.Files) != 0 || !strings.Contains(msg.Content, "Attach Files")) {
			t.Errorf("move 1's board in a channel without Attach Files: %d files, %q", len(msg.Files), msg.Content)
		}
	}
	if live := h.match(1).LiveMessage; live == old {
		t.Errorf("the live message is still the deleted one, %s", old)
	}
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		if n := toldCount(p, "I may no longer post"); n != 0 {
			t.Errorf("%s was told the channel is out of reach", p.Name)
		}
	}
	h.channel.RemoveOverwrite(h.srv.Bot())
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	h.srv.WaitFor(t, "move 2's board with its picture", func() bool { return publicBoards(h, h.channel, "bob moved J7-J6") == 1 })
	if n := h.channelCount("alice moved A4-A5"); n != 0 {
		t.Errorf("move 1's board shows in %d messages, want it edited into move 2's", n)
	}
}
