package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestCheckCommand runs the built `strategobot check` against the local
// Discord, in servers set up the ways an admin's may be: it says what works
// and what to fix, posts and deletes its test picture, DMs the member, and
// exits 1 when anything fails.
func TestCheckCommand(t *testing.T) {
	bin := buildBinary(t)
	type world struct {
		srv   *discordtest.Server
		club  *discordtest.Guild
		alice *discordtest.Member
	}
	tests := []struct {
		name     string
		change   func(w world)
		args     func(w world) []string
		wantCode int
		want     []string
	}{
		{"all well", nil, func(w world) []string {
			return []string{"-guild", w.club.ID, "-channel", w.club.General().ID, "-user", w.alice.ID}
		}, 0, []string{"✓ the token belongs to the bot", "invite link: https://discord.com/oauth2/authorize?client_id=", "scope=bot+applications.commands",
			"has   Attach Files", "✓ the bot has every permission a match needs in #general", "✓ posted a test picture", "✓ deleted it", "✓ sent user", "All checks passed."}},
		{"a revoked token", func(w world) { w.srv.RevokeToken() }, func(world) []string { return nil }, 1, []string{"✗ Discord refuses the token", "Reset Token"}},
		{"no Attach Files in the channel", func(w world) {
			w.club.General().SetOverwrite(w.srv.Bot(), 0, discordgo.PermissionAttachFiles)
		}, func(w world) []string { return []string{"-channel", w.club.General().ID} }, 1,
			[]string{"lacks Attach Files (to post the board pictures)", "✗ the bot lacks 1 permission(s)", "✗ posting a test picture in #general failed: Discord answered 50013"}},
		{"closed DMs", func(w world) { w.alice.CloseDMs() }, func(w world) []string { return []string{"-user", w.alice.ID} }, 1,
			[]string{"does not take DMs from the bot"}},
		{"the bot not in the server", func(w world) { w.club.KickBot() }, func(w world) []string { return []string{"-guild", w.club.ID} }, 1,
			[]string{"✗ the bot is not in server", "invite it with the link above"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := discordtest.New(t)
			club := srv.AddGuild("Stratego Club")
			w := world{srv: srv, club: club, alice: club.AddMember("alice")}
			if tc.change != nil {
				tc.change(w)
			}
			token := srv.Token()
			cmd := exec.Command(bin, append([]string{"check"}, tc.args(w)...)...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "DISCORD_TOKEN="+token, "STRATEGOBOT_API_BASE_URL="+srv.APIBase(), "STRATEGOBOT_CONFIG=")
			out, err := cmd.Output()
			code := 0
			if exit, ok := err.(*exec.ExitError); ok {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d", code, tc.wantCode)
			}
			for _, want := range tc.want {
				if !strings.Contains(string(out), want) {
					t.Errorf("the output lacks %q:\n%s", want, out)
				}
			}
			if tc.wantCode == 0 {
				if msgs := srv.ChannelMessages(club.General()); len(msgs) != 0 {
					t.Errorf("%d messages left in the channel", len(msgs))
				}
				if dms := w.alice.DMs(); len(dms) != 1 || len(dms[0].Files) != 1 {
					t.Errorf("alice got %d DMs", len(dms))
				}
			}
		})
	}
}
