package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestFollowersCostFewMemberLookups: five followers of a match played at
// a move a minute, twenty moves. Every follower gets every board, and the
// bot asks Discord for a follower's roles (to stop one who can no longer
// see the channel) at most once per follower in the time it keeps them
// (memberRolesFor), not once per follower and move: those questions share
// the server's rate limit with every other lookup of its members.
func TestFollowersCostFewMemberLookups(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	red := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.challenge("Classic", discordtest.Opt("two_squares", 0), discordtest.Opt("more_squares", false))
	h.sendSetups(red, blue)
	followers := []*discordtest.Member{h.carol}
	for _, name := range []string{"dave", "erin", "frank", "grace"} {
		followers = append(followers, h.guild.AddMember(name))
	}
	for _, f := range followers {
		f.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, "1"), discordtest.Opt(optFollow, true)).Reply(t)
	}
	before := len(h.srv.Requests(memberRoute))

	const moves, apart = 20, time.Minute
	cycle := [][2]string{{"A4", "A5"}, {"J7", "J6"}, {"A5", "A4"}, {"J6", "J7"}}
	players := []*discordtest.Member{h.alice, h.bob}
	for k := range moves {
		h.advance(apart)
		mv := cycle[k%len(cycle)]
		players[k%2].SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", mv[0]), discordtest.Opt("to", mv[1])).Reply(t)
		h.waitMoves(1, k+1)
	}
	h.outboxEmpty()
	for _, f := range followers {
		if n := len(f.DMs()); n != moves {
			t.Errorf("%s got %d boards by DM, want %d", f.Name, n, moves)
		}
	}
	lookups := len(h.srv.Requests(memberRoute)) - before
	bound := len(followers) * int((moves*apart+memberRolesFor-1)/memberRolesFor)
	t.Logf("%d member lookups for %d followers over %d moves a minute apart: %.2f a move", lookups, len(followers), moves, float64(lookups)/moves)
	if lookups > bound {
		t.Errorf("%d member lookups for %d followers over %d moves (%v), want at most %d: one per follower every %v",
			lookups, len(followers), moves, moves*apart, bound, memberRolesFor)
	}
}
