package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/discordtest"
)

// TestMatchNeedsPermissions: before a match is made in a channel, the bot
// reads its own permissions there from the interaction (app_permissions,
// computed by the local Discord from roles and overwrites) and names what it
// lacks, instead of starting a match whose boards it cannot post.
func TestMatchNeedsPermissions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		threads bool
		deny    int64  // denied to the bot in the channel
		want    string // in the refusal; "" when the challenge goes through
		// practice is refused too; practice matches have no thread, so
		// what only threads need does not stop them
		practiceToo bool
	}{
		{name: "everything granted", want: ""},
		{name: "no Send Messages", deny: discordgo.PermissionSendMessages, want: "**Send Messages**", practiceToo: true},
		{name: "no Attach Files", deny: discordgo.PermissionAttachFiles, want: "**Attach Files**", practiceToo: true},
		{name: "neither", deny: discordgo.PermissionSendMessages | discordgo.PermissionAttachFiles, want: "**Send Messages** (to post the boards) and **Attach Files**", practiceToo: true},
		{name: "threads on, no Create Public Threads", threads: true, deny: discordgo.PermissionCreatePublicThreads, want: "**Create Public Threads**"},
		{name: "threads off, no Create Public Threads", deny: discordgo.PermissionCreatePublicThreads, want: ""},
		{name: "threads on, no Send Messages in Threads", threads: true, deny: discordgo.PermissionSendMessagesInThreads, want: "**Send Messages in Threads**"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, func(c *Config) { c.Threads = tc.threads })
			h.channel.SetOverwrite(h.srv.Bot(), 0, tc.deny)
			for _, command := range []struct {
				name    string
				args    []discordtest.Arg
				refused bool
			}{
				{"stratego challenge", []discordtest.Arg{discordtest.Opt("opponent", h.bob)}, tc.want != ""},
				{"stratego practice", nil, tc.practiceToo},
			} {
				reply := h.alice.SlashCommand(t, h.channel, command.name, command.args...).Reply(t)
				if !command.refused {
					if reply.Ephemeral {
						t.Errorf("%s refused: %q", command.name, reply.Content)
					}
					continue
				}
				if !reply.Ephemeral || !strings.Contains(reply.Content, tc.want) || !strings.Contains(reply.Content, "Edit Channel → Permissions") {
					t.Errorf("%s answered %q (ephemeral %v); want a private refusal naming %s and where to grant it", command.name, reply.Content, reply.Ephemeral, tc.want)
				}
				// A channel's overwrites are Manage Roles' to edit (Manage
				// Permissions, in the channel): neither Manage Server nor
				// Manage Channels lets a member grant anything there.
				if !strings.Contains(reply.Content, "Someone with the Manage Roles permission can grant it") || strings.Contains(reply.Content, "Manage Server") {
					t.Errorf("%s answered %q; want it to send members to someone with Manage Roles", command.name, reply.Content)
				}
			}
			if tc.practiceToo {
				ctx := context.Background()
				matches, err := h.db.PlayerMatches(ctx, h.alice.ID, true, 0)
				if err != nil {
					t.Fatal(err)
				}
				challenges, err := h.db.PlayerChallenges(ctx, h.alice.ID)
				if err != nil {
					t.Fatal(err)
				}
				if len(matches)+len(challenges) != 0 {
					t.Errorf("%d matches and %d challenges stored after the refusals", len(matches), len(challenges))
				}
			}
		})
	}
}

// TestAcceptRechecksPermissions: permissions taken away after a challenge
// was made stop the accept with the reason, and the challenge stays open
// until they are given back.
func TestAcceptRechecksPermissions(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	challenge := h.alice.SlashCommand(t, h.channel, "stratego challenge", discordtest.Opt("opponent", h.bob)).Reply(t)
	h.channel.SetOverwrite(h.srv.Bot(), 0, discordgo.PermissionAttachFiles)
	refused := h.bob.ClickButton(t, challenge, button(t, challenge, "Accept")).Reply(t)
	if !refused.Ephemeral || !strings.Contains(refused.Content, "**Attach Files**") {
		t.Fatalf("accept without Attach Files answered %q", refused.Content)
	}
	h.channel.RemoveOverwrite(h.srv.Bot())
	accepted := h.bob.ClickButton(t, challenge, button(t, challenge, "Accept")).Reply(t)
	if !strings.Contains(accepted.Content, "Match #1") {
		t.Fatalf("accept once granted answered %q", accepted.Content)
	}
}

// TestCommandsUnderTheApplicationID: an application older than 2020 has an
// id of its own, which READY names; the commands belong to it, not to the
// bot user (Discord answers 403 to registering under the user's id).
func TestCommandsUnderTheApplicationID(t *testing.T) {
	t.Parallel()
	h := newHarnessOn(t, []discordtest.Option{discordtest.WithSeparateApplication()})
	if h.srv.AppID() == h.srv.BotID() {
		t.Fatal("the local Discord gave the application the bot user's id")
	}
	regs := h.srv.Requests(registerRoute)
	if len(regs) == 0 || !strings.Contains(regs[len(regs)-1].Path, "/applications/"+h.srv.AppID()+"/") {
		t.Fatalf("commands registered at %v; want under application %s", regs, h.srv.AppID())
	}
	h.startClassic() // commands, buttons, DMs and forms all work under it
}
