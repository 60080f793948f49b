package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/tournament"
	"github.com/strategobot/strategobot/web"
)

// startRound starts the match of every board that has none and no result
// yet — those of the latest round, or of every round of a round robin
// played all at once — links it to its board, calls off the strays a
// stopped process made for boards no longer to be played (dropStrays), and
// then clears Starting; it returns the tournament after, nil when it could
// not.
func (b *Bot) startRound(ctx context.Context, t *storage.Tournament) *storage.Tournament {
	state, err := t.State()
	if err != nil {
		return nil
	}
	// Each match in a thread of the tournament's channel, when the server
	// so plays them: not when that channel is a thread itself, in which
	// Discord opens none (playInThread). The matches are then played in
	// the tournament's thread, where the round's pairings are posted.
	threads := b.threadsFor(b.serverOf(ctx, t.GuildID))
	orphans := b.orphanMatches(ctx, t, state)
	for _, at := range unstartedBoards(t, state) {
		r, k := state.Rounds()[at.round-1], at.board-1
		g := r.Games[k]
		// Starting every game of a round robin takes a while: a player may
		// withdraw meanwhile, and their games still to play are scored.
		latest, err := b.store.Tournament(ctx, t.ID)
		if err != nil {
			b.log.Error("reading a tournament to start its next match failed", "tournament", t.ID, "error", err)
			return t // Starting stays: the next pass tries again
		}
		if t = latest; t.Done {
			break // cancelled meanwhile: no more of its games start
		}
		if boardScored(t, at) {
			continue // scored meanwhile: not to be played
		}
		if _, ok := t.GameOf(at.round, at.board); ok {
			continue // another process started it meanwhile
		}
		m := &storage.Match{
			GuildID: t.GuildID, ChannelID: t.ChannelID, Rules: t.Game, MoveTime: t.MoveTime, Clock: t.Clock,
			Phase: storage.PhaseSetup, Created: b.now(), Tournament: t.ID, RoundEnds: t.RoundDeadline,
		}
		m.Players[game.Red] = storage.Player{UserID: g.Red, Name: playerLabel(t, g.Red)}
		m.Players[game.Blue] = storage.Player{UserID: g.Blue, Name: playerLabel(t, g.Blue)}
		if orphan := takeOrphan(&orphans, m); orphan != nil {
			m = orphan // made before a crash, never linked: linked now
		} else {
			m, err = b.store.CreateMatch(ctx, m)
		}
		if err != nil {
			b.log.Error("starting a tournament match failed", "tournament", t.ID, "round", r.Number, "board", k+1, "error", err)
			return t // Starting stays: the next pass tries again
		}
		board := k + 1
		var taken storage.TournamentGame
		cancelled := false
		linked, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
			var ok bool
			if taken, ok = x.GameOf(r.Number, board); ok {
				return errPairedAlready
			}
			if cancelled = x.Done; cancelled || boardScored(x, at) {
				return errScoredMeanwhile
			}
			x.Games = append(x.Games, storage.TournamentGame{Round: r.Number, Board: board, Match: m.ID})
			return nil
		})
		if errors.Is(err, errPairedAlready) {
			// Another process started this board meanwhile: this match goes.
			if taken.Match != m.ID {
				b.dropDuplicate(ctx, m)
			}
			if t, err = b.store.Tournament(ctx, t.ID); err != nil {
				return nil
			}
			continue
		}
		if errors.Is(err, errScoredMeanwhile) {
			// A player withdrew, or the tournament was cancelled, as this
			// match was made: it is not played. Its invites, when the
			// tournament was cancelled, are not sent either, should the
			// outbox come to them first (startingGame).
			why := web.TournamentNote(web.OffWithdrewEarlier, mdEscape(t.Name))
			if cancelled {
				why = web.TournamentNote(web.OffCancelled, mdEscape(t.Name))
			}
			if err := b.callOff(ctx, m, why); err != nil {
				b.log.Warn("calling off a tournament match scored before it began failed", "match", m.ID, "error", err)
			}
			continue
		}
		if err != nil {
			b.log.Error("linking a tournament match failed", "tournament", t.ID, "match", m.ID, "error", err)
			return t
		}
		t = linked
		b.afterChange(ctx, m, nil) // the set-up invites are in the outbox, recorded with the match
		if threads {
			// A thread of the tournament's channel for each match, as a
			// challenge's match gets one from its challenge message.
			b.playInThread(ctx, m, t.ChannelID, func(start *discordgo.ThreadStart) (*discordgo.Channel, error) {
				start.Type = discordgo.ChannelTypeGuildPublicThread
				return b.s.ThreadStartComplex(t.ChannelID, start, b.untilStop())
			})
		}
	}
	b.dropStrays(ctx, t, orphans)
	if !t.Starting {
		return t
	}
	started, err := b.updateTournament(ctx, t.ID, func(x *storage.Tournament) error {
		x.Starting = false
		return nil
	})
	if err != nil {
		b.log.Warn("recording a round's matches started failed", "tournament", t.ID, "error", err)
		return t
	}
	return started
}

// errScoredMeanwhile: the board of a match being started was scored
// meanwhile (a player withdrew), or its tournament cancelled.
var errScoredMeanwhile = errors.New("scored meanwhile")

// boardScored reports whether board at of t has a result already.
func boardScored(t *storage.Tournament, at boardRef) bool {
	s, err := t.State()
	if err != nil {
		return false
	}
	rounds := s.Rounds()
	return at.round <= len(rounds) && rounds[at.round-1].Games[at.board-1].Result.Done()
}

