package bot

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

// hasLeft reports whether Discord says user is no longer a member of guild:
// only its Unknown Member answer counts. A rate limit is not waited out
// (the timers' pass and the outbox, which ask, must not stall): like any
// other error it counts as still a member.
func (b *Bot) hasLeft(guild, user string) bool {
	_, err := b.s.GuildMember(guild, user, discordgo.WithRetryOnRatelimit(false))
	return leftServer(err)
}

// leftServer reports whether err, Discord's answer to the question whether
// a user is a member of a server, says they are not: Unknown Member, and
// nothing else.
func leftServer(err error) bool {
	return discordCode(err) == discordgo.ErrCodeUnknownMember
}

// withdrawLeavers withdraws, before a round is paired, the players who are
// no longer members of the server (the change owes its announcement).
func (b *Bot) withdrawLeavers(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) {
	for _, id := range state.Active() {
		if !b.hasLeft(t.GuildID, id) {
			continue
		}
		if _, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			x.Log = append(x.Log, tournament.Withdraw(id, tournament.LeftServer))
			return nil
		}); err != nil {
			b.log.Warn("withdrawing a player who left failed", "tournament", t.ID, "error", err)
		}
	}
}

// withdrawLeaver withdraws player, in a round robin played all at once,
// if they are still in it and no longer a member of the server: their
// games still on are forfeited and called off, and the change owes its
// announcement.
func (b *Bot) withdrawLeaver(ctx context.Context, t *storage.Tournament, player string) {
	if !b.hasLeft(t.GuildID, player) {
		return
	}
	left, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		s, err := x.State()
		if err != nil {
			return err
		}
		if p, in := s.Player(player); !in || p.Withdrawn || x.Done || s.Status() != tournament.Running {
			return errRefused // not in it, or nothing left to withdraw from
		}
		x.Log = append(x.Log, tournament.Withdraw(player, tournament.LeftServer))
		if after, err := x.State(); err == nil && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the end is due
		}
		return nil
	})
	switch {
	case errors.Is(err, errRefused):
		return
	case err != nil:
		b.log.Warn("withdrawing a player who left failed", "tournament", t.ID, "error", err)
		return
	}
	p := b.publicPrinter(t.GuildID)
	b.callOffRound(ctx, left, 0, p.Sprintf("%[1]s: %[2]s left the server", left.Name, playerLabel(left, player)), player)
}
