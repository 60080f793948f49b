package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestVacationCarriedWithinTheServersAllowance: Alice goes on vacation
// with her one match on the club (30 days a year), then Bob accepts her
// challenge on another server, which allows 5 days a year. A vacation
// that fits those 5 days is carried into the new match, as on any server;
// one of 20 days is not: it would stop that server's clock for more than
// its rule gives a member in a year, the rule a vacation asked for with a
// match there already is held to (the smallest allowance of the servers
// it stops a clock on). That match goes on, as on a server that turned
// vacations off, and Bob is not told she is away in it.
func TestVacationCarriedWithinTheServersAllowance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		days    int
		carried bool
	}{
		{"three days, within the other server's five", 3, true},
		{"twenty days, more than the other server's five", 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			other := h.srv.AddGuild("Another Club")
			for _, m := range []*discordtest.Member{h.alice, h.bob, h.carol} {
				other.Join(m)
			}
			other.GiveRole(h.carol, other.AddRole("mods", discordgo.PermissionManageGuild))
			if got := h.carol.SlashCommand(t, other.General(), "stratego server", discordtest.Opt("vacation_days", 5)).Reply(t).Content; !strings.Contains(got, "vacation allowance: 5 days a year") {
				t.Fatalf("setting the other server's allowance answered %q", got)
			}
			h.challengeIn(h.channel)
			h.bot.deliverDue(t.Context())
			if got := h.alice.SlashCommand(t, h.channel, "stratego vacation", discordtest.Opt("days", tc.days)).Reply(t).Content; !strings.Contains(got, "correspondence matches (1)") {
				t.Fatalf("a vacation of %d days answered %q", tc.days, got)
			}
			h.advance(time.Hour)
			h.challengeIn(other.General())
			h.bot.deliverDue(t.Context())
			h.outboxEmpty()
			m := h.match(2)
			if carried := !m.VacationUntil(game.Red).IsZero(); carried != tc.carried {
				t.Errorf("the new match holds alice's vacation: %v, want %v", carried, tc.carried)
			}
			if want := m.Created.Add(m.MoveTime); !tc.carried && !m.Deadline.Equal(want) {
				t.Errorf("the set-ups of the other server's match are due %v after it began, want %v", m.Deadline.Sub(m.Created), m.MoveTime)
			}
			told := 0
			for _, msg := range h.bob.DMs() {
				if strings.Contains(msg.Content, "#2") && strings.Contains(msg.Content, "alice is on vacation until") {
					told++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.carried]; told != want {
				t.Errorf("bob was told %d times that alice is away in the new match, want %d", told, want)
			}
		})
	}
}
