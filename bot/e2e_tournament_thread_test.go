package bot

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

const channelRoute = "GET /channels/{channel_id}"

// threadTourney has the bot start a thread of typ in the harness's channel
// and returns it once the bot's state holds it.
func threadTourney(h *tourney, typ discordgo.ChannelType) *discordtest.Channel {
	h.t.Helper()
	return startThread(h.harness, typ)
}

// startThread has the bot start a thread of typ in the harness's channel
// and returns it once the bot's state holds it.
func startThread(h *harness, typ discordgo.ChannelType) *discordtest.Channel {
	t := h.t
	t.Helper()
	th, err := h.bot.s.ThreadStartComplex(h.channel.ID, &discordgo.ThreadStart{Name: "League", Type: typ, Invitable: true})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.WaitFor(t, "the bot's state to hold the thread", func() bool { _, err := h.bot.s.State.Channel(th.ID); return err == nil })
	return h.srv.Channel(th.ID)
}

// archiveAndRestart archives thread and restarts the bot, whose state then
// lacks it: GUILD_CREATE lists the active threads only.
func (h *harness) archiveAndRestart(thread *discordtest.Channel) {
	t := h.t
	t.Helper()
	thread.Archive()
	h.srv.WaitFor(t, "the bot's state to see the thread archived", func() bool {
		c, err := h.bot.s.State.Channel(thread.ID)
		if err != nil {
			return false
		}
		h.bot.s.State.RLock()
		defer h.bot.s.State.RUnlock()
		return c.ThreadMetadata != nil && c.ThreadMetadata.Archived
	})
	h.shutdown()
	h.start()
	h.srv.WaitFor(t, "the bot's state to hold the server's channel", func() bool { _, err := h.bot.s.State.Channel(h.channel.ID); return err == nil })
	if _, err := h.bot.s.State.Channel(thread.ID); err == nil {
		t.Fatal("the archived thread is still in the bot's state after the restart")
	}
}

// asked counts the bot's questions to Discord about channel ch.
func (h *harness) asked(ch *discordtest.Channel) int {
	n := 0
	for _, r := range h.srv.Requests(channelRoute) {
		if strings.HasSuffix(r.Path, "/channels/"+ch.ID) {
			n++
		}
	}
	return n
}

