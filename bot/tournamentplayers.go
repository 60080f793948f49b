package bot

import (
	"context"
	"errors"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
	"github.com/strategobot/strategobot/web"
)

func (b *Bot) onTournamentJoin(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament) {
	me := userOf(i).ID
	standing, err := b.store.Standing(ctx, t.GuildID, t.Game.Variant, me)
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	name := displayName(i)
	var refusal string
	joined, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		refusal = ""
		s, err := x.State()
		if err != nil {
			return err
		}
		_, in := s.Player(me)
		switch {
		case s.Status() == tournament.CancelledStatus:
			refusal = txtTournamentOver // perhaps before it ever began
		case x.Done || s.Status() != tournament.Registering:
			refusal = txtJoinClosedBegun
		case !b.now().Before(x.JoinBy):
			refusal = txtJoinClosed
		case in && x.Rules.AllAtOnce:
			refusal = txtJoinedAlreadyAll
		case in:
			refusal = txtJoinedAlready
		case removedBefore(x, me):
			refusal = txtRemovedNoRejoin
		case len(s.Players()) >= x.MaxPlayers:
			refusal = txtTournamentFull
		}
		if refusal != "" {
			return errRefused
		}
		x.Log = append(x.Log, tournament.Join(me, int(standing.Rating)))
		x.Names[me] = name
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, refusal, mdEscape(t.Name), unix(t.JoinBy), unix(t.StartAt), t.MaxPlayers)
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	s, _ := joined.State()
	if t.Rules.AllAtOnce && t.Rules.Double {
		b.say(i, "You joined **%[1]s** (players so far: %[2]d). Every game starts <t:%[3]s:f>; your set-up invitations come by DM, two for each opponent: one with each colour.", mdEscape(t.Name), len(s.Players()), unix(t.StartAt))
		return
	}
	if t.Rules.AllAtOnce {
		b.say(i, "You joined **%[1]s** (players so far: %[2]d). Every game starts <t:%[3]s:f>; your set-up invitations come by DM, one for each opponent.", mdEscape(t.Name), len(s.Players()), unix(t.StartAt))
		return
	}
	b.say(i, "You joined **%[1]s** (players so far: %[2]d). Round 1 starts <t:%[3]s:f>; your set-up invitation comes by DM.", mdEscape(t.Name), len(s.Players()), unix(t.StartAt))
}

// Refusals of join, leave and withdraw: the tournament's name, its join
// deadline, its start and its player limit fill them.
const (
	txtJoinClosedBegun  = "**%[1]s** has already begun: joining is closed."
	txtJoinClosed       = "Joining **%[1]s** closed <t:%[2]s:R>."
	txtJoinedAlready    = "You are already in **%[1]s**. Round 1 starts <t:%[3]s:R>."
	txtJoinedAlreadyAll = "You are already in **%[1]s**. Every game starts <t:%[3]s:R>."
	txtTournamentFull   = "**%[1]s** is full: it takes at most %[4]d players."
	txtTournamentOver   = "**%[1]s** is over."
	txtNotInTournament  = "You are not in **%[1]s**."
	txtUseWithdraw      = "**%[1]s** has begun: `/stratego tournament withdraw` takes you out, and your games still to play are forfeited."
	txtRemovedNoRejoin  = "A moderator took you out of **%[1]s**, so you cannot join it again."
)

// removedBefore reports whether a moderator took member out of t (before
// its start, when they are no longer listed): their removal stands, as the
// channel was told, rather than being undone by their next join. No
// command undoes it, and neither text says otherwise (txtRemovedBefore).
func removedBefore(t *storage.Tournament, member string) bool {
	return slices.ContainsFunc(t.Log, func(e tournament.Event) bool {
		return e.Kind == tournament.Withdrew && e.Player == member && e.Reason == tournament.Removed
	})
}

// errRefused is a change refused for a reason the caller words.
var errRefused = errors.New("refused")

// onTournamentLeave takes a member out: before the start they leave; after,
// when they said withdraw (leave is refused, lest a slip forfeit games),
// they withdraw, their game of the round (if on) is forfeited and called
// off, and the channel is told.
func (b *Bot) onTournamentLeave(ctx context.Context, i *discordgo.Interaction, t *storage.Tournament, withdraw bool) {
	me := userOf(i).ID
	if withdraw {
		b.beforeWithdrawal(ctx, t, me) // a game decided on the board, or by the deadline, is not forfeited
	}
	started := false
	var refusal string
	left, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		refusal = ""
		s, err := x.State()
		if err != nil {
			return err
		}
		pl, in := s.Player(me)
		switch {
		case x.Done || s.Status() == tournament.Finished || s.Status() == tournament.CancelledStatus:
			refusal = txtTournamentOver
		case !in || pl.Withdrawn:
			refusal = txtNotInTournament
		case !withdraw && s.Status() == tournament.Running:
			refusal = txtUseWithdraw
		}
		if refusal != "" {
			return errRefused
		}
		started = s.Status() == tournament.Running
		x.Log = append(x.Log, tournament.Withdraw(me, tournament.WithdrewByChoice))
		if after, err := x.State(); err == nil && started && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the next round, or the end, is due
		}
		return nil
	})
	if errors.Is(err, errRefused) {
		b.say(i, refusal, mdEscape(t.Name))
		return
	}
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "tournament"))
		return
	}
	if !started {
		b.say(i, "You left **%[1]s**.", mdEscape(t.Name))
		return
	}
	b.callOffRound(ctx, left, 0, web.TournamentNote(web.OffWithdrew, mdEscape(left.Name), mdEscape(playerLabel(left, me))), me) // every game of theirs still on
	b.say(i, "You withdrew from **%[1]s**. Your games still to play are forfeited.", mdEscape(t.Name))
	b.nudgeTimers()
}