// dropDuplicate calls off a match made for a board another process had
// just started.
func (b *Bot) dropDuplicate(ctx context.Context, m *storage.Match) {
	why := web.TournamentNote(web.OffDuplicate)
	if err := b.callOff(ctx, m, why); err != nil {
		b.log.Warn("calling off a duplicate tournament match failed", "match", m.ID, "error", err)
	}
}

// unstartedBoards lists the boards to start: without a match or a result,
// of the latest round, or of every round of a round robin played all at
// once (round by round, the earlier rounds are complete anyway).
func unstartedBoards(t *storage.Tournament, state *tournament.Tournament) []boardRef {
	var out []boardRef
	for _, r := range state.Rounds() {
		for k, g := range r.Games {
			if g.IsBye() || g.Result.Done() {
				continue
			}
			if _, ok := t.GameOf(r.Number, k+1); !ok {
				out = append(out, boardRef{r.Number, k + 1})
			}
		}
	}
	return out
}

// orphanMatches finds the matches a process made for boards and stopped
// before linking: in the tournament's channel, active, made since the
// rounds were paired (when the deadline was set, less the time away it
// was moved on by), for this tournament (or unmarked, as an older
// version made them) and linked to no board. They are read once for all
// the boards to start: a round robin played all at once starts every game
// at once.
func (b *Bot) orphanMatches(ctx context.Context, t *storage.Tournament, state *tournament.Tournament) []*storage.Match {
	if !t.Starting && len(unstartedBoards(t, state)) == 0 {
		return nil
	}
	paired := t.RoundDeadline.Add(-t.RoundTime)
	if t.Rules.AllAtOnce {
		paired = t.RoundDeadline.Add(-t.RoundTime * time.Duration(state.TotalRounds()))
	}
	if away := t.AwayUntil.Sub(t.AwayFrom); paired.Before(t.AwayUntil.Add(away)) {
		// Paired before the latest time away ended (paired-away), which
		// then moved the deadline on (GiveAway): it was paired that much
		// earlier. A process that stopped while starting a round is back
		// after one time away.
		paired = paired.Add(-away)
	}
	if t.RoundDeadline.IsZero() {
		paired = t.StartAt // cancelled meanwhile: no round was paired before its start
	}
	list, err := b.readableMatches(b.store.ChannelMatches(ctx, t.ChannelID, true, 0))
	if err != nil {
		return nil
	}
	var out []*storage.Match
	for _, m := range list {
		if m.Practice() || m.Created.Before(paired) || (m.Tournament != 0 && m.Tournament != t.ID) {
			continue // not made for this tournament's rounds
		}
		if _, err := b.store.MatchTournament(ctx, m.ID); errors.Is(err, storage.ErrNotFound) {
			out = append(out, m)
		}
	}
	return out
}

// takeOrphan takes from orphans the match made for want's board: between
// the same players with the same colours (a pair meets with the same
// colours once only), on the same terms, for its tournament; or else one
// alike made by a version that did not mark matches as a tournament's.
// nil when there is none.
func takeOrphan(orphans *[]*storage.Match, want *storage.Match) *storage.Match {
	for _, marked := range []storage.TournamentID{want.Tournament, 0} {
		for i, m := range *orphans {
			if m.Tournament == marked && m.Players[game.Red].UserID == want.Players[game.Red].UserID && m.Players[game.Blue].UserID == want.Players[game.Blue].UserID &&
				m.Rules == want.Rules && m.MoveTime == want.MoveTime && m.Clock == want.Clock {
				*orphans = slices.Delete(*orphans, i, i+1)
				return m
			}
		}
	}
	return nil
}

// dropStrays calls off, and so tells their players, the orphans left once
// every board that is to be played has its match: those made for a board
// scored meanwhile (a withdrawal), of a tournament cancelled meanwhile, or
// for a board another process started. Matches not marked as t's, or that
// fit no pairing of t, are not its own, and stay.
func (b *Bot) dropStrays(ctx context.Context, t *storage.Tournament, orphans []*storage.Match) {
	if len(orphans) == 0 {
		return
	}
	state, err := t.State()
	if err != nil {
		b.log.Warn("reading a tournament's state failed", "tournament", t.ID, "error", err)
		return
	}
	for _, m := range orphans {
		at, ok := strayBoard(t, state, m)
		if !ok {
			continue
		}
		link, linked := t.GameOf(at.round, at.board)
		var why string
		switch {
		case state.Status() == tournament.CancelledStatus:
			why = web.TournamentNote(web.OffCancelled, mdEscape(t.Name))
		case linked && link.Match != m.ID:
			why = web.TournamentNote(web.OffDuplicate)
		case boardScored(t, at):
			why = web.TournamentNote(web.OffScored, mdEscape(t.Name))
		default:
			continue // still to be started: the next pass takes it
		}
		b.log.Info("calling off a tournament match made before a restart", "tournament", t.ID, "match", m.ID, "round", at.round, "board", at.board)
		if err := b.callOff(ctx, m, why); err != nil {
			b.log.Warn("calling off a stray tournament match failed", "match", m.ID, "error", err)
		}
	}
}

// strayBoard finds the board of t that match m, made for t and never
// linked, was made for: the same players with the same colours, on t's
// terms. A match not marked as t's is never taken for a stray: it may be
// a challenge's between two of its players.
func strayBoard(t *storage.Tournament, state *tournament.Tournament, m *storage.Match) (boardRef, bool) {
	if m.Tournament != t.ID || m.Rules != t.Game || m.MoveTime != t.MoveTime || m.Clock != t.Clock {
		return boardRef{}, false
	}
	return pairedBoard(state, m)
}
