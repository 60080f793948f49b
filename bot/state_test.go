package bot

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestStateReadWhileDiscordUpdates: when Discord sends a known server or
// channel again, discordgo overwrites its struct in place, under its lock,
// and a new session's READY replaces the bot's own user;
// what the bot reads of them meanwhile must be read under that lock too,
// or the race detector stops the tests (it caught the outbox wording a
// tournament's notice in the server's language during a GUILD_CREATE).
func TestStateReadWhileDiscordUpdates(t *testing.T) {
	t.Parallel()
	st := discordgo.NewState()
	server := func(locale string) *discordgo.Guild {
		return &discordgo.Guild{ID: "1", PreferredLocale: locale, Channels: []*discordgo.Channel{
			{ID: "2", GuildID: "1", Type: discordgo.ChannelTypeGuildText},
			{ID: "3", GuildID: "1", ParentID: "2", Type: discordgo.ChannelTypeGuildPublicThread},
		}}
	}
	session := &discordgo.Session{State: st, StateEnabled: true}
	ready := func() *discordgo.Ready {
		return &discordgo.Ready{User: &discordgo.User{ID: "9"}, Guilds: []*discordgo.Guild{server("de")}}
	}
	if err := st.OnInterface(session, ready()); err != nil {
		t.Fatal(err)
	}
	b := &Bot{s: session}
	stop, updated := make(chan struct{}), make(chan struct{})
	var updates atomic.Int64
	go func() {
		defer close(updated)
		for k := 0; ; k++ {
			select {
			case <-stop:
				return
			default:
			}
			_ = st.GuildAdd(server([]string{"de", "fr"}[k%2]))
			_ = st.ChannelAdd(&discordgo.Channel{ID: "3", GuildID: "1", ParentID: "2", Type: discordgo.ChannelTypeGuildPublicThread})
			// A new session's READY (after Discord refused to resume).
			_ = st.OnInterface(session, ready())
			updates.Add(1)
		}
	}()
	defer func() { close(stop); <-updated }()
	// Read while Discord's updates go on: reads before the first or after
	// the last would be ordered by the lock.
	for reads := 0; reads < 300 || updates.Load() < 300; reads++ {
		if code := b.publicPrinter("1").Code(); code != "de" && code != "fr" {
			t.Fatalf("the server's language read as %q", code)
		}
		if _, thread := b.threadOf(t.Context(), "3"); !thread {
			t.Fatal("the thread was mistaken for a channel")
		}
		if _, thread := b.threadOf(t.Context(), "2"); thread {
			t.Fatal("the thread and its channel were mistaken for each other")
		}
		if parent, ok := b.threadParent("3"); !ok || parent != "2" {
			t.Fatalf("the thread's channel read as %q, %v", parent, ok)
		}
		if id := b.botUserID(); id != "9" {
			t.Fatalf("the bot's own id read as %q", id)
		}
		if ids := b.guildChannelIDs("1"); !slices.Contains(ids, "2") {
			t.Fatalf("the server's channels read as %v", ids)
		}
	}
}
