package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestDMOpeningHoldsNoOtherMatch: while Discord is slow to open a DM
// channel for one new member, the boards of everyone else still go out:
// discordgo sends the requests of one route one at a time, so the outbox
// must not let its workers queue behind that route. Here 25 members follow
// a match, so each move's channel board owes 25 DMs to members never
// written to before; the first opening is held; the players' next move
// still reaches the channel and both players, and once Discord answers
// every follower gets every board, once and in order.
func TestDMOpeningHoldsNoOtherMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startClassic()
	var followers []*discordtest.Member
	// As many followers as a match may have: more than the outbox has
	// workers, and more than it looks ahead past the notices being
	// delivered, so the queues waiting for a DM channel must not fill its
	// view and hold back every other notice.
	for i := range maxFollowers {
		m := h.guild.AddMember(fmt.Sprintf("follower%d", i))
		if got := m.SlashCommand(t, h.channel, "stratego watch", discordtest.Opt(optMatch, "1"), discordtest.Opt(optFollow, true)).Reply(t).Content; !strings.Contains(got, "You now follow Match #1") {
			t.Fatalf("%s following answered %q", m.Name, got)
		}
		followers = append(followers, m)
	}
	hold := h.srv.HoldNext(t, "POST /users/@me/channels", 1)
	defer hold.Release()

	moves := [][2]string{{"A4", "A5"}, {"J7", "J6"}}
	players := []*discordtest.Member{h.alice, h.bob}
	move := func(k int) {
		t.Helper()
		mv := moves[k]
		players[k%2].SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", mv[0]), discordtest.Opt("to", mv[1])).Reply(t)
		h.waitStored(1, k+1) // not waitMoves: its outbox pass would wait for the held opening
	}
	move(0)
	h.srv.WaitFor(t, "a DM channel's opening to be held", func() bool { return hold.Waiting() == 1 })
	move(1)
	said := moves[1][0] + "-" + moves[1][1]
	h.srv.WaitFor(t, "the second move's board in the channel", func() bool {
		for _, msg := range h.srv.ChannelMessages(h.channel) {
			if len(msg.Files) == 1 && strings.Contains(msg.Content, said) {
				return true
			}
		}
		return false
	})
	h.alice.WaitDM(t, contains(said))
	h.bob.WaitDM(t, contains(said))
	if n := hold.Waiting(); n != 1 {
		t.Fatalf("%d DM channel openings held while the boards went out, want the one", n)
	}
	for _, f := range followers {
		if n := len(f.DMs()); n != 0 {
			t.Fatalf("%s got %d DMs with the opening of DM channels held", f.Name, n)
		}
	}

	hold.Release()
	for _, f := range followers {
		f.WaitDM(t, contains(said))
		var got []string
		for _, dm := range f.DMs() {
			for _, mv := range moves {
				if strings.Contains(dm.Content, mv[0]+"-"+mv[1]) {
					got = append(got, mv[0]+"-"+mv[1])
				}
			}
		}
		if want := []string{"A4-A5", "J7-J6"}; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s's boards: %v, want %v, once each and in order", f.Name, got, want)
		}
	}
}
