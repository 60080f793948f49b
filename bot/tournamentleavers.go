package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
	"github.com/strategobot/strategobot/web"
)

// A player who leaves the server is withdrawn from the tournaments they are
// still in: their games still on are forfeited and called off, and the
// channel is told. The bot gets no event when a member leaves (it has no
// GUILD_MEMBERS intent), so it asks Discord (hasLeft; the one rule is
// leftServer's: only Discord's Unknown Member answer means they left, and
// after any other error, a 5xx, a 429 or missing access, the player is
// asked about again at the next occasion):
//   - before a round is paired, of every player still in (withdrawLeavers);
//   - when one of the player's games ends, or its reminder waits for them
//     (withdrawLeaver, withdrawAwaited);
//   - while a round is under way, of every player still in, at most once
//     every memberCheckEvery per tournament (checkMembers, in the timers'
//     pass of the process that leads), which also records the results of
//     games that ended without it (recordMissedResults). The time of the
//     next check is kept with the tournament (MembersDue, part of its
//     timer) and set before Discord is asked, so neither a restart nor
//     several processes on one database ask more often.

// memberCheckEvery is how often, at most, the players of a tournament under
// way are all asked to be members of its server.
const memberCheckEvery = time.Hour

// hasLeft reports whether Discord says user is no longer a member of guild:
// only its Unknown Member answer counts. A rate limit is not waited out
// beyond ratelimit.ShortWait (the timers' pass and the outbox, which ask,
// must not stall): like any other error, or ctx ending first, it counts as
// still a member.
func (b *Bot) hasLeft(ctx context.Context, guild, user string) bool {
	// Cut at the stop too: ctx may be a handler's, which outlives it.
	_, err := b.askMember(ctx, guild, user, false)
	return leftServer(err)
}

// memberAskTimeout bounds the questions hasLeft asks while a member waits
// for the answer to an interaction, which Discord takes only within three
// seconds: not knowing in time counts as still a member.
const memberAskTimeout = 1500 * time.Millisecond

// leftServer reports whether err, Discord's answer to the question whether
// a user is a member of a server, says they are not: Unknown Member, and
// nothing else.
func leftServer(err error) bool {
	return discordCode(err) == discordgo.ErrCodeUnknownMember
}

// withdrawLeavers withdraws, before a round is paired, the players who are
// no longer members of the server (the change owes its announcement). A
// player who withdrew meanwhile (state was read before), or a tournament
// cancelled meanwhile, is left as it is.
func (b *Bot) withdrawLeavers(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) {
	for _, id := range state.Active() {
		if !b.hasLeft(ctx, t.GuildID, id) {
			continue
		}
		_, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			s, err := x.State()
			if err != nil {
				return err
			}
			if p, in := s.Player(id); x.Done || !in || p.Withdrawn {
				return errRefused
			}
			x.Log = append(x.Log, tournament.Withdraw(id, tournament.LeftServer))
			return nil
		})
		if err != nil && !errors.Is(err, errRefused) {
			b.log.Warn("withdrawing a player who left failed", "tournament", t.ID, "error", err)
		}
	}
}

// claimCheck records the next of tournament id's timed checks (MembersDue,
// memberCheckEvery from now: its members, a cancel's call-offs) when the
// check is due and wanted of it as it stands, so that of several
// processes, or passes, one makes it; it returns the tournament claimed,
// nil when the check is not due, not wanted (over, or made meanwhile), or
// could not be recorded (logged as failed).
func (b *Bot) claimCheck(ctx context.Context, id storage.TournamentID, now time.Time, wanted func(*storage.Tournament) bool, failed string) *storage.Tournament {
	claimed, err := b.updateTournament(ctx, id, func(x *storage.Tournament) error {
		if !wanted(x) || now.Before(x.MembersDue) {
			return errRefused
		}
		x.MembersDue = now.Add(memberCheckEvery)
		return nil
	})
	switch {
	case errors.Is(err, errRefused):
		return nil
	case err != nil:
		b.log.Warn(failed, "tournament", id, "error", err)
		return nil
	}
	return claimed
}

// checkMembers withdraws, while a round of t is under way, the players
// still in who are no longer members of the server, when the check is due
// (MembersDue, at most every memberCheckEvery). The next check is recorded
// first: of several processes, or passes, one asks.
func (b *Bot) checkMembers(ctx context.Context, t *storage.Tournament) {
	now := b.now()
	if now.Before(t.MembersDue) {
		return
	}
	claimed := b.claimCheck(ctx, t.ID, now, func(x *storage.Tournament) bool { return !x.Done },
		"recording a tournament's check of its members failed")
	if claimed == nil {
		return
	}
	state, err := claimed.State()
	if err != nil {
		b.log.Warn("reading a tournament's state failed", "tournament", claimed.ID, "error", err)
		return
	}
	for _, id := range state.Active() {
		b.withdrawLeaver(ctx, claimed, id)
	}
	b.recordMissedResults(ctx, claimed, state)
}

