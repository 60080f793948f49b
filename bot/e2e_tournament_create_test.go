package bot

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestTournamentNameShowsSomething: a tournament's name is how its
// channel, its players' DMs and the list tell it apart, so one that
// shows nothing — spaces, or characters that take no room, which
// Discord's client does not trim — is refused, and the organiser told
// what to give instead; a name that shows something, however short or
// marked up, is taken as typed.
func TestTournamentNameShowsSomething(t *testing.T) {
	t.Parallel()
	h := newTourney(t)
	const refused = "Give the tournament a name of 1 to 80 characters that shows something"
	for _, tc := range []struct {
		name, want string
	}{
		{"   ", refused},
		{"\u200b", refused},             // zero-width space
		{"\u2060\ufeff\u200d", refused}, // word joiner, byte order mark, zero-width joiner
		{"\u3000\u00a0", refused},       // ideographic and no-break spaces
		{"\u200bX\u200b", "Tournament #1: \u200bX\u200b"},
		{"@everyone *", "Tournament #2: @everyone \\*"},
	} {
		got := h.run(h.alice, "create", discordtest.Opt("name", tc.name), discordtest.Opt("format", "round-robin"))
		if !strings.Contains(got.Content, tc.want) {
			t.Errorf("a tournament named %q: %q; want %q", tc.name, got.Content, tc.want)
		}
	}
	all, _, err := h.bot.serverTournaments(t.Context(), h.guild.ID, true)
	if err != nil || len(all) != 2 {
		t.Fatalf("the server's tournaments: %d (%v); want the two named", len(all), err)
	}
}

// TestTournamentJoinSaysHowManyInvitations: joining a round robin says the
// set-up invitations come one for each opponent; a double round robin,
// two for each, one with each colour.
func TestTournamentJoinSaysHowManyInvitations(t *testing.T) {
	for _, tc := range []struct{ format, want string }{
		{"round-robin", "your set-up invitations come by DM, one for each opponent."},
		{"double-round-robin", "your set-up invitations come by DM, two for each opponent: one with each colour."},
	} {
		t.Run(tc.format, func(t *testing.T) {
			t.Parallel()
			h := newTourney(t)
			h.expect(h.run(h.alice, "create", discordtest.Opt("name", "Club"), discordtest.Opt("format", tc.format)), "Tournament #1")
			h.expect(h.run(h.bob, "join"), tc.want)
		})
	}
}