// TestTournamentInArchivedThread: a tournament created in a public thread
// is known to the members who see the thread's channel, also once the
// thread archived and the bot restarted, when its state no longer holds
// the thread: the bot asks Discord what the channel is, once, and keeps
// the answer. A member who cannot see the thread's channel still does not
// know of it, and a member asking in the thread itself always does; once
// the thread is deleted, only its players, creator and moderators do.
func TestTournamentInArchivedThread(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	dave, erin := h.guild.AddMember("dave"), h.guild.AddMember("erin")
	h.members[dave.ID], h.members[erin.ID] = dave, erin
	lobby := h.guild.AddChannel("lobby")
	h.channel.SetOverwrite(erin, 0, discordgo.PermissionViewChannel)
	thread := threadTourney(h, discordgo.ChannelTypeGuildPublicThread)
	in := func(m *discordtest.Member, ch *discordtest.Channel, sub string, args ...discordtest.Arg) string {
		t.Helper()
		return m.SlashCommand(t, ch, "stratego tournament "+sub, args...).Reply(t).Content
	}
	if got := in(h.alice, thread, "create", discordtest.Opt("name", "League"), discordtest.Opt("format", "swiss"),
		discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 48)); !strings.Contains(got, "Tournament #1: League") {
		t.Fatalf("create in the thread: %q", got)
	}
	if got := in(dave, h.channel, "list"); !strings.Contains(got, "#1 **League**") {
		t.Fatalf("dave's list before the thread archived: %q", got)
	}
	h.archiveAndRestart(thread)

	// Discord does not answer at first: not known, and not kept so.
	h.srv.FailNextIn(t, channelRoute, thread, 1, 500)
	if got := in(dave, h.channel, "list"); strings.Contains(got, "League") {
		t.Errorf("dave's list while Discord cannot say what the channel is: %q", got)
	}
	before := h.asked(thread)
	if got := in(dave, h.channel, "list"); !strings.Contains(got, "#1 **League**") {
		t.Errorf("dave, who sees the thread's channel, lists from it: %q", got)
	}
	if got := in(dave, lobby, "standings", discordtest.Opt("tournament", 1)); !strings.Contains(got, "**League**") {
		t.Errorf("dave's standings of #1 from another channel: %q", got)
	}
	if got := in(dave, lobby, "join"); !strings.Contains(got, "You joined **League**") {
		t.Errorf("dave joining the server's only tournament from another channel: %q", got)
	}
	if n := h.asked(thread) - before; n != 1 {
		t.Errorf("the bot asked Discord about the thread %d times for three commands; want once, the answer kept", n)
	}
	for _, tc := range []struct {
		sub  string
		args []discordtest.Arg
		want string
	}{
		{"list", nil, "This server has no tournaments yet."},
		{"standings", []discordtest.Arg{discordtest.Opt("tournament", 1)}, "This server has no tournament #1."},
		{"join", nil, "This server has no tournament under way."},
	} {
		if got := in(erin, lobby, tc.sub, tc.args...); !strings.Contains(got, tc.want) || strings.Contains(got, "League") {
			t.Errorf("%s by erin, who cannot see the thread's channel: %q; want %q", tc.sub, got, tc.want)
		}
	}
	// bob asks in the archived thread itself.
	if got := in(h.bob, thread, "join"); !strings.Contains(got, "You joined **League**") {
		t.Errorf("bob joining in the tournament's thread: %q", got)
	}
	// The thread is deleted: what the bot kept of it goes; its players
	// still know the tournament.
	thread.Delete()
	h.srv.WaitFor(t, "the bot to take the thread for deleted", func() bool {
		k, _, _ := h.bot.channels.get(thread.ID, h.bot.now())
		return k.gone
	})
	if got := in(h.carol, h.channel, "list"); strings.Contains(got, "League") {
		t.Errorf("carol's list once the thread was deleted: %q", got)
	}
	if got := in(h.bob, h.channel, "list"); !strings.Contains(got, "#1 **League**") {
		t.Errorf("bob, a player, lists once the thread was deleted: %q", got)
	}
}

