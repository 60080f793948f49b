package bot

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
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

// TestChannelBackMessage: a channel that comes back while the players set
// up is told only that it is back (the game's first board follows); once
// the game is under way, it is posted the public board as it stood.
func TestChannelBackMessage(t *testing.T) {
	pics, err := render.New()
	if err != nil {
		t.Fatal(err)
	}
	b := New(Config{}, nil, nil, pics)
	p := lang.For("en")
	setup := storagetest.NewMatch(game.VariantClassic)
	setup.ID, setup.Phase = 1, storage.PhaseSetup
	msg, err := b.channelBackMessage(p, newSnapshot(setup, nil), storage.Notice{Match: 1, Event: storage.EventChannelBack, At: storagetest.T0})
	if err != nil || len(msg.Files) != 0 || !strings.HasSuffix(msg.Content, "\n"+txtChannelBack) {
		t.Errorf("back in the set-ups: %v, %d files, %q", err, len(msg.Files), msg.Content)
	}
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 3)
	at := m.Started.Add(time.Minute)
	msg, err = b.channelBackMessage(p, newSnapshot(m, nil), storage.Notice{Match: m.ID, Event: storage.EventChannelBack, Log: len(m.Log), At: at})
	if err != nil || len(msg.Files) != 1 || !strings.Contains(msg.Content, txtChannelBack) || len(msg.Components) != 0 {
		t.Errorf("back in the game: %v, %d files, %d components, %q", err, len(msg.Files), len(msg.Components), msg.Content)
	}
	if alt := msg.Files[0].Reader.(describedReader).alt; !strings.HasPrefix(alt, "Stratego board") {
		t.Errorf("the public board's alt text: %q", alt)
	}
}
