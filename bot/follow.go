package bot

import (
	"context"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
)

// Following a match: `/stratego watch match:N follow:true` sends a member,
// by DM, the board the channel gets after every move, until the match ends
// or they stop (follow:false). Followers are kept in storage beside the
// match, and their DMs go through the outbox like every other message: the
// channel's notice, once finished, records one for each follower (outbox.go),
// so a follower sees exactly what the channel sees, in order, once. A
// follower whose DMs are closed simply stops following, and so does one who
// can no longer see the match's channel (unfollowUnseen), but for a channel
// deleted, whose match goes on by DM: its follower goes on getting its
// boards, and may stop following it as ever.

// maxFollowers bounds a match's followers: each costs a picture per move.
const maxFollowers = 25

const (
	txtFollowing        = "You follow Match #%[1]s: `/stratego watch match:%[1]s follow:false` stops it."
	txtFollowStarted    = "You now follow Match #%[1]s: after every move I send you by DM the board everyone sees (allow DMs from this server's members to get them)."
	txtFollowPending    = "You now follow Match #%[1]s: once it begins, I send you by DM the board everyone sees after every move."
	txtFollowAlready    = "You already follow Match #%[1]s."
	txtUnfollowed       = "You no longer follow Match #%[1]s."
	txtNotFollowing     = "You do not follow Match #%[1]s, so there is nothing to stop."
	txtFollowOwnMatch   = "You play Match #%[1]s: your own boards already come to you by DM."
	txtTooManyFollowers = "Match #%[2]s already has %[1]d followers, as many as a match may have; `/stratego watch` without `follow` still shows it to you."
	txtFollowPrivate    = "Match #%[1]s is played in a private thread, and I cannot tell who is in one: only members who may manage the threads of its channel can follow it. `/stratego watch match:%[1]s` in the thread still shows it to you."
)

// follow starts or stops following m for the member behind i, and returns
// what to tell them; done is true when nothing more is to be shown.
func (b *Bot) follow(ctx context.Context, i *discordgo.Interaction, m *storage.Match, on bool) (text string, done bool, err error) {
	p := printerOf(i)
	user := userOf(i).ID
	number := m.ID.String()
	if _, plays := m.SideOf(user); plays {
		return p.Sprintf(txtFollowOwnMatch, number), true, nil
	}
	followers, err := b.store.Followers(ctx, m.ID)
	if err != nil {
		return "", true, err
	}
	following := slices.Contains(followers, user)
	switch {
	case !on && !following:
		return p.Sprintf(txtNotFollowing, number), true, nil
	case !on:
		if err := b.store.Follow(ctx, m.ID, user, false); err != nil {
			return "", true, err
		}
		return p.Sprintf(txtUnfollowed, number), true, nil
	case following:
		return p.Sprintf(txtFollowAlready, number), false, nil
	case len(followers) >= maxFollowers:
		return p.Sprintf(txtTooManyFollowers, len(followers), number), true, nil
	}
	if seen, private := b.seenAway(ctx, i, m); !seen && private {
		return p.Sprintf(txtFollowPrivate, number), true, nil
	} else if !seen {
		// As to any member who does not see the match.
		return "", true, friendlyf(txtNoServerMatch, number)
	}
	if err := b.store.Follow(ctx, m.ID, user, true); err != nil {
		return "", true, err
	}
	// Their roles, which the command carries, stand for the first boards
	// (memberroles.go).
	if i.Member != nil {
		b.roles.put(i.GuildID, user, i.Member.Roles, false, b.now())
	}
	if m.Phase == storage.PhaseSetup {
		return p.Sprintf(txtFollowPending, number), true, nil
	}
	return p.Sprintf(txtFollowStarted, number), false, nil
}

// seenAway reports whether the member behind i, who sees m's channel, is
// seen to see it also when not asking from it, as unfollowUnseen checks
// before each board: not a member of a private thread who may not manage
// its channel's threads (channelSeen), who would stop following at the
// first board. When the bot cannot tell, as unfollowUnseen, it is so.
// private tells whether m's channel is a private thread, for one not seen
// so. Discord is asked within the answer's time about a thread the bot's
// state lost.
func (b *Bot) seenAway(ctx context.Context, i *discordgo.Interaction, m *storage.Match) (seen, private bool) {
	if i.Member == nil || i.Member.User == nil {
		return true, false
	}
	ctx, cancel := context.WithTimeout(ctx, memberAskTimeout)
	defer cancel()
	sees, known := b.channelSeen(ctx, m.GuildID, m.ChannelID, i.Member.User.ID, i.Member.Roles, "")
	if sees || !known {
		return true, false
	}
	kind, known := b.channelKindOf(ctx, m.ChannelID) // what channelSeen found, kept
	return false, known && kind.private
}

// unfollowUnseen stops user following m, and reports so, when they can no
// longer see its channel (a role or an overwrite changed, or they left the
// server): /stratego watch would not show them the match now, so its
// boards do not come by DM either. Quietly, as when their DMs close: the
// reason is the server's doing, and one who left it gets no DM from it.
// When Discord does not say, the board goes as before. The member's roles
// may be up to memberRolesFor old (memberroles.go); the channel's
// overwrites and the server's roles are the state's, current.
//
// A follower of a match whose channel was deleted (or its thread's
// channel: kindGone) is kept, while they are a member of its server: the
// match goes on by DM, and its boards by DM are then the follower's only
// view of it, as they are its players'; following only ever shows the
// public view, which nobody sees in the channel any more.
func (b *Bot) unfollowUnseen(ctx context.Context, m *storage.Match, user string) bool {
	if m.GuildID == "" {
		return false
	}
	if kind, known := b.channelKindOf(ctx, m.ChannelID); known && b.kindGone(m.GuildID, kind) {
		if !b.memberGone(ctx, m.GuildID, user) {
			return false
		}
	} else if sees, known := b.userSees(ctx, m.GuildID, m.ChannelID, user); sees || !known {
		return false
	}
	if err := b.store.Follow(ctx, m.ID, user, false); err != nil {
		b.log.Warn("forgetting a follower who no longer sees the match's channel failed", "match", m.ID, "error", err)
	}
	b.log.Info("a follower who no longer sees the match's channel stops following", "match", m.ID)
	return true
}

// memberGone reports whether user is known to be no longer a member of
// guild, as userSees tells it: from what Discord said of them less than
// memberRolesFor ago, else asked of Discord. When Discord does not say,
// they are taken for a member.
func (b *Bot) memberGone(ctx context.Context, guild, user string) bool {
	if _, left, kept := b.roles.get(guild, user, b.now()); kept {
		return left
	}
	_, err := b.askMember(ctx, guild, user, true)
	return leftServer(err)
}

// follows reports whether user follows m; not when that cannot be read.
func (b *Bot) follows(ctx context.Context, m *storage.Match, user string) bool {
	followers, err := b.store.Followers(ctx, m.ID)
	return err == nil && slices.Contains(followers, user)
}