// TestTournamentInPrivateThread: a tournament created in a private thread
// is not known to the members of its channel who are not in the thread;
// the bot does not ask Discord who is, so it is known in the thread
// itself, to its players, creator and moderators, and to those who may
// manage the channel's threads (who see every private thread), also once
// the thread archived and the bot restarted.
func TestTournamentInPrivateThread(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	dave, erin, frank := h.guild.AddMember("dave"), h.guild.AddMember("erin"), h.guild.AddMember("frank")
	h.members[dave.ID], h.members[erin.ID], h.members[frank.ID] = dave, erin, frank
	h.channel.SetOverwrite(frank, discordgo.PermissionManageThreads, 0)
	thread := threadTourney(h, discordgo.ChannelTypeGuildPrivateThread)
	for _, m := range []*discordtest.Member{h.alice, erin} {
		if err := h.bot.s.ThreadMemberAdd(thread.ID, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	in := func(m *discordtest.Member, ch *discordtest.Channel, sub string, args ...discordtest.Arg) string {
		t.Helper()
		return m.SlashCommand(t, ch, "stratego tournament "+sub, args...).Reply(t).Content
	}
	if got := in(h.alice, thread, "create", discordtest.Opt("name", "League"), discordtest.Opt("format", "swiss"),
		discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 48)); !strings.Contains(got, "Tournament #1: League") {
		t.Fatalf("create in the private thread: %q", got)
	}
	hidden := func(when string) {
		t.Helper()
		for _, tc := range []struct {
			sub  string
			args []discordtest.Arg
			want string
		}{
			{"list", nil, "This server has no tournaments yet."},
			{"standings", []discordtest.Arg{discordtest.Opt("tournament", 1)}, "This server has no tournament #1."},
			{"join", nil, "This server has no tournament under way."},
		} {
			if got := in(dave, h.channel, tc.sub, tc.args...); !strings.Contains(got, tc.want) || strings.Contains(got, "League") {
				t.Errorf("%s: %s by dave, who is not in the private thread: %q; want %q", when, tc.sub, got, tc.want)
			}
		}
		if got := in(frank, h.channel, "list"); !strings.Contains(got, "#1 **League**") {
			t.Errorf("%s: frank, who may manage the channel's threads, lists: %q", when, got)
		}
	}
	hidden("the thread active")
	if got := in(erin, h.channel, "list"); strings.Contains(got, "League") {
		t.Errorf("erin, in the thread but asking in its channel: %q; the bot does not know who is in it", got)
	}
	if got := in(erin, thread, "join"); !strings.Contains(got, "You joined **League**") {
		t.Errorf("erin joining in the private thread: %q", got)
	}
	h.archiveAndRestart(thread)
	hidden("the thread archived")
	if got := in(erin, h.channel, "standings", discordtest.Opt("tournament", 1)); !strings.Contains(got, "**League**") {
		t.Errorf("erin, a player, reading the standings from the thread's channel: %q", got)
	}
	if got := in(h.alice, thread, "list"); !strings.Contains(got, "#1 **League**") {
		t.Errorf("alice's list in the archived thread: %q", got)
	}
}

// alphaAndBeta makes tournament Alpha (in a channel "lobby" when
// inLobby, else in the harness's channel) and Beta in a public thread of
// the harness's channel, both to start in two days. It returns dave, a
// member who sees both channels, the lobby and the thread.
func alphaAndBeta(t *testing.T, inLobby bool) (*tourney, *discordtest.Member, *discordtest.Channel, *discordtest.Channel) {
	t.Helper()
	h := newTourney(t)
	dave := h.guild.AddMember("dave")
	h.members[dave.ID] = dave
	lobby := h.guild.AddChannel("lobby")
	thread := threadTourney(h, discordgo.ChannelTypeGuildPublicThread)
	alpha := h.channel
	if inLobby {
		alpha = lobby
	}
	for _, at := range []struct {
		name string
		ch   *discordtest.Channel
	}{{"Alpha", alpha}, {"Beta", thread}} {
		got := h.alice.SlashCommand(t, at.ch, "stratego tournament create", discordtest.Opt("name", at.name), discordtest.Opt("format", "swiss"),
			discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 48)).Reply(t).Content
		if !strings.Contains(got, at.name) {
			t.Fatalf("create %s: %q", at.name, got)
		}
	}
	return h, dave, lobby, thread
}

// twoLeagues makes tournament Alpha in the harness's channel and Beta in
// a public thread of it, which bob joins, archives the thread and restarts
// the bot, whose state then lacks the thread; over cancels both first. It
// returns dave, who sees the channel, a channel where he asks, and the
// thread.
func twoLeagues(t *testing.T, over bool) (*tourney, *discordtest.Member, *discordtest.Channel, *discordtest.Channel) {
	t.Helper()
	h, dave, lobby, thread := alphaAndBeta(t, false)
	if got := h.bob.SlashCommand(t, thread, "stratego tournament join", discordtest.Opt("tournament", 2)).Reply(t).Content; !strings.Contains(got, "You joined **Beta**") {
		t.Fatalf("bob joining Beta in its thread: %q", got)
	}
	if over {
		h.expect(h.run(h.alice, "cancel", discordtest.Opt("tournament", 1)), "**Alpha** is cancelled.")
		h.expect(h.run(h.alice, "cancel", discordtest.Opt("tournament", 2)), "**Beta** is cancelled.")
		// Its announcement in the thread, which opens it again, before the archive.
		h.srv.WaitFor(t, "Beta's cancel announced in the thread", func() bool {
			return slices.ContainsFunc(h.srv.ChannelMessages(thread), func(m *discordtest.Message) bool { return strings.Contains(m.Content, "cancel") })
		})
	}
	h.archiveAndRestart(thread)
	return h, dave, lobby, thread
}

