package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/ratelimit"
	"github.com/strategobot/strategobot/storage"
)

// onWatch shows any member the public board of a running match of the
// server and its last moves, privately: what everyone may see, nothing more.
// With follow, the member starts or stops following the match by DM
// (follow.go).
func (b *Bot) onWatch(ctx context.Context, i *discordgo.Interaction, opts options) {
	if i.GuildID == "" {
		b.say(i, "Watch a match from its server: run `/stratego watch` in one of its channels.")
		return
	}
	m, err := b.serverMatch(ctx, i.GuildID, opts.str(optMatch))
	// What is asked of Discord to tell whether the member sees the match's
	// channel (an archived thread's) is asked within the answer's time.
	ask, cancel := context.WithTimeout(ctx, memberAskTimeout)
	defer cancel()
	if err == nil && !b.memberSurelySees(ask, i, m.ChannelID) {
		// A match in a channel the member cannot see is, for them, none;
		// but its follower may stop following it, which they know of (its
		// boards still come when its channel was deleted: unfollowUnseen).
		if on, set := opts.boolean(optFollow); set && !on && b.follows(ctx, m, userOf(i).ID) {
			text, _, err := b.follow(ctx, i, m, false)
			if err != nil {
				text = b.explain(printerOf(i), err, "follow")
			}
			b.tell(i, text)
			return
		}
		err = friendlyf(txtNoServerMatch, m.ID.String())
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "watch"))
		return
	}
	note := ""
	if on, set := opts.boolean(optFollow); set {
		text, done, err := b.follow(ctx, i, m, on)
		switch {
		case err != nil:
			b.tell(i, b.explain(printerOf(i), err, "follow"))
			return
		case done:
			b.tell(i, text)
			return
		}
		note = text
	}
	if m.Phase == storage.PhaseSetup {
		b.say(i, "%[1]s has not begun: the players are still setting up.", b.matchTitle(printerOf(i), m))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	g, err := m.Game()
	if err != nil {
		b.finish(i, b.explain(printerOf(i), err, "watch"))
		return
	}
	v := g.View(game.PublicViewer)
	nar := narrator{viewer: game.PublicViewer, names: b.names(printerOf(i), m), numbering: b.settingsOf(ctx, userOf(i).ID).Numbering, p: printerOf(i)}
	lines := strings.Split(b.historyText(m, &v, nar), "\n")[1:] // without the title
	if len(lines) > 6 {
		lines = append([]string{"…"}, lines[len(lines)-6:]...)
	}
	text := joinLines(note, b.matchTitle(nar.p, m), statusLine(g, nar, deadlineToShow(m, g, b.now()), false), nar.p.Sprintf("Last moves:")+"\n"+strings.Join(lines, "\n"))
	if link := b.withBoardLink(nar.p, nil, m, game.PublicViewer, 0); link != nil {
		b.finishWith(i, text, link, b.boardFile(nar.p, m, &v, nar.numbering)...)
		return
	}
	b.finish(i, text, b.boardFile(nar.p, m, &v, nar.numbering)...)
}

// serverMatchChoices offers the server's running matches for the match
// option of /stratego watch, cancel and award: their numbers and players'
// names, which the channel shows anyway, of the channels and active threads
// the member can see (memberSees: a private thread only from itself, or
// to those who manage its channel's threads); of every one when they act
// on every match (everyMatch: a moderator's cancel or award). A match in a
// thread archived before the bot connected, which the bot cannot list, is
// not offered: its number, typed, names it still. A match is offered once:
// ChannelMatches finds one played in a thread the bot opened for it by its
// channel and by its thread. The threads are asked one by one, as the
// channels are: a match made in a thread (a challenge, a seek or a
// tournament there) has the thread for its channel, and only the thread
// finds it.
func (b *Bot) serverMatchChoices(ctx context.Context, i *discordgo.Interaction, typed string, everyMatch bool) []*discordgo.ApplicationCommandOptionChoice {
	var choices []*discordgo.ApplicationCommandOptionChoice
	offered := make(map[storage.MatchID]bool)
	for _, channel := range append(b.guildChannelIDs(i.GuildID), b.guildThreadIDs(i.GuildID)...) {
		if ctx.Err() != nil {
			break
		}
		if !everyMatch && !b.memberSurelySees(ctx, i, channel) {
			continue
		}
		ms, err := b.readableMatches(b.store.ChannelMatches(ctx, channel, true, 0))
		if err != nil {
			continue
		}
		for _, m := range ms {
			if m.GuildID != i.GuildID || m.Phase != storage.PhasePlaying || offered[m.ID] {
				continue
			}
			offered[m.ID] = true
			p := printerOf(i)
			name := truncate(p.Sprintf("#%[1]s %[2]s vs %[3]s", m.ID.String(), b.plainName(p, m, game.Red), b.plainName(p, m, game.Blue)), maxChoiceName)
			if typed != "" && !strings.Contains(strings.ToLower(name), strings.ToLower(typed)) {
				continue
			}
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: m.ID.String()})
			if len(choices) == maxChoices {
				return choices
			}
		}
	}
	return choices
}

