package bot

import (
	"strings"

	"github.com/bwmarrin/discordgo"
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
	send := permissionNeed{discordgo.PermissionSendMessages, "Send Messages", "to post the boards"}
	if inThread {
		send = permissionNeed{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads", "to post the boards"}
	}
	needs := []permissionNeed{
		{discordgo.PermissionViewChannel, "View Channel", "to see the channel"},
		send,
		{discordgo.PermissionAttachFiles, "Attach Files", "to post the board pictures"},
	}
	if threads && !inThread {
		needs = append(needs,
			permissionNeed{discordgo.PermissionCreatePublicThreads, "Create Public Threads", "to open a thread for each match"},
			permissionNeed{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads", "to post in the match's thread"})
	}
	return needs
}

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

// isThread reports whether channelID is a thread, as far as discordgo's
// state knows (GUILD_CREATE and THREAD_CREATE carry the active threads).
func (b *Bot) isThread(channelID string) bool {
	if b.s == nil || b.s.State == nil {
		return false
	}
	c, err := b.s.State.Channel(channelID)
	return err == nil && c.IsThread()
}

// cannotPlayHere says what the bot lacks to show a match in the
// interaction's channel, and where an admin grants it; "" when nothing.
func (b *Bot) cannotPlayHere(i *discordgo.Interaction, threads bool) string {
	if i.GuildID == "" {
		return ""
	}
	inThread := b.isThread(i.ChannelID)
	missing := missingPermissions(i.AppPermissions, matchNeeds(inThread, threads))
	if len(missing) == 0 {
		return ""
	}
	names := make([]string, len(missing))
	for k, n := range missing {
		names[k] = "**" + n.name + "** (" + n.why + ")"
	}
	where := "this channel"
	if inThread {
		where = "this thread's channel"
	}
	return "I can't show a match here: I lack " + joinAnd(names) + " in " + where + ". " +
		"Someone with Manage Server or Manage Channels can grant it to my role in the channel's settings " +
		"(Edit Channel → Permissions), or start the match in another channel."
}

// joinAnd joins items as an English list: "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
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
	needs := matchNeeds(false, threads)
	out := make([]Permission, len(needs))
	for k, n := range needs {
		out[k] = Permission{Bit: n.bit, Name: n.name, Why: n.why}
	}
	return out
}

// InvitePermissions is the permissions integer of the bot's invite link:
// what a match needs, threads included, and nothing more.
func InvitePermissions() int64 {
	var p int64
	for _, n := range matchNeeds(false, true) {
		p |= n.bit
	}
	return p
}