// TestTournamentUnsureNotGuessed: a tournament in a thread archived
// before the bot connected, when Discord does not say what the thread is,
// is neither known to a member nor ruled out: a command without a
// tournament's number does not pick another by elimination (dave, who
// sees both, joined Alpha and was shown Alpha's standings as the latest),
// it asks him to name one or try again; once Discord answers, he is told
// there are several, or shown the latest. A player of the thread's
// tournament knows it without the bot asking Discord.
func TestTournamentUnsureNotGuessed(t *testing.T) {
	t.Parallel()
	const unsure = "I cannot tell right now which of this server's tournaments you can see"
	t.Run("join", func(t *testing.T) {
		t.Parallel()
		h, dave, lobby, thread := twoLeagues(t, false)
		h.srv.FailNextIn(t, channelRoute, thread, 1, 500)
		if got := dave.SlashCommand(t, lobby, "stratego tournament join").Reply(t).Content; !strings.Contains(got, unsure) || strings.Contains(got, "You joined") {
			t.Errorf("dave's join while Discord does not say what the thread is: %q; want %q", got, unsure)
		}
		if got := dave.SlashCommand(t, lobby, "stratego tournament join").Reply(t).Content; !strings.Contains(got, "This server has several tournaments") {
			t.Errorf("dave's join once Discord answers: %q", got)
		}
	})
	t.Run("player", func(t *testing.T) {
		t.Parallel()
		h, _, lobby, thread := twoLeagues(t, false)
		// bob, a player of Beta, knows it without the bot asking Discord.
		h.srv.FailNextIn(t, channelRoute, thread, 1, 500)
		before := h.asked(thread)
		if got := h.bob.SlashCommand(t, lobby, "stratego tournament standings").Reply(t).Content; !strings.Contains(got, "This server has several tournaments") {
			t.Errorf("bob's standings: %q", got)
		}
		if n := h.asked(thread) - before; n != 0 {
			t.Errorf("the bot asked Discord about the thread %d times for a player of its tournament", n)
		}
	})
	t.Run("standings", func(t *testing.T) {
		t.Parallel()
		h, dave, lobby, thread := twoLeagues(t, true)
		h.srv.FailNextIn(t, channelRoute, thread, 1, 500)
		if got := dave.SlashCommand(t, lobby, "stratego tournament standings").Reply(t).Content; !strings.Contains(got, unsure) || strings.Contains(got, "Alpha") {
			t.Errorf("dave's standings while Discord does not say what the thread is: %q; want %q", got, unsure)
		}
		if got := dave.SlashCommand(t, lobby, "stratego tournament standings").Reply(t).Content; !strings.Contains(got, "**Beta**") {
			t.Errorf("dave's standings once Discord answers: %q; want the latest, Beta", got)
		}
	})
}

// TestTournamentSightsAskedTogether: a command that takes in the
// tournaments of two threads archived before the bot connected asks
// Discord about both threads at once, within the answer's time shared by
// them, not one after the other, each with what the other left of it.
func TestTournamentSightsAskedTogether(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	dave := h.guild.AddMember("dave")
	h.members[dave.ID] = dave
	lobby := h.guild.AddChannel("lobby")
	var threads []*discordtest.Channel
	for _, name := range []string{"Alpha", "Beta"} {
		thread := threadTourney(h, discordgo.ChannelTypeGuildPublicThread)
		threads = append(threads, thread)
		got := h.alice.SlashCommand(t, thread, "stratego tournament create", discordtest.Opt("name", name), discordtest.Opt("format", "swiss"),
			discordtest.Opt("rounds", 1), discordtest.Opt("starts_in_hours", 48)).Reply(t).Content
		if !strings.Contains(got, name) {
			t.Fatalf("create %s: %q", name, got)
		}
	}
	threads[0].Archive()
	h.archiveAndRestart(threads[1])
	if _, err := h.bot.s.State.Channel(threads[0].ID); err == nil {
		t.Fatal("the first archived thread is still in the bot's state after the restart")
	}
	hold := h.srv.HoldNext(t, channelRoute, 2)
	join := dave.SlashCommand(t, lobby, "stratego tournament join")
	h.srv.WaitFor(t, "the bot to ask about both threads at once", func() bool { return hold.Waiting() == 2 })
	hold.Release()
	if got := join.Reply(t).Content; !strings.Contains(got, "This server has several tournaments") {
		t.Errorf("dave's join: %q", got)
	}
}

