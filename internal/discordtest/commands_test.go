package discordtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestCommandRegistrationRules checks the rules Discord applies to a
// command, from its API description and beyond it.
func TestCommandRegistrationRules(t *testing.T) {
	t.Parallel()
	opt := func(typ discordgo.ApplicationCommandOptionType, name string, required bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: typ, Name: name, Description: "d", Required: required}
	}
	str := discordgo.ApplicationCommandOptionString
	var many []*discordgo.ApplicationCommandOption
	for i := range 26 {
		many = append(many, opt(str, fmt.Sprintf("o%d", i), false))
	}
	tests := []struct {
		name    string
		cmds    []*discordgo.ApplicationCommand
		errPath []string
		errCode string
	}{
		{"upper-case name", []*discordgo.ApplicationCommand{{Name: "Stratego", Description: "d"}},
			[]string{"0", "name"}, "APPLICATION_COMMAND_INVALID_NAME"},
		{"name too long", []*discordgo.ApplicationCommand{{Name: strings.Repeat("s", 33), Description: "d"}},
			[]string{"0", "name"}, "BASE_TYPE_MAX_LENGTH"},
		{"no description", []*discordgo.ApplicationCommand{{Name: "stratego"}},
			[]string{"0", "description"}, "BASE_TYPE_REQUIRED"},
		{"26 options", []*discordgo.ApplicationCommand{{Name: "stratego", Description: "d", Options: many}},
			[]string{"0", "options"}, "BASE_TYPE_MAX_LENGTH"},
		{"required after optional", []*discordgo.ApplicationCommand{{Name: "stratego", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			opt(str, "a", false), opt(str, "b", true)}}},
			[]string{"0", "options", "1", "required"}, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"},
		{"duplicate option", []*discordgo.ApplicationCommand{{Name: "stratego", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			opt(str, "a", false), opt(str, "a", false)}}},
			[]string{"0", "options", "1", "name"}, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"},
		{"subcommand beside an option", []*discordgo.ApplicationCommand{{Name: "stratego", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			opt(discordgo.ApplicationCommandOptionSubCommand, "move", false), opt(str, "a", false)}}},
			[]string{"0", "options"}, "APPLICATION_COMMAND_OPTION_TYPE_INVALID"},
		{"autocomplete with choices", []*discordgo.ApplicationCommand{{Name: "stratego", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: str, Name: "a", Description: "d", Autocomplete: true, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "x", Value: "x"}}}}}},
			[]string{"0", "options", "0", "autocomplete"}, "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES"},
		{"duplicate command", []*discordgo.ApplicationCommand{{Name: "stratego", Description: "d"}, {Name: "stratego", Description: "e"}},
			[]string{"1", "name"}, "APPLICATION_COMMANDS_DUPLICATE_NAME"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			srv := newServer(rec)
			body, _ := json.Marshal(tc.cmds)
			status, got := call(t, srv, "PUT", "/api/v9/applications/"+srv.AppID()+"/commands", "application/json", body)
			if status != 400 || got["code"] != float64(50035) {
				t.Fatalf("%d %v", status, got)
			}
			if code := errorAt(got, tc.errPath...); code != tc.errCode {
				t.Errorf("error at %v: %q, want %q; body %v", tc.errPath, code, tc.errCode, got["errors"])
			}
			rec.wantFailure(t, "PUT /api/v9/applications/")
		})
	}
}

// TestCommandLifecycle checks that overwriting keeps ids, and guild and
// global scopes stay apart.
func TestCommandLifecycle(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	g := srv.AddGuild("g")
	sess := srv.OpenSession(t)
	app := srv.AppID()
	first, err := sess.ApplicationCommandBulkOverwrite(app, "", testCommands())
	if err != nil {
		t.Fatal(err)
	}
	again, err := sess.ApplicationCommandBulkOverwrite(app, "", testCommands())
	if err != nil {
		t.Fatal(err)
	}
	if first[0].ID != again[0].ID || first[0].Version == again[0].Version {
		t.Errorf("ids %s → %s, versions %s → %s", first[0].ID, again[0].ID, first[0].Version, again[0].Version)
	}
	perm := int64(discordgo.PermissionManageGuild)
	admin, err := sess.ApplicationCommandCreate(app, g.ID, &discordgo.ApplicationCommand{Name: "admin", Description: "Club settings", DefaultMemberPermissions: &perm})
	if err != nil {
		t.Fatal(err)
	}
	if admin.GuildID != g.ID || admin.DefaultMemberPermissions == nil || *admin.DefaultMemberPermissions != perm {
		t.Errorf("guild command %+v", admin)
	}
	if got := srv.Commands(nil); len(got) != 1 || got[0].Name != "stratego" || len(got[0].Options) != 3 {
		t.Errorf("global commands %+v", got)
	}
	if got := srv.Commands(g); len(got) != 1 || got[0].Name != "admin" {
		t.Errorf("guild commands %+v", got)
	}
	if err := sess.ApplicationCommandDelete(app, g.ID, admin.ID); err != nil {
		t.Fatal(err)
	}
	if got := srv.Commands(g); len(got) != 0 {
		t.Errorf("after delete: %+v", got)
	}
}
