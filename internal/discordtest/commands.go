package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/bwmarrin/discordgo"
)

// command is a registered application command.
type command struct {
	id, guildID string // guildID "" for a global command
	version     string
	raw         map[string]any // as sent, decoded generically
	def         *discordgo.ApplicationCommand
}

// commandJSON renders a command as Discord answers it.
func (s *Server) commandJSON(c *command) map[string]any {
	out := map[string]any{}
	for k, v := range c.raw {
		if v != nil {
			out[k] = v
		}
	}
	out["id"] = c.id
	out["application_id"] = s.appID
	out["version"] = c.version
	if _, ok := out["type"]; !ok {
		out["type"] = 1
	}
	if out["type"] == json.Number("1") || out["type"] == 1 {
		if _, ok := out["description"]; !ok {
			out["description"] = ""
		}
	} else {
		out["description"] = ""
	}
	if p, ok := out["default_member_permissions"]; ok {
		out["default_member_permissions"] = fmt.Sprint(p)
	} else {
		out["default_member_permissions"] = nil
	}
	if c.guildID != "" {
		out["guild_id"] = c.guildID
	} else {
		if _, ok := out["contexts"]; !ok {
			out["contexts"] = nil
		}
		if _, ok := out["integration_types"]; !ok {
			out["integration_types"] = []any{0}
		}
	}
	if _, ok := out["dm_permission"]; !ok && c.guildID == "" {
		out["dm_permission"] = true
	}
	delete(out, "default_permission") // deprecated, not echoed
	out["nsfw"] = out["nsfw"] == true
	if opts, ok := out["options"].([]any); ok {
		out["options"] = cleanOptions(opts)
	} else {
		delete(out, "options")
	}
	return out
}

// cleanOptions drops the nulls and empty defaults discordgo sends, as
// Discord's answer does not carry them.
func cleanOptions(opts []any) []any {
	out := make([]any, 0, len(opts))
	for _, o := range opts {
		obj, ok := o.(map[string]any)
		if !ok {
			continue
		}
		c := map[string]any{}
		for k, v := range obj {
			switch {
			case v == nil:
			case k == "options":
				if list, ok := v.([]any); ok && len(list) > 0 {
					c[k] = cleanOptions(list)
				}
			case k == "choices" || k == "channel_types":
				if list, ok := v.([]any); ok && len(list) > 0 {
					c[k] = v
				}
			case (k == "required" || k == "autocomplete") && v == false:
			default:
				c[k] = v
			}
		}
		out = append(out, c)
	}
	return out
}

// commandScope reads the guild of a command route ("" for global ones) and
// checks the application id.
func (s *Server) commandScope(q *request) (string, *apiError) {
	if q.params["application_id"] != s.appID {
		detail := "application id " + q.params["application_id"] + " is not the bot's (" + s.appID + ")"
		if q.params["application_id"] == s.bot.id {
			detail = "application id " + s.bot.id + " is the bot user's id; this application's id is " + s.appID + " (READY's application.id)"
		}
		return "", &apiError{status: 403, code: 50001, message: "Missing Access", detail: detail}
	}
	gid := q.params["guild_id"]
	if gid != "" && s.guilds[gid] == nil {
		// A server the bot is not in comes from its owner's configuration
		// (guild_id), not from a bug: the bot must be able to meet it.
		return "", &apiError{status: 403, code: 50001, message: "Missing Access", detail: "the bot is not in guild " + gid, expected: true}
	}
	return gid, nil
}

func (s *Server) listCommands(q *request) (int, any, *apiError) {
	gid, err := s.commandScope(q)
	if err != nil {
		return 0, nil, err
	}
	out := []any{}
	for _, c := range s.commands {
		if c.guildID == gid {
			out = append(out, s.commandJSON(c))
		}
	}
	return http.StatusOK, out, nil
}

