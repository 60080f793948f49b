package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/lang"
)

// What a match needs of the bot in its channel. Interactions carry the bot's
// permissions there (app_permissions), computed by Discord from roles and the
// channel's overwrites, so the bot can say before a match starts what it
// lacks, instead of starting one whose pictures it cannot post.

// permissionNeed is one permission a match needs, with the name the server
// settings show for it.
type permissionNeed struct {
	bit  int64
	name string
	why  string
}

// matchNeeds lists what the bot needs where a match is shown. In a thread,
// "Send Messages in Threads" replaces "Send Messages".
func matchNeeds(inThread, threads bool) []permissionNeed {
	send := permissionNeed{discordgo.PermissionSendMessages, txtPermSend, txtWhyBoards}
	if inThread {
		send = permissionNeed{discordgo.PermissionSendMessagesInThreads, txtPermSendThreads, txtWhyBoards}
	}
	needs := []permissionNeed{
		{discordgo.PermissionViewChannel, txtPermView, txtWhyChannel},
		send,
		{discordgo.PermissionAttachFiles, txtPermAttach, txtWhyPictures},
	}
	if threads && !inThread {
		needs = append(needs,
			permissionNeed{discordgo.PermissionCreatePublicThreads, txtPermThreads, txtWhyThread},
			permissionNeed{discordgo.PermissionSendMessagesInThreads, txtPermSendThreads, txtWhyInThread})
	}
	return needs
}

// The permissions, as Discord's server settings name them in each language,
// and what a match needs them for.
const (
	txtPermView        = "View Channel"
	txtPermSend        = "Send Messages"
	txtPermSendThreads = "Send Messages in Threads"
	txtPermAttach      = "Attach Files"
	txtPermThreads     = "Create Public Threads"
	txtWhyChannel      = "to see the channel"
	txtWhyBoards       = "to post the boards"
	txtWhyPictures     = "to post the board pictures"
	txtWhyThread       = "to open a thread for each match"
	txtWhyInThread     = "to post in the match's thread"
)

// missingPermissions returns the needs that perms lacks.
func missingPermissions(perms int64, needs []permissionNeed) []permissionNeed {
	if perms&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	var missing []permissionNeed
	for _, n := range needs {
		if perms&n.bit == 0 {
			missing = append(missing, n)
		}
	}
	return missing
}

// threadOf reports whether channelID is a thread, and its channel: as
// discordgo's state knows (GUILD_CREATE and THREAD_CREATE carry the active
// threads), or else as Discord says within ctx (channelKindOf): a thread
// that archived itself before the bot last connected is one the state
// lacks, and taken for a text channel it would be asked for Send Messages,
// which a thread does not need, and judged by the server's list of
// channels as though it were one of its own. Not known, it counts as no
// thread.
func (b *Bot) threadOf(ctx context.Context, channelID string) (parent string, thread bool) {
	if parent, thread := b.threadParent(channelID); thread {
		return parent, true
	}
	kind, known := b.channelKindOf(ctx, channelID)
	if !known || !kind.thread {
		return "", false
	}
	return kind.parent, true
}

// whyNotPlayHere says what the bot lacks to show a match in the
// interaction's channel, and where an admin grants it; "" when nothing.
func (b *Bot) whyNotPlayHere(ctx context.Context, i *discordgo.Interaction, threads bool) string {
	if i.GuildID == "" {
		return ""
	}
	_, inThread := b.threadOf(ctx, i.ChannelID)
	missing := missingPermissions(i.AppPermissions, matchNeeds(inThread, threads))
	if len(missing) == 0 {
		return ""
	}
	p := printerOf(i)
	names := make([]string, len(missing))
	for k, n := range missing {
		names[k] = p.Sprintf("**%[1]s** (%[2]s)", p.Sprintf(n.name), p.Sprintf(n.why))
	}
	key := txtLackHere
	if inThread {
		key = txtLackThreadChannel
	}
	return p.Sprintf(key, joinAnd(p, names))
}

// What the bot says when it lacks a permission.
const (
	txtLackHere = "I can't show a match here: I lack %[1]s in this channel. " +
		"Someone with the Manage Roles permission can grant it to my role in the channel's settings " +
		"(Edit Channel → Permissions), or start the match in another channel."
	txtLackThreadChannel = "I can't show a match here: I lack %[1]s in this thread's channel. " +
		"Someone with the Manage Roles permission can grant it to my role in the channel's settings " +
		"(Edit Channel → Permissions), or start the match in another channel."
	txtAnd           = " and "
	txtListSeparator = ", "
)

// joinAnd joins items as a list in p's language: "a", "a and b", "a, b and c".
func joinAnd(p lang.Printer, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], p.Sprintf(txtListSeparator)) + p.Sprintf(txtAnd) + items[len(items)-1]
}

// Permission is one permission a match needs of the bot, for `strategobot
// check` and the invite link.
type Permission struct {
	Bit  int64
	Name string // as the server settings name it
	Why  string
}

// MatchPermissions lists what the bot needs in a text channel to show
// matches there (with threads: in their threads too).
func MatchPermissions(threads bool) []Permission {
	return exported(matchNeeds(false, threads))
}

// PostPermissions lists what posting a board needs of the bot in a channel,
// or in a thread (inThread).
func PostPermissions(inThread bool) []Permission {
	return exported(matchNeeds(inThread, false))
}

func exported(needs []permissionNeed) []Permission {
	out := make([]Permission, len(needs))
	for k, n := range needs {
		out[k] = Permission{Bit: n.bit, Name: n.name, Why: n.why}
	}
	return out
}

// invitePermissions is the permissions integer of the bot's invite link:
// what a match needs, threads included, and nothing more.
func invitePermissions() int64 {
	var p int64
	for _, n := range matchNeeds(false, true) {
		p |= n.bit
	}
	return p
}