// recordMissedResults records, in the hourly check of a tournament under
// way, the result of each game whose match ended without it being recorded
// (the database was away, or the process stopped, as it ended): the round
// goes on without waiting for its deadline. A match still on that does not
// know its round's deadline (made by an older version) is told it
// (keepRoundDeadline). Only the matches of games still without a result
// are read.
func (b *Bot) recordMissedResults(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) {
	pending := map[boardRef]bool{}
	for _, at := range pendingBoards(state.Rounds(), 0) {
		pending[at] = true
	}
	for _, g := range t.Games {
		if !pending[boardRef{g.Round, g.Board}] {
			continue
		}
		m, err := b.store.Match(ctx, g.Match)
		if err != nil {
			b.log.Warn("reading a tournament match failed", "tournament", t.ID, "match", g.Match, "error", err)
			continue
		}
		switch {
		case !m.Phase.Active():
			b.tournamentGameOver(ctx, m) // records it once, as when it ended
		case m.RoundEnds.IsZero():
			b.keepRoundDeadline(ctx, m, t.RoundDeadline)
		}
	}
}

// keepRoundDeadline gives a match of the round under way, made before
// matches kept their round's deadline, the round's deadline, so that
// storage refuses what would end it after the deadline, as it does in the
// matches made since (storage.Match.RoundEnds).
func (b *Bot) keepRoundDeadline(ctx context.Context, m *storage.Match, deadline time.Time) {
	if deadline.IsZero() || !b.now().Before(deadline) {
		return // the deadline scores it: nothing to keep
	}
	_, err := b.store.UpdateMatch(ctx, m.ID, 0, func(x *storage.Match) error {
		if !x.Phase.Active() || !x.RoundEnds.IsZero() {
			return errNothingToRecord
		}
		x.RoundEnds = deadline
		return nil
	})
	if err != nil && !errors.Is(err, errNothingToRecord) {
		b.log.Warn("keeping a tournament match's round deadline failed", "match", m.ID, "error", err)
	}
}

// withdrawAwaited withdraws, when the reminder of tournament match m is
// due, the players it waits for who left the server: those who owe an
// action (Match.Owes: a set-up, or the move). A match no longer to be played (its
// board scored, its tournament cancelled) whose call-off was lost — the
// process stopped, or the database was away, after the change that scored
// it — is called off now instead.
func (b *Bot) withdrawAwaited(ctx context.Context, m *storage.Match) {
	if !m.Phase.Active() {
		return
	}
	var awaited []game.Side
	for _, side := range []game.Side{game.Red, game.Blue} {
		if m.Owes(side) {
			awaited = append(awaited, side)
		}
	}
	if len(awaited) == 0 {
		return
	}
	t, off := b.callOffLost(ctx, m)
	if t == nil || off {
		return
	}
	for _, side := range awaited {
		b.withdrawLeaver(ctx, t, m.Players[side].UserID)
	}
}

// callOffLost calls off tournament match m, still on, when it is no
// longer to be played (notToPlay) and its call-off was lost: the process
// stopped, or the database was away, right after the change that scored
// its board or cancelled its tournament. It returns m's tournament (nil
// when m is none's, or it could not be read) and whether it called m off.
func (b *Bot) callOffLost(ctx context.Context, m *storage.Match) (*storage.Tournament, bool) {
	link, ok := b.tournamentGameOf(ctx, m)
	if !ok {
		return nil, false
	}
	t, err := b.store.Tournament(ctx, link.Tournament)
	if err != nil {
		b.log.Warn("reading a tournament failed", "tournament", link.Tournament, "error", err)
		return nil, false
	}
	why, off := b.notToPlay(t, link)
	if off {
		if err := b.callOff(ctx, m, why); err != nil {
			b.log.Warn("calling off a tournament match no longer to be played failed", "match", m.ID, "error", err)
		}
	}
	return t, off
}

// withdrawLeaver withdraws player from t, under way, if they are still in
// it and no longer a member of the server: their games still on are
// forfeited and called off, and the change owes its announcement. Discord
// is not asked about a player who is not in it or has nothing left to
// withdraw from.
func (b *Bot) withdrawLeaver(ctx context.Context, t *storage.Tournament, player string) {
	if !withdrawable(t, player) || !b.hasLeft(ctx, t.GuildID, player) {
		return
	}
	b.beforeWithdrawal(ctx, t, player)
	left, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		if !withdrawable(x, player) {
			return errRefused // not in it, or nothing left to withdraw from
		}
		x.Log = append(x.Log, tournament.Withdraw(player, tournament.LeftServer))
		if after, err := x.State(); err == nil && after.AllPairedComplete() {
			x.RoundDeadline = b.now() // the next round, or the end, is due
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
	b.log.Info("a player who left the server is withdrawn", "tournament", t.ID, "player", player)
	b.callOffRound(ctx, left, 0, web.TournamentNote(web.OffLeft, mdEscape(left.Name), mdEscape(playerLabel(left, player))), player)
	b.nudgeTimers()
}

// withdrawable reports whether player is still in t, which is under way.
func withdrawable(t *storage.Tournament, player string) bool {
	s, err := t.State()
	if err != nil || t.Done || s.Status() != tournament.Running {
		return false
	}
	p, in := s.Player(player)
	return in && !p.Withdrawn
}

// notToPlay says why the match of board link of t is no longer to be
// played: t was cancelled, or the board was scored (a withdrawal, a
// deadline); false when it is to be played.
func (b *Bot) notToPlay(t *storage.Tournament, link storage.TournamentGame) (string, bool) {
	s, err := t.State()
	if err != nil {
		return "", false
	}
	switch {
	case s.Status() == tournament.CancelledStatus:
		return web.TournamentNote(web.OffCancelled, mdEscape(t.Name)), true
	case boardScored(t, boardRef{link.Round, link.Board}):
		return web.TournamentNote(web.OffScored, mdEscape(t.Name)), true
	}
	return "", false
}