// memberSees reports whether the member behind i may see channel, a
// channel or thread of i's server, as channelSeen tells with the member's
// roles as i gives them, asking from i's channel; known is false (and sees
// too) when the bot cannot tell. Discord is asked within ctx about a thread
// the bot's state lost.
func (b *Bot) memberSees(ctx context.Context, i *discordgo.Interaction, channel string) (sees, known bool) {
	if i.Member == nil || i.Member.User == nil {
		return false, true
	}
	return b.channelSeen(ctx, i.GuildID, channel, i.Member.User.ID, i.Member.Roles, i.ChannelID)
}

// memberSurelySees is memberSees where what the bot cannot tell is not seen.
func (b *Bot) memberSurelySees(ctx context.Context, i *discordgo.Interaction, channel string) bool {
	sees, _ := b.memberSees(ctx, i, channel)
	return sees
}

// rolesMay reports whether user with roles in guild has every permission
// of need in channel, a text channel of guild, as discordgo's state knows
// the server's roles and the channel's overwrites; known is false when the
// state cannot say (may is false then). A channel of another server, or a
// thread, gives none.
func (b *Bot) rolesMay(guild, channel, user string, roles []string, need int64) (may, known bool) {
	if b.s == nil || b.s.State == nil {
		return false, false
	}
	c, err := b.s.State.Channel(channel)
	if err != nil {
		return false, false
	}
	known = b.withGuild(guild, func(g *discordgo.Guild) {
		may = c.GuildID == g.ID && !c.IsThread() && channelPermissions(g, c, user, roles)&need == need
	})
	return may, known
}

// userSees is memberSees for a member who is not asking now (a follower, a
// waiting seeker): their roles are asked of Discord, as hasLeft asks, since
// the state keeps no members, unless Discord gave them less than
// memberRolesFor ago (memberroles.go). One who left the server sees
// nothing. known is false when it cannot be told: Discord did not answer in
// time, or the state does not know the channel.
func (b *Bot) userSees(ctx context.Context, guild, channel, user string) (sees, known bool) {
	roles, left, kept := b.roles.get(guild, user, b.now())
	if !kept {
		member, err := b.askMember(ctx, guild, user, true)
		switch {
		case leftServer(err):
			return false, true
		case err != nil || member == nil:
			return false, false
		}
		roles = member.Roles
	}
	if left {
		return false, true
	}
	return b.channelSeen(ctx, guild, channel, user, roles, "")
}

// askMember asks Discord for a member of guild, as hasLeft does: a rate
// limit is not waited out, and the question is cut at the stop. What
// Discord says, the member's roles or that they are none, is kept for
// userSees: added when keep (a follower's), else only replacing what is
// kept of a member already (hasLeft's and the seeks' questions, about
// members who mostly follow nothing, would fill the store).
func (b *Bot) askMember(ctx context.Context, guild, user string, keep bool) (*discordgo.Member, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(b.halt, cancel)()
	asked := b.now()
	member, err := b.s.GuildMember(guild, user, discordgo.WithRetryOnRatelimit(false), discordgo.WithContext(ratelimit.WithoutWaiting(ctx)))
	switch {
	case leftServer(err):
		b.roles.keep(guild, user, nil, true, asked, keep)
	case err == nil && member != nil:
		b.roles.keep(guild, user, member.Roles, false, asked, keep)
	}
	return member, err
}