// lobbyAndThread makes tournament Alpha in a channel "lobby" and Beta in
// a public thread of the harness's channel, both to start in two days;
// archived, the thread is archived and the bot restarted, whose state then
// lacks it. It returns dave, who sees both channels, the lobby and the
// thread.
func lobbyAndThread(t *testing.T, archived bool) (*tourney, *discordtest.Member, *discordtest.Channel, *discordtest.Channel) {
	t.Helper()
	h, dave, lobby, thread := alphaAndBeta(t, true)
	if archived {
		h.archiveAndRestart(thread)
	}
	return h, dave, lobby, thread
}

// deleteChannel deletes the harness's channel, with its threads, and waits
// for the bot's state to lose it: Discord tells the bot of the channel
// only, not of its threads.
func (h *tourney) deleteChannel() {
	t := h.t
	t.Helper()
	h.channel.Delete()
	h.srv.WaitFor(t, "the bot's state to lose the deleted channel", func() bool { _, err := h.bot.s.State.Channel(h.channel.ID); return err != nil })
}

// TestTournamentUnsureOnlyForNow: a tournament is one the bot cannot tell
// a member of (txtTournamentUnsure: "try again in a moment") only when
// Discord, asked now, did not answer in time; not when what keeps it from
// telling lasts, and asking again would never tell: the thread's channel
// deleted (with the thread the bot's state still holds, or that Discord
// described before), Discord refusing to describe the thread (the bot lost
// sight of its channel), the tournament's channel known deleted. Such a
// tournament is not seen, and dave, who saw both, asking in the lobby
// without a number, is shown the lobby's tournament, every time.
func TestTournamentUnsureOnlyForNow(t *testing.T) {
	t.Parallel()
	const unsure = "I cannot tell right now which of this server's tournaments you can see"
	alpha := func(h *tourney, dave *discordtest.Member, lobby *discordtest.Channel, when string) {
		h.t.Helper()
		for range 2 {
			if got := dave.SlashCommand(h.t, lobby, "stratego tournament standings").Reply(h.t).Content; strings.Contains(got, unsure) || !strings.Contains(got, "**Alpha**") {
				h.t.Errorf("dave's standings in the lobby, %s: %q; want Alpha's", when, got)
			}
		}
	}
	t.Run("parent deleted, thread active", func(t *testing.T) {
		t.Parallel()
		h, dave, lobby, thread := lobbyAndThread(t, false)
		h.deleteChannel()
		if _, err := h.bot.s.State.Channel(thread.ID); err != nil {
			t.Fatal("the bot's state lost the thread of the deleted channel: this test wants it kept, as discordgo keeps it")
		}
		alpha(h, dave, lobby, "the thread's channel deleted")
	})
	t.Run("parent deleted, thread described before", func(t *testing.T) {
		t.Parallel()
		h, dave, lobby, thread := lobbyAndThread(t, true)
		if got := dave.SlashCommand(t, lobby, "stratego tournament standings").Reply(t).Content; !strings.Contains(got, "This server has several tournaments") {
			t.Fatalf("dave's standings before the channel is deleted: %q", got)
		}
		h.deleteChannel()
		before := h.asked(thread)
		alpha(h, dave, lobby, "the archived thread's channel deleted")
		if n := h.asked(thread) - before; n != 0 {
			t.Errorf("the bot asked Discord about the thread %d times; want none, its answer kept", n)
		}
	})
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		h, dave, lobby, thread := lobbyAndThread(t, true)
		h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionViewChannel)
		before := h.asked(thread)
		alpha(h, dave, lobby, "Discord refusing to describe the thread")
		if n := h.asked(thread) - before; n != 1 {
			t.Errorf("the bot asked Discord about the thread %d times for two commands; want once, the refusal kept", n)
		}
	})
	t.Run("channel known deleted", func(t *testing.T) {
		t.Parallel()
		h, dave, lobby, thread := lobbyAndThread(t, true)
		if _, err := h.db.UpdateTournament(context.Background(), 2, 0, func(x *storage.Tournament) error {
			x.ChannelLost, x.ChannelDeleted = h.bot.now(), true
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		h.srv.FailNextIn(t, channelRoute, thread, 1, 500)
		before := h.asked(thread)
		alpha(h, dave, lobby, "Beta's channel known deleted")
		if n := h.asked(thread) - before; n != 0 {
			t.Errorf("the bot asked Discord about the thread %d times; want none, Beta's channel known deleted", n)
		}
	})
}
