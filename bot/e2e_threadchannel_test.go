package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
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

// TestThreadChannelComesBack: a match made in a thread, whose channel's
// permissions a moderator changes so that the bot may no longer see the
// thread or post in it, or which a moderator locks, goes on by DM, both
// players told once; once the moderator gives the permission back (in the
// thread's channel, where Discord grants a thread's) or unlocks the
// thread, the thread is posted the board as it stands at once, as a
// match's channel is, the players are told once, and the moves go on
// there.
func TestThreadChannelComesBack(t *testing.T) {
	t.Parallel()
	threadsPerm := int64(discordgo.PermissionSendMessagesInThreads)
	viewPerm := int64(discordgo.PermissionViewChannel)
	for _, tc := range []struct {
		name string
		// ways returns how the bot loses the thread, and how it gets it back.
		ways func(h *harness, parent, thread *discordtest.Channel) (lose, fix func())
	}{
		{"Send Messages in Threads denied in its channel", func(h *harness, parent, _ *discordtest.Channel) (func(), func()) {
			return func() { parent.SetOverwrite(h.srv.Bot(), 0, threadsPerm) }, func() { parent.RemoveOverwrite(h.srv.Bot()) }
		}},
		{"View Channel denied in its channel", func(h *harness, parent, _ *discordtest.Channel) (func(), func()) {
			return func() { parent.SetOverwrite(h.srv.Bot(), 0, viewPerm) }, func() { parent.RemoveOverwrite(h.srv.Bot()) }
		}},
		{"locked (THREAD_UPDATE)", func(h *harness, _, thread *discordtest.Channel) (func(), func()) {
			return thread.Lock, thread.Unlock
		}},
		{"locked and archived, unlocked still archived", func(h *harness, _, thread *discordtest.Channel) (func(), func()) {
			return func() { thread.Lock(); thread.Archive() }, thread.Unlock
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			parent := h.channel
			thread := threadMatch(t, h)
			lose, fix := tc.ways(h, parent, thread)
			loseChannel(t, h, lose)
			h.bob.SendDM(t, "J7-J6")
			h.waitMoves(1, 2)
			h.alice.WaitDM(t, contains("bob moved J7-J6"))
			refused := refusedPosts(h, thread)
			fix()
			checkBack(t, h, []string{"alice moved A4-A5", "bob moved J7-J6"}, "A5-A6", "alice moved A5-A6", h.alice, 3)
			if n := refusedPosts(h, thread); n != refused {
				t.Errorf("%d posts refused in the thread after the fix", n-refused)
			}
		})
	}
}

// TestTournamentThreadBackAtOnce: a tournament made in a thread, whose
// channel's permissions a moderator restores after the bot lost the
// thread, posts its next announcements in the thread at once, as a
// tournament in a channel does (TestTournamentChannelBackAtOnce).
func TestTournamentThreadBackAtOnce(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	parent := h.channel
	h.channel = threadTourney(h, discordgo.ChannelTypeGuildPublicThread)
	h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Cup"), discordtest.Opt("format", "round-robin"),
		discordtest.Opt("move_time", "72h"), discordtest.Opt("starts_in_hours", 1)), "Tournament #1")
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
		h.expect(h.run(m, "join"), "You joined")
	}
	parent.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionSendMessagesInThreads)
	h.advance(time.Hour)
	h.allMatches(3)
	h.drain()
	h.toldByDM("Cup", "**Cup** — all ", 1)
	if tt, _ := h.stored(); tt.ChannelLost.IsZero() {
		t.Fatal("the tournament's thread is not taken for lost")
	}
	parent.RemoveOverwrite(h.srv.Bot())
	h.srv.WaitFor(t, "the tournament's thread back", func() bool { tt, _ := h.stored(); return tt.ChannelLost.IsZero() })
}

