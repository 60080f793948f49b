package bot

import (
	"context"
	"errors"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
)

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
