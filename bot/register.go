package bot

import (
	"encoding/json"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// sameCommands reports whether the commands Discord has (have, as it lists
// them) are want: the same commands, each with the same name, type,
// descriptions, localizations, options and settings. What Discord adds of
// its own (ids, version, the application's and the server's id) is not
// compared, nor a setting want leaves unset (Discord's default then), so
// that a start whose commands did not change writes nothing.
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
		x, y := canonicalCommand(have[i], w), canonicalCommand(w, w)
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

// canonicalCommand is c as JSON, to be compared with another command's
// after the same treatment: Discord's own fields dropped, and the
// settings like leaves unset; nulls, empty lists and empty maps dropped
// everywhere, as Discord may list them either way. "" when c does not
// encode.
func canonicalCommand(c, like *discordgo.ApplicationCommand) string {
	x, ok := jsonObject(c)
	set, ok2 := jsonObject(like)
	if !ok || !ok2 {
		return ""
	}
	for _, k := range []string{"id", "application_id", "guild_id", "version"} {
		delete(x, k)
	}
	x["type"] = float64(commandType(c))
	set["type"] = true
	for k := range x {
		if _, ok := set[k]; !ok {
			delete(x, k)
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
