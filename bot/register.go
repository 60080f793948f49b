package bot

import (
	"encoding/json"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// sameCommands reports whether the commands Discord has (have, as it lists
// them) are want: the same commands, each with the same name, type,
// descriptions, localizations, options and settings. What Discord makes of
// its own (ids, version, the application's and the server's id) is not
// compared; a setting one side leaves unset counts as Discord's default
// (commandDefaults), so that a start whose commands did not change writes
// nothing, while a setting Discord holds that the bot would not register
// (set by an earlier version, or by other tooling) is a change: the write
// puts it back to the bot's.
func sameCommands(have, want []*discordgo.ApplicationCommand) bool {
	if len(have) != len(want) {
		return false
	}
	for _, w := range want {
		i := slices.IndexFunc(have, func(h *discordgo.ApplicationCommand) bool {
			return h.Name == w.Name && commandType(h) == commandType(w)
		})
		if i < 0 {
			return false
		}
		x, y := canonicalCommand(have[i]), canonicalCommand(w)
		if x == "" || x != y {
			return false
		}
	}
	return true
}

// commandType is c's type; unset is a slash command, as Discord takes it.
func commandType(c *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if c.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return c.Type
}

// serverMade are the fields of a command Discord fills in itself (see
// ApplicationCommandResponse in Discord's API description): never
// registered, never compared.
var serverMade = []string{"id", "application_id", "guild_id", "version"}

// commandDefaults are the top-level settings of a command Discord takes
// when a registration leaves them unset (ApplicationCommandCreateRequest):
// a slash command, anyone may use it (default_member_permissions null,
// the deprecated default_permission true), usable in DMs too
// (dm_permission, deprecated for contexts), not age-restricted, installed
// in servers (integration_types [0], GUILD_INSTALL). An unset name or
// description localization, contexts or options is null, dropped by
// pruned on both sides.
var commandDefaults = map[string]any{
	"type":               float64(discordgo.ChatApplicationCommand),
	"default_permission": true,
	"dm_permission":      true,
	"nsfw":               false,
	"integration_types":  []any{float64(discordgo.ApplicationIntegrationGuildInstall)},
}

// canonicalCommand is c as JSON, to be compared with another command's
// after the same treatment: the fields Discord makes dropped, an unset
// setting given Discord's default (commandDefaults); nulls, empty lists
// and empty maps dropped everywhere, as Discord may list them either way.
// "" when c does not encode.
func canonicalCommand(c *discordgo.ApplicationCommand) string {
	x, ok := jsonObject(c)
	if !ok {
		return ""
	}
	for _, k := range serverMade {
		delete(x, k)
	}
	for k, v := range commandDefaults {
		if _, set := x[k]; !set {
			x[k] = v
		}
	}
	out, err := json.Marshal(x)
	if err != nil {
		return ""
	}
	return string(out)
}

// jsonObject is c as a JSON object, pruned (see pruned).
func jsonObject(c *discordgo.ApplicationCommand) (map[string]any, bool) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	m, ok := pruned(m).(map[string]any)
	return m, ok
}

// pruned is v without its nulls, empty lists and empty maps, at every depth.
func pruned(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			e = pruned(e)
			if e == nil {
				delete(v, k)
				continue
			}
			v[k] = e
		}
		if len(v) == 0 {
			return nil
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = pruned(e)
		}
		if len(v) == 0 {
			return nil
		}
		return v
	}
	return v
}
