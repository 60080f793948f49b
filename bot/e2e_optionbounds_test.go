package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestOptionsPastTheirBoundsRefused: a modified client sends an option past
// what the command declares (Discord's own client keeps to its choices,
// max_length, min_value and max_value). Each is refused privately, at the
// one check every command passes, naming the option and its bounds, and
// changes nothing: a moderator's reason that long would be stored with the
// match and make its end too long a message for Discord, so the players
// would never be told; a tournament would start before it was made, or
// have rounds of centuries.
func TestOptionsPastTheirBoundsRefused(t *testing.T) {
	t.Parallel()
	opt := discordtest.Opt
	tests := []struct {
		name string
		cmd  string
		args func(h *harness) []discordtest.Arg
		want string
	}{
		{"a moderator's reason to call a match off", "stratego cancel", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("match", "1"), opt("reason", strings.Repeat("x", 301))}
		}, "The `reason` option takes at most 300 characters; yours has 301."},
		{"a moderator's reason to award a match", "stratego award", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("match", "1"), opt("winner", h.alice), opt("reason", strings.Repeat("é", 5000))}
		}, "The `reason` option takes at most 300 characters; yours has 5,000."},
		{"a tournament's name", "stratego tournament create", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("name", strings.Repeat("n", 81)), opt("format", "swiss"), opt("rounds", 3)}
		}, "The `name` option takes at most 80 characters; yours has 81."},
		{"an army", "stratego challenge", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("variant", "Custom"), opt("army", strings.Repeat("9 ", 1000))}
		}, "The `army` option takes at most 200 characters; yours has 2,000."},
		{"a match named by typing, past any suggestion", "stratego cancel", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("match", "1"+strings.Repeat(" ", 3000)+"#1"), opt("reason", "cheating")}
		}, "The `match` option takes at most 100 characters; yours has 3,003."},
		{"a variant that is no choice", "stratego seek", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("time", "24h"), opt("variant", strings.Repeat("Barrage", 700))}
		}, "The `variant` option takes at most"},
		// Numbers past their declared bounds, and off their choices.
		{"a tournament that starts before it is made", "stratego tournament create", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("name", "Cup"), opt("format", "swiss"), opt("rounds", 3), opt("starts_in_hours", -1000), opt("join_hours", -1000)}
		}, "The `starts_in_hours` option takes a number from 1 to 720."},
		{"a tournament's rounds that last 270 years", "stratego tournament create", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("name", "Cup"), opt("format", "swiss"), opt("rounds", 3), opt("round_days", 100000)}
		}, "The `round_days` option takes a number from 1 to 30."},
		{"a pause of a thousand days", "stratego pause", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("match", "1"), opt("days", 1000)}
		}, "The `days` option takes a number from 1 to 14."},
		{"a negative rating to meet", "stratego seek", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("time", "24h"), opt("rating_min", -5)}
		}, "The `rating_min` option takes a number from 0 to 4,000."},
		{"a Two-Squares rule of 7", "stratego challenge", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("two_squares", 7)}
		}, "Choose the `two_squares` option from its list."},
		{"tournament number 0", "stratego tournament standings", func(h *harness) []discordtest.Arg {
			return []discordtest.Arg{opt("tournament", 0)}
		}, "The `tournament` option takes a number of at least 1."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			moderator(h) // carol
			h.dayMatch() // #1: alice against bob
			before := h.match(1).Version
			r := h.carol.ForgeSlashCommand(t, h.channel, tc.cmd, tc.args(h)...).Reply(t)
			if !r.Ephemeral || !strings.Contains(r.Content, tc.want) {
				t.Fatalf("answered %q (private %v); want privately %q", r.Content, r.Ephemeral, tc.want)
			}
			if m := h.match(1); m.Version != before || m.ModeratorNote != "" || !m.Phase.Active() {
				t.Fatalf("match #1 changed: version %d to %d, note %q, phase %v", before, m.Version, m.ModeratorNote, m.Phase)
			}
			if _, err := h.db.Tournament(t.Context(), 1); err == nil {
				t.Fatal("a tournament was created")
			}
		})
	}
}

// TestLongestReasonIsTold: a reason as long as the command lets it be, of
// characters the note escapes, by a moderator with a long name, still
// reaches the channel and both players whole.
func TestLongestReasonIsTold(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	mod := h.guild.AddMember(strings.Repeat("*", 32))
	h.guild.GiveRole(mod, h.guild.AddRole("mods", discordgo.PermissionManageGuild))
	h.dayMatch()
	reason := strings.Repeat("*_", 150)
	mod.SlashCommand(t, h.channel, "stratego cancel", discordtest.Opt("match", "1"), discordtest.Opt("reason", reason)).Reply(t)
	if m := h.match(1); m.CalledOff != storage.CallOffModerator {
		t.Fatalf("match #1 is not called off by the moderator: %+v", m.CalledOff)
	}
	for _, who := range []*discordtest.Member{h.alice, h.bob} {
		who.WaitDM(t, contains(reason))
	}
	h.channelSays(reason)
}
