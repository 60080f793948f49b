package bot

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestFollowByDM: a member follows a match with /stratego watch follow:true
// and gets, by DM, the very picture the channel gets after every move, until
// they stop or the match ends; following changes nothing for the players; a
// player cannot follow their own match; a follower whose DMs are closed
// simply stops following.
func TestFollowByDM(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	dave := h.guild.AddMember("dave")
	watch := func(who *discordtest.Member, follow bool) string {
		t.Helper()
		return who.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, "1"), discordtest.Opt(optFollow, follow)).Reply(t).Content
	}
	followers := func() []string {
		t.Helper()
		f, err := h.db.Followers(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}

	before := h.match(1).Version
	if got := watch(h.carol, true); !strings.Contains(got, "You now follow Match #1") {
		t.Fatalf("carol following answered %q", got)
	}
	if got := watch(h.carol, true); !strings.Contains(got, "You already follow Match #1") {
		t.Errorf("following twice answered %q", got)
	}
	if got := watch(h.alice, true); !strings.Contains(got, "You play Match #1") {
		t.Errorf("a player following their own match answered %q", got)
	}
	if got := watch(dave, false); !strings.Contains(got, "You do not follow Match #1") {
		t.Errorf("stopping what was never followed answered %q", got)
	}
	if v := h.match(1).Version; v != before {
		t.Errorf("following moved the match from version %d to %d: the players' menus would go stale", before, v)
	}

	// Each move: carol gets the channel's picture, by DM, once.
	moves := [][2]string{{"A4", "A5"}, {"J7", "J6"}}
	players := []*discordtest.Member{h.alice, h.bob}
	for k, mv := range moves {
		players[k%2].SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", mv[0]), discordtest.Opt("to", mv[1])).Reply(t)
		h.waitMoves(1, k+1)
		dm := h.carol.WaitDM(t, contains(mv[0]+"-"+mv[1]))
		public := lastPublicBoard(t, h)
		if len(dm.Files) != 1 || !bytes.Equal(dm.Files[0].Data, public.Files[0].Data) {
			t.Fatalf("move %d: carol's DM has %d files, not the channel's picture", k+1, len(dm.Files))
		}
		if !strings.Contains(dm.Content, "follow:false` stops it") || len(dm.Components) != 0 {
			t.Errorf("move %d: carol's DM %q (%d components): no way to stop, or a player's menu", k+1, dm.Content, len(dm.Components))
		}
		if n := countDMs(h.carol, mv[0]+"-"+mv[1]); n != 1 {
			t.Errorf("move %d reached carol %d times", k+1, n)
		}
	}

	// dave follows with his DMs closed: the first board cannot reach him, so
	// he stops following, and nobody else hears of it.
	dave.CloseDMs()
	if got := watch(dave, true); !strings.Contains(got, "You now follow Match #1") {
		t.Fatalf("dave following answered %q", got)
	}
	channelBefore := len(h.srv.ChannelMessages(h.channel))
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A5"), discordtest.Opt("to", "A4")).Reply(t)
	h.waitMoves(1, 3)
	if f := followers(); len(f) != 1 || f[0] != h.carol.ID {
		t.Errorf("followers after dave's DM failed: %v, want carol only", f)
	}
	for _, msg := range h.srv.ChannelMessages(h.channel)[channelBefore:] {
		if strings.Contains(msg.Content, dave.ID) || strings.Contains(msg.Content, "direct messages") {
			t.Errorf("the channel was told about a follower: %q", msg.Content)
		}
	}

	// carol stops: the next move does not reach her.
	if got := watch(h.carol, false); !strings.Contains(got, "You no longer follow Match #1") {
		t.Fatalf("carol stopping answered %q", got)
	}
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J6"), discordtest.Opt("to", "J7")).Reply(t)
	h.waitMoves(1, 4)
	if n := countDMs(h.carol, "J6-J7"); n != 0 {
		t.Errorf("carol got %d DMs after she stopped following", n)
	}

	// Following again, then the match is called off: carol is told, and the
	// match forgets its followers.
	watch(h.carol, true)
	moderator(h)
	h.carol.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt(optMatch, "1"), discordtest.Opt(optReason, "test")).Reply(t)
	h.bot.deliverDue(context.Background())
	h.carol.WaitDM(t, contains("a moderator decided so"))
	if f := followers(); len(f) != 0 {
		t.Errorf("an ended match keeps its followers: %v", f)
	}
	if m := h.match(1); m.Phase != storage.PhaseAbandoned {
		t.Errorf("match phase %v after the cancel", m.Phase)
	}
}