// overwriteCommands replaces all commands of a scope. Commands keep their
// ids when their name (and type) stays, as on Discord.
func (s *Server) overwriteCommands(q *request) (int, any, *apiError) {
	gid, err := s.commandScope(q)
	if err != nil {
		return 0, nil, err
	}
	var raws []map[string]any
	if err := decodeAny(q.body, &raws); err != nil {
		return 0, nil, errInvalidForm(formError("", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	var defs []*discordgo.ApplicationCommand
	if err := json.Unmarshal(q.body, &defs); err != nil {
		return 0, nil, errInvalidForm(formError("", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	var errs []fieldError
	names := map[string]bool{}
	for i, d := range defs {
		errs = append(errs, prefixErrors(fmt.Sprint(i), checkCommand(d))...)
		key := fmt.Sprint(commandType(d), "/", d.Name)
		if names[key] {
			errs = append(errs, formError(fmt.Sprint(i, "/name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"))
		}
		names[key] = true
	}
	if len(errs) > 0 {
		return 0, nil, errInvalidForm(errs...)
	}
	old := map[string]*command{}
	var kept []*command
	for _, c := range s.commands {
		if c.guildID == gid {
			old[fmt.Sprint(commandType(c.def), "/", c.def.Name)] = c
		} else {
			kept = append(kept, c)
		}
	}
	out := []any{}
	for i, d := range defs {
		c := old[fmt.Sprint(commandType(d), "/", d.Name)]
		if c == nil {
			c = &command{id: s.nextID(), guildID: gid}
		}
		c.version, c.raw, c.def = s.nextID(), raws[i], d
		kept = append(kept, c)
		out = append(out, s.commandJSON(c))
	}
	s.commands = kept
	return http.StatusOK, out, nil
}

// createCommand creates a command, or replaces the one of the same name.
func (s *Server) createCommand(q *request) (int, any, *apiError) {
	gid, err := s.commandScope(q)
	if err != nil {
		return 0, nil, err
	}
	var raw map[string]any
	var def discordgo.ApplicationCommand
	if err := decodeAny(q.body, &raw); err != nil {
		return 0, nil, errInvalidForm(formError("", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	if err := json.Unmarshal(q.body, &def); err != nil {
		return 0, nil, errInvalidForm(formError("", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	if errs := checkCommand(&def); len(errs) > 0 {
		return 0, nil, errInvalidForm(errs...)
	}
	status := http.StatusCreated
	for _, c := range s.commands {
		if c.guildID == gid && c.def.Name == def.Name && commandType(c.def) == commandType(&def) {
			c.version, c.raw, c.def = s.nextID(), raw, &def
			return http.StatusOK, s.commandJSON(c), nil
		}
	}
	c := &command{id: s.nextID(), guildID: gid, version: s.nextID(), raw: raw, def: &def}
	s.commands = append(s.commands, c)
	return status, s.commandJSON(c), nil
}

// findCommand finds a command of a scope by id.
func (s *Server) findCommand(q *request) (*command, *apiError) {
	gid, err := s.commandScope(q)
	if err != nil {
		return nil, err
	}
	for _, c := range s.commands {
		if c.id == q.params["command_id"] && c.guildID == gid {
			return c, nil
		}
	}
	return nil, errUnknownCommand()
}

func (s *Server) getCommand(q *request) (int, any, *apiError) {
	c, err := s.findCommand(q)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.commandJSON(c), nil
}

func (s *Server) editCommand(q *request) (int, any, *apiError) {
	c, err := s.findCommand(q)
	if err != nil {
		return 0, nil, err
	}
	var patch map[string]any
	if err := decodeAny(q.body, &patch); err != nil {
		return 0, nil, errInvalidForm(formError("", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	merged := map[string]any{}
	for k, v := range c.raw {
		merged[k] = v
	}
	for k, v := range patch {
		merged[k] = v
	}
	raw, _ := json.Marshal(merged)
	var def discordgo.ApplicationCommand
	if err := json.Unmarshal(raw, &def); err != nil {
		return 0, nil, errInvalidForm(formError("", "BASE_TYPE_BAD_TYPE", err.Error()))
	}
	if errs := checkCommand(&def); len(errs) > 0 {
		return 0, nil, errInvalidForm(errs...)
	}
	c.version, c.raw, c.def = s.nextID(), merged, &def
	return http.StatusOK, s.commandJSON(c), nil
}

func (s *Server) deleteCommand(q *request) (int, any, *apiError) {
	c, err := s.findCommand(q)
	if err != nil {
		return 0, nil, err
	}
	s.commands = slices.DeleteFunc(s.commands, func(x *command) bool { return x == c })
	return http.StatusNoContent, nil, nil
}

func commandType(d *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if d.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return d.Type
}

// commandName is the pattern of chat-input command and option names.
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// checkCommand enforces Discord's rules for a command that its API
// description does not express.
func checkCommand(d *discordgo.ApplicationCommand) []fieldError {
	var errs []fieldError
	if commandType(d) != discordgo.ChatApplicationCommand {
		if d.Description != "" {
			errs = append(errs, formError("description", "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION", "Context menu commands cannot have description"))
		}
		return errs
	}
	if !validName(d.Name) {
		errs = append(errs, formError("name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
	}
	if d.Description == "" {
		errs = append(errs, formError("description", "BASE_TYPE_REQUIRED", "This field is required"))
	}
	errs = append(errs, checkOptions(d.Options, "options", 0)...)
	return errs
}

// validName reports whether a chat-input name is allowed: the pattern, and
// lower case wherever a letter has a lower-case form.
func validName(name string) bool {
	if !commandName.MatchString(name) {
		return false
	}
	for _, r := range name {
		if unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}

// checkOptions checks one level of options; depth 0 is the command's own.
func checkOptions(opts []*discordgo.ApplicationCommandOption, path string, depth int) []fieldError {
	var errs []fieldError
	seen := map[string]bool{}
	optional := false
	subs, others := 0, 0
	for i, o := range opts {
		p := fmt.Sprintf("%s/%d", path, i)
		if !validName(o.Name) {
			errs = append(errs, formError(p+"/name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
		}
		if o.Description == "" {
			errs = append(errs, formError(p+"/description", "BASE_TYPE_REQUIRED", "This field is required"))
		}
		if seen[o.Name] {
			errs = append(errs, formError(p+"/name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique"))
		}
		seen[o.Name] = true
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			subs++
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup && depth > 0 ||
				o.Type == discordgo.ApplicationCommandOptionSubCommand && depth > 1 {
				errs = append(errs, formError(p+"/type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types"))
			}
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				for j, sub := range o.Options {
					if sub.Type != discordgo.ApplicationCommandOptionSubCommand {
						errs = append(errs, formError(fmt.Sprintf("%s/options/%d/type", p, j), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A sub-command group can only contain sub-commands"))
					}
				}
			}
			errs = append(errs, checkOptions(o.Options, p+"/options", depth+1)...)
			continue
		}
		others++
		if o.Required && optional {
			errs = append(errs, formError(p+"/required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options"))
		}
		if !o.Required {
			optional = true
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			errs = append(errs, formError(p+"/autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES", "Autocomplete cannot be set with choices"))
		}
		if o.Autocomplete && o.Type != discordgo.ApplicationCommandOptionString &&
			o.Type != discordgo.ApplicationCommandOptionInteger && o.Type != discordgo.ApplicationCommandOptionNumber {
			errs = append(errs, formError(p+"/autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID", "Autocomplete is only for string, integer and number options"))
		}
	}
	if subs > 0 && others > 0 {
		errs = append(errs, formError(path, "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types"))
	}
	return errs
}

// prefixErrors puts a path in front of field errors.
func prefixErrors(prefix string, errs []fieldError) []fieldError {
	for i := range errs {
		errs[i].Path = append(strings.Split(prefix, "/"), errs[i].Path...)
	}
	return errs
}

// usableIn reports whether members can run a command in a channel: guild
// commands in their guild, global commands in guilds and, when its contexts
// allow it (or none are set and DMs are not switched off), in the bot's DM.
func (c *command) usableIn(ch *channel) bool {
	if c.guildID != "" {
		return ch.guildID == c.guildID
	}
	ctx := discordgo.InteractionContextGuild
	if ch.typ == discordgo.ChannelTypeDM {
		ctx = discordgo.InteractionContextBotDM
	}
	if c.def.Contexts != nil {
		for _, x := range *c.def.Contexts {
			if x == ctx {
				return true
			}
		}
		return false
	}
	// dm_permission is deprecated in favour of contexts, but still honoured.
	if ctx == discordgo.InteractionContextBotDM && c.raw["dm_permission"] == false {
		return false
	}
	return true
}
