package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// watchIn runs /stratego watch match:1 for m in ch, with args, and returns
// the answer.
func watchIn(t *testing.T, m *discordtest.Member, ch *discordtest.Channel, args ...discordtest.Arg) string {
	t.Helper()
	return m.SlashCommand(t, ch, "stratego watch", append([]discordtest.Arg{discordtest.Opt(optMatch, "1")}, args...)...).Reply(t).Content
}

// suggested reports whether /stratego watch suggests match #1 to m in ch.
func suggested(t *testing.T, m *discordtest.Member, ch *discordtest.Channel) bool {
	t.Helper()
	return slices.ContainsFunc(m.Autocomplete(t, ch, "stratego watch", discordtest.Focused(optMatch, "")),
		func(c *discordgo.ApplicationCommandOptionChoice) bool { return fmt.Sprint(c.Value) == "1" })
}

// followers returns match #1's followers.
func followers(t *testing.T, h *harness) []string {
	t.Helper()
	f, err := h.db.Followers(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// unarchived has a player post in thread, which unarchives it, and waits
// for the bot's state to hold it again: a move's private answer is not
// edited in an archived thread.
func unarchived(h *harness, thread *discordtest.Channel) {
	h.t.Helper()
	h.alice.Say(h.t, thread, "back to it")
	h.srv.WaitFor(h.t, "the bot's state to hold the thread unarchived", func() bool {
		c, err := h.bot.s.State.Channel(thread.ID)
		if err != nil {
			return false
		}
		h.bot.s.State.RLock()
		defer h.bot.s.State.RUnlock()
		return c.ThreadMetadata != nil && !c.ThreadMetadata.Archived
	})
}

// TestWatchInPrivateThread: a match played in a private thread is seen,
// for /stratego watch, following and the match option's suggestions, by
// those who see the thread: not by a member of its channel who is not in
// it (it was shown to every member of the channel), by one who may manage
// the channel's threads, also once the thread archived and the bot
// restarted (its boards go on coming to them), and by a member of the thread asking in it, who cannot
// follow it, though: the bot does not ask Discord who is in the thread, so
// it could not tell before each board that they still see it.
func TestWatchInPrivateThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	dave, erin, frank := h.guild.AddMember("dave"), h.guild.AddMember("erin"), h.guild.AddMember("frank")
	parent := h.channel
	parent.SetOverwrite(frank, discordgo.PermissionManageThreads, 0)
	overwritesKnown(h, parent, 1)
	thread := startThread(h, discordgo.ChannelTypeGuildPrivateThread)
	for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol, erin} {
		if err := h.bot.s.ThreadMemberAdd(thread.ID, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	h.channel = thread
	h.startClassic()
	h.waitMoves(1, 0)
	h.channel = parent
	if m := h.match(1); m.ChannelID != thread.ID || m.ThreadID != "" {
		t.Fatalf("match #1 is in channel %s, thread %q; want the private thread %s", m.ChannelID, m.ThreadID, thread.ID)
	}

	hidden := func(when string) {
		t.Helper()
		for _, args := range [][]discordtest.Arg{nil, {discordtest.Opt(optFollow, true)}} {
			if got := watchIn(t, dave, parent, args...); !strings.Contains(got, "This server has no match #1") {
				t.Errorf("%s: watch %v by dave, who is not in the private thread: %q", when, args, got)
			}
		}
		if suggested(t, dave, parent) {
			t.Errorf("%s: match #1 is suggested to dave", when)
		}
		if got := watchIn(t, erin, parent); !strings.Contains(got, "This server has no match #1") {
			t.Errorf("%s: erin, in the thread but asking in its channel: %q; the bot does not know who is in it", when, got)
		}
	}
	hidden("the thread active")
	if !suggested(t, frank, parent) {
		t.Error("match #1 is not suggested to frank, who may manage the channel's threads")
	}
	if got := watchIn(t, frank, parent, discordtest.Opt(optFollow, true)); !strings.Contains(got, "You now follow Match #1") || !strings.Contains(got, "Last moves") {
		t.Errorf("frank following: %q", got)
	}
	if got := watchIn(t, erin, thread); !strings.Contains(got, "Last moves") {
		t.Errorf("erin watching in the thread: %q", got)
	}
	if !suggested(t, erin, thread) {
		t.Error("match #1 is not suggested to erin in the thread")
	}
	if got := watchIn(t, erin, thread, discordtest.Opt(optFollow, true)); !strings.Contains(got, "Match #1 is played in a private thread") {
		t.Errorf("erin following in the thread: %q", got)
	}
	if f := followers(t, h); !slices.Equal(f, []string{frank.ID}) {
		t.Errorf("followers %v, want frank alone", f)
	}
	h.alice.SlashCommand(t, thread, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	frank.WaitDM(t, contains("A4-A5"))

	h.archiveAndRestart(thread)
	hidden("the thread archived")
	if got := watchIn(t, frank, parent); !strings.Contains(got, "Last moves") {
		t.Errorf("frank watching once the thread archived: %q", got)
	}
	unarchived(h, thread)
	h.bob.SlashCommand(t, thread, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	frank.WaitDM(t, contains("J7-J6"))
	h.outboxEmpty()
	if f := followers(t, h); !slices.Equal(f, []string{frank.ID}) {
		t.Errorf("followers once the thread archived %v, want frank still", f)
	}
	for _, m := range []*discordtest.Member{dave, erin} {
		if n := len(m.DMs()); n != 0 {
			t.Errorf("%s got %d DMs", m.Name, n)
		}
	}
}

// TestWatchInArchivedThread: a match played in a public thread that
// archived before the bot last connected, which its state then lacks, is
// seen by the members who see the thread's channel (it was seen by
// nobody): /stratego watch shows it and they may follow it, and its boards
// come to its followers once it is played again; the bot asks Discord what
// the thread is once. A member who cannot see the channel still does not
// see it.
func TestWatchInArchivedThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	dave, erin := h.guild.AddMember("dave"), h.guild.AddMember("erin")
	parent := h.channel
	parent.SetOverwrite(erin, 0, discordgo.PermissionViewChannel)
	overwritesKnown(h, parent, 1)
	thread := startThread(h, discordgo.ChannelTypeGuildPublicThread)
	h.channel = thread
	h.startClassic()
	h.waitMoves(1, 0)
	h.channel = parent
	if got := watchIn(t, h.carol, parent, discordtest.Opt(optFollow, true)); !strings.Contains(got, "You now follow Match #1") {
		t.Fatalf("carol following: %q", got)
	}
	h.archiveAndRestart(thread)

	before := h.asked(thread)
	if got := watchIn(t, dave, parent); !strings.Contains(got, "Last moves") {
		t.Errorf("dave, who sees the thread's channel, watching: %q", got)
	}
	if got := watchIn(t, dave, h.guild.AddChannel("lobby"), discordtest.Opt(optFollow, true)); !strings.Contains(got, "You now follow Match #1") {
		t.Errorf("dave following from another channel: %q", got)
	}
	hall := h.guild.AddChannel("hall")
	for _, args := range [][]discordtest.Arg{nil, {discordtest.Opt(optFollow, true)}} {
		if got := watchIn(t, erin, hall, args...); !strings.Contains(got, "This server has no match #1") {
			t.Errorf("watch %v by erin, who cannot see the thread's channel: %q", args, got)
		}
	}
	unarchived(h, thread)
	h.alice.SlashCommand(t, thread, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.carol.WaitDM(t, contains("A4-A5"))
	dave.WaitDM(t, contains("A4-A5"))
	h.outboxEmpty()
	if n := h.asked(thread) - before; n != 1 {
		t.Errorf("the bot asked Discord about the thread %d times; want once, the answer kept", n)
	}
	if f := followers(t, h); len(f) != 2 {
		t.Errorf("followers %v, want carol and dave", f)
	}
}

// TestSeekNotInPrivateThread: the queue pairs two seeks in a channel both
// members see: not in a private thread one of them is not in, though they
// see its channel (it took the thread for its channel). A seek made in
// the thread, with the other seeker waiting in its channel, is played in
// the channel; a seek made where the thread's member cannot go, with them
// waiting in the thread, waits.
func TestSeekNotInPrivateThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	dave, erin := h.guild.AddMember("dave"), h.guild.AddMember("erin")
	lobby := h.guild.AddChannel("lobby")
	lobby.SetOverwrite(erin, 0, discordgo.PermissionViewChannel)
	overwritesKnown(h, lobby, 1)
	thread := startThread(h, discordgo.ChannelTypeGuildPrivateThread)
	if err := h.bot.s.ThreadMemberAdd(thread.ID, erin.ID); err != nil {
		t.Fatal(err)
	}
	seek := func(m *discordtest.Member, ch *discordtest.Channel) string {
		t.Helper()
		return m.SlashCommand(t, ch, "stratego seek", discordtest.Opt("time", "24h")).Reply(t).Content
	}
	if got := seek(erin, thread); !strings.Contains(got, "You are in the queue") {
		t.Fatalf("erin's seek in the thread: %q", got)
	}
	if got := seek(dave, lobby); !strings.Contains(got, "You are in the queue") {
		t.Errorf("dave's seek in the lobby, which erin cannot see, with erin waiting in the private thread: %q", got)
	}
	if _, err := h.db.Match(t.Context(), 1); err == nil {
		t.Fatalf("a match was made: %+v", h.match(1))
	}
	if _, err := h.db.DeleteSeek(t.Context(), h.guild.ID, dave.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.DeleteSeek(t.Context(), h.guild.ID, erin.ID); err != nil {
		t.Fatal(err)
	}
	if got := seek(dave, h.channel); !strings.Contains(got, "You are in the queue") {
		t.Fatalf("dave's seek in the thread's channel: %q", got)
	}
	seek(erin, thread)
	h.srv.WaitFor(t, "the queue's match", func() bool { _, err := h.db.Match(t.Context(), 1); return err == nil })
	if m := h.match(1); m.ChannelID != h.channel.ID {
		t.Errorf("the queue's match is played in %s, want the thread's channel %s, which dave sees (the thread is %s)", m.ChannelID, h.channel.ID, thread.ID)
	}
}
