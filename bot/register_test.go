package bot

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestSameCommands: the commands as Discord lists them, with what it adds
// of its own (ids, version, its defaults of the settings the bot leaves
// unset, empty lists), are the bot's; any change of the bot's own is not,
// nor a setting the bot leaves unset that Discord holds otherwise than its
// default (left by an earlier version or other tooling): a start rewrites
// it.
func TestSameCommands(t *testing.T) {
	// listed is the bot's commands as Discord lists them back.
	listed := func(change func(m []map[string]any)) []*discordgo.ApplicationCommand {
		raw, err := json.Marshal(Commands())
		if err != nil {
			t.Fatal(err)
		}
		var m []map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m {
			c["id"], c["application_id"], c["version"] = "1", "2", "3"
			c["dm_permission"], c["nsfw"], c["default_member_permissions"], c["integration_types"] = true, false, nil, []any{0}
			for _, o := range c["options"].([]any) {
				o := o.(map[string]any)
				o["choices"] = []any{}
				o["channel_types"] = []any{}
				if o["options"] == nil {
					o["options"] = []any{}
				}
			}
		}
		if change != nil {
			change(m)
		}
		raw, err = json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var out []*discordgo.ApplicationCommand
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	option := func(m []map[string]any, i int) map[string]any {
		return m[0]["options"].([]any)[i].(map[string]any)
	}
	tests := []struct {
		name   string
		have   []*discordgo.ApplicationCommand
		issame bool
	}{
		{"as registered", listed(nil), true},
		{"none", nil, false},
		{"a description", listed(func(m []map[string]any) { m[0]["description"] = "Play Stratego" }), false},
		{"a localization", listed(func(m []map[string]any) { m[0]["description_localizations"].(map[string]any)["nl"] = "Speel" }), false},
		{"an option less", listed(func(m []map[string]any) { m[0]["options"] = m[0]["options"].([]any)[1:] }), false},
		{"an option's name", listed(func(m []map[string]any) { option(m, 0)["name"] = "defy" }), false},
		{"the contexts", listed(func(m []map[string]any) { m[0]["contexts"] = []any{0} }), false},
		{"Discord's defaults not listed", listed(func(m []map[string]any) {
			delete(m[0], "dm_permission")
			delete(m[0], "nsfw")
			delete(m[0], "integration_types")
		}), true},
		{"default_member_permissions", listed(func(m []map[string]any) { m[0]["default_member_permissions"] = "32" }), false},
		{"administrators only (0)", listed(func(m []map[string]any) { m[0]["default_member_permissions"] = "0" }), false},
		{"dm_permission off", listed(func(m []map[string]any) { m[0]["dm_permission"] = false }), false},
		{"default_permission off", listed(func(m []map[string]any) { m[0]["default_permission"] = false }), false},
		{"nsfw", listed(func(m []map[string]any) { m[0]["nsfw"] = true }), false},
		{"user-install only", listed(func(m []map[string]any) { m[0]["integration_types"] = []any{1} }), false},
		{"user-install too", listed(func(m []map[string]any) { m[0]["integration_types"] = []any{0, 1} }), false},
		{"a stale name localization", listed(func(m []map[string]any) { m[0]["name_localizations"] = map[string]any{"nl": "oud"} }), false},
		{"another type", listed(func(m []map[string]any) { m[0]["type"] = 2 }), false},
		{"a command more", append(listed(nil), &discordgo.ApplicationCommand{Name: "other", Description: "x"}), false},
		{"another command instead", []*discordgo.ApplicationCommand{{Name: "other", Description: "x"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCommands(tc.have, Commands()); got != tc.issame {
				t.Errorf("sameCommands: %v, want %v", got, tc.issame)
			}
		})
	}
}