// TestForumPostMatch: a match made in a forum's post (a thread of the
// forum) is played in the post, as in a thread: a post that archived
// itself between moves comes back with the next board; the bot losing Send
// Messages in Threads in the forum sends the match to DMs, both players
// told once, and the forum's overwrite removed brings it back at once.
func TestForumPostMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	forum := h.guild.AddForum("matches")
	post := h.alice.OpenPost(t, forum, "alice vs bob", "Anyone for a game?")
	h.srv.WaitFor(t, "the bot's state to hold the post", func() bool { _, err := h.bot.s.State.Channel(post.ID); return err == nil })
	h.channel = post
	h.startClassic()
	h.waitMoves(1, 0)
	if m := h.match(1); m.Where() != post.ID || m.ThreadID != "" {
		t.Fatalf("match #1 is played in %s (thread %q), want the post %s", m.Where(), m.ThreadID, post.ID)
	}
	post.Archive()
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	h.srv.WaitFor(t, "move 1's board in the post", func() bool { return publicBoards(h, post, "alice moved A4-A5") == 1 })
	if post.Archived() {
		t.Error("the post is still archived after a board was posted in it")
	}
	forum.SetOverwrite(h.srv.Bot(), 0, int64(discordgo.PermissionSendMessagesInThreads))
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("I may no longer post in the match's channel"))
	}
	forum.RemoveOverwrite(h.srv.Bot())
	h.srv.WaitFor(t, "the board posted as the post comes back", func() bool { return publicBoards(h, post, txtChannelBack) == 1 })
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("I can post in the match's channel again"))
	}
	h.alice.SendDM(t, "A5-A6")
	h.waitMoves(1, 3)
	h.srv.WaitFor(t, "move 3's board in the post", func() bool { return publicBoards(h, post, "alice moved A5-A6") == 1 })
	h.outboxEmpty()
	if n := h.channelCount("bob moved J7-J6"); n != 0 {
		t.Errorf("move 2, played while the post was out of reach, shows %d times in it", n)
	}
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		if n := toldCount(p, "I may no longer post in the match's channel"); n != 1 {
			t.Errorf("%s was told %d times the post is out of reach", p.Name, n)
		}
	}
}

// TestThreadChannelDeleted: a match made in a thread that a moderator
// deletes goes on by DM, both players told once that its channel was
// deleted, and the bot tries the thread no more, as it does a deleted
// channel: the boards keep coming to the players.
func TestThreadChannelDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	h.channel = thread
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 4}: game.Scout, {3, 0}: game.Flag})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
	h.challenge("Classic", discordtest.Opt("move_time", "72h"))
	h.sendSetups(red, blue)
	h.waitMoves(1, 0)
	thread.Delete()
	h.alice.SendDM(t, "A4-A5")
	h.waitMoves(1, 1)
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		p.WaitDM(t, contains("The match's channel was deleted"))
	}
	refused := refusedPosts(h, thread)
	h.bob.SendDM(t, "J7-J6")
	h.waitMoves(1, 2)
	h.alice.WaitDM(t, contains("bob moved J7-J6"))
	h.advance(25 * time.Hour) // past the day after which a channel out of reach is tried again
	h.alice.SendDM(t, "A5-A6")
	h.waitMoves(1, 3)
	h.bob.WaitDM(t, contains("alice moved A5-A6"))
	h.outboxEmpty()
	if n := refusedPosts(h, thread); n != refused {
		t.Errorf("the deleted thread was tried %d more times", n-refused)
	}
	if m := h.match(1); !m.PublicGone || !m.PublicDeleted {
		t.Errorf("after the delete: gone %v, deleted %v", m.PublicGone, m.PublicDeleted)
	}
	for _, p := range []*discordtest.Member{h.alice, h.bob} {
		if n := toldCount(p, "The match's channel was deleted"); n != 1 {
			t.Errorf("%s was told %d times the channel was deleted", p.Name, n)
		}
	}
}

// TestChallengeInThreadTheStateLost: a thread that archived itself before
// the bot last connected, which its state therefore lacks, takes a
// challenge as a thread: in a channel where the bot may post in threads
// but not in the channel itself (a forum's posts, or a channel kept for
// threads), the bot asks for what posting in a thread needs (Send Messages
// in Threads), not for Send Messages; on a server that lists the channels
// for matches, a thread of one of them is in it.
func TestChallengeInThreadTheStateLost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(h *harness, parent *discordtest.Channel)
	}{
		{"the bot may post in its threads only", func(h *harness, parent *discordtest.Channel) {
			parent.SetOverwrite(h.srv.Bot(), int64(discordgo.PermissionSendMessagesInThreads), sendPerm)
		}},
		{"the server lists its channel for matches", func(h *harness, parent *discordtest.Channel) {
			if _, err := h.db.UpdateServer(t.Context(), h.guild.ID, func(s *storage.ServerSettings) error {
				s.Channels = []string{parent.ID}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			parent := h.channel
			thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
			tc.setup(h, parent)
			h.archiveAndRestart(thread)
			msg := h.alice.SlashCommand(t, thread, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
			if msg.Ephemeral || !strings.Contains(msg.Content, "challenges you") {
				t.Fatalf("the challenge in the archived thread: %q", msg.Content)
			}
		})
	}
}
