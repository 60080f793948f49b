package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestChannelPermissions: what the bot may do in a channel, worked out from
// discordgo's state as Discord documents it.
func TestChannelPermissions(t *testing.T) {
	const (
		view, send, attach = discordgo.PermissionViewChannel, discordgo.PermissionSendMessages, discordgo.PermissionAttachFiles
		guild, bot, mods   = "g1", "b1", "r-mods"
		bots               = "r-bots"
	)
	role := func(id string, perms int64) *discordgo.Role { return &discordgo.Role{ID: id, Permissions: perms} }
	ow := func(id string, typ discordgo.PermissionOverwriteType, allow, deny int64) *discordgo.PermissionOverwrite {
		return &discordgo.PermissionOverwrite{ID: id, Type: typ, Allow: allow, Deny: deny}
	}
	roleOW, memberOW := discordgo.PermissionOverwriteTypeRole, discordgo.PermissionOverwriteTypeMember
	tests := []struct {
		name       string
		owner      string
		roles      []*discordgo.Role
		mine       []string
		overwrites []*discordgo.PermissionOverwrite
		want       int64
	}{
		{"@everyone's", "", []*discordgo.Role{role(guild, view|send)}, nil, nil, view | send},
		{"and the bot's roles'", "", []*discordgo.Role{role(guild, view), role(bots, send)}, []string{bots}, nil, view | send},
		{"not a role it lacks", "", []*discordgo.Role{role(guild, view), role(mods, send)}, []string{bots}, nil, view},
		{"the owner may all", bot, []*discordgo.Role{role(guild, 0)}, nil, nil, discordgo.PermissionAll},
		{"an administrator may all, overwrites aside", "", []*discordgo.Role{role(guild, 0), role(bots, discordgo.PermissionAdministrator)}, []string{bots},
			[]*discordgo.PermissionOverwrite{ow(guild, roleOW, 0, view|send)}, discordgo.PermissionAll},
		{"@everyone denied", "", []*discordgo.Role{role(guild, view|send|attach)}, nil,
			[]*discordgo.PermissionOverwrite{ow(guild, roleOW, 0, send)}, view | attach},
		{"a role's allow wins over @everyone's deny", "", []*discordgo.Role{role(guild, view|send), role(bots, 0)}, []string{bots},
			[]*discordgo.PermissionOverwrite{ow(guild, roleOW, 0, send), ow(bots, roleOW, send, 0)}, view | send},
		{"a role's allow wins over another role's deny", "", []*discordgo.Role{role(guild, view|send), role(bots, 0), role(mods, 0)}, []string{bots, mods},
			[]*discordgo.PermissionOverwrite{ow(mods, roleOW, 0, send), ow(bots, roleOW, send, 0)}, view | send},
		{"the member's deny wins over the roles'", "", []*discordgo.Role{role(guild, view|send), role(bots, 0)}, []string{bots},
			[]*discordgo.PermissionOverwrite{ow(bots, roleOW, send, 0), ow(bot, memberOW, 0, send)}, view},
		{"another member's overwrite is not the bot's", "", []*discordgo.Role{role(guild, view|send)}, nil,
			[]*discordgo.PermissionOverwrite{ow("someone", memberOW, 0, send)}, view | send},
	}
	for _, tc := range tests {
		g := &discordgo.Guild{ID: guild, OwnerID: tc.owner, Roles: tc.roles}
		c := &discordgo.Channel{ID: "c1", GuildID: guild, PermissionOverwrites: tc.overwrites}
		if got := channelPermissions(g, c, bot, tc.mine); got != tc.want {
			t.Errorf("%s: %b, want %b", tc.name, got, tc.want)
		}
	}
}
