package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
)

// matchFill packs match pages fuller than bbolt's default half: ids only grow,
// so new records go to the end and pages rarely split in the middle.
const matchFill = 0.9

// CreateMatch stores a new match. Matches are normally created in set-up; a
// match in play or finished (an import) must replay to its stored result.
func (db *DB) CreateMatch(ctx context.Context, m *Match) (*Match, error) {
	if m.Created.IsZero() {
		return nil, fmt.Errorf("a match needs its creation time: %w", ErrInvalid)
	}
	var out *Match
	err := db.update(ctx, func(tx *bolt.Tx) error {
		n := m.Clone()
		b := tx.Bucket(bucketMatches)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		n.ID, n.Version = MatchID(seq), 0
		if n.Secret.IsZero() {
			if n.Secret, err = NewSecret(); err != nil {
				return err
			}
		}
		if n.Phase == PhaseSetup && n.Deadline.IsZero() {
			n.setDeadline(n.Created.Add(n.MoveTime), db.opts.Reminders)
		}
		if err := db.saveMatch(tx, nil, n, nil, n.Created); err != nil {
			return err
		}
		out = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Match returns a match by id.
func (db *DB) Match(ctx context.Context, id MatchID) (*Match, error) {
	var m *Match
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		m, err = loadMatch(tx, id)
		return err
	})
	return m, err
}

func loadMatch(tx *bolt.Tx, id MatchID) (*Match, error) {
	data := tx.Bucket(bucketMatches).Get(idKey(uint64(id)))
	if data == nil {
		return nil, fmt.Errorf("match %d: %w", id, ErrNotFound)
	}
	return decodeMatch(data)
}

// change is one update of a match inside a transaction. It may return the
// game it rebuilt, so that saving need not replay again.
type change func(tx *bolt.Tx, m *Match) (*game.Game, error)

// modify loads a match, checks its version, applies ch and saves it, all in
// one transaction; at is when the change happens (zero for a change that owes
// nobody a notice).
func (db *DB) modify(ctx context.Context, id MatchID, expectVersion uint64, at time.Time, ch change) (*Match, error) {
	var out *Match
	err := db.update(ctx, func(tx *bolt.Tx) error {
		out = nil
		old, err := loadMatch(tx, id)
		if err != nil {
			return err
		}
		if expectVersion != 0 && old.Version != expectVersion {
			return fmt.Errorf("match %d is at version %d, not %d: %w", id, old.Version, expectVersion, ErrStale)
		}
		m := old.Clone()
		g, err := ch(tx, m)
		if err != nil {
			return err
		}
		if err := db.saveMatch(tx, old, m, g, at); err != nil {
			return err
		}
		out = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateMatch changes a match with fn. fn gets a copy; ID and Version stay the store's.
func (db *DB) UpdateMatch(ctx context.Context, id MatchID, expectVersion uint64, fn func(m *Match) error) (*Match, error) {
	return db.modify(ctx, id, expectVersion, time.Time{}, func(_ *bolt.Tx, m *Match) (*game.Game, error) {
		version := m.Version
		if err := fn(m); err != nil {
			return nil, err
		}
		m.ID, m.Version = id, version
		return nil, nil
	})
}

// ApplyMove plays one move: see Store.
func (db *DB) ApplyMove(ctx context.Context, id MatchID, expectVersion uint64, side game.Side, move game.Move, at time.Time) (*Match, *game.Game, error) {
	var played *game.Game
	m, err := db.modify(ctx, id, expectVersion, at, func(_ *bolt.Tx, m *Match) (*game.Game, error) {
		played = nil // this may run again (see update): keep only the last run's game
		g, err := playable(m)
		if err != nil {
			return nil, err
		}
		a := Action{Kind: ActMove, Side: side, Move: move, At: second(at)}
		if _, err = a.apply(g); err != nil {
			return nil, err
		}
		played = g
		m.Log = append(m.Log, a)
		m.afterAction(g, at, db.opts.Reminders)
		if m.Phase == PhasePlaying {
			m.setDeadline(at.Add(m.MoveTime), db.opts.Reminders)
		}
		return g, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return m, played, nil
}

// playable rebuilds the game of a match that is being played, or says why moves are refused.
func playable(m *Match) (*game.Game, error) {
	switch m.Phase {
	case PhaseSetup:
		return nil, ErrNotStarted
	case PhaseFinished, PhaseAbandoned:
		return nil, ErrGameOver
	}
	return m.Game()
}

// Act records an action other than a move: see Store.
func (db *DB) Act(ctx context.Context, id MatchID, expectVersion uint64, a Action) (*Match, error) {
	if a.Kind == ActMove {
		return nil, fmt.Errorf("moves go through ApplyMove: %w", ErrInvalid)
	}
	return db.modify(ctx, id, expectVersion, a.At, func(_ *bolt.Tx, m *Match) (*game.Game, error) {
		g, err := playable(m)
		if err != nil {
			return nil, err
		}
		a.At, a.Move = second(a.At), game.Move{}
		if a.Kind == ActTimeOut {
			if m.ClockPending {
				return nil, fmt.Errorf("match %d: the player to move has not been told yet, so their time has not started: %w", m.ID, ErrNotDue)
			}
			if a.At.Before(m.Deadline) {
				return nil, fmt.Errorf("match %d: time runs out at %s: %w", m.ID, m.Deadline.Format(time.RFC3339), ErrNotDue)
			}
			a.Side = g.ToMove()
		}
		if _, err := a.apply(g); err != nil {
			return nil, err
		}
		m.Log = append(m.Log, a)
		m.afterAction(g, a.At, db.opts.Reminders)
		return g, nil
	})
}

// SetSetup stores a draft or confirms a set-up: see Store.
func (db *DB) SetSetup(ctx context.Context, id MatchID, expectVersion uint64, side game.Side, setup game.Setup, status SetupStatus, at time.Time) (*Match, error) {
	if side > game.Blue || (status != SetupDraft && status != SetupConfirmed) {
		return nil, fmt.Errorf("SetSetup takes a side and a draft or confirmed status: %w", ErrInvalid)
	}
	return db.modify(ctx, id, expectVersion, at, func(_ *bolt.Tx, m *Match) (*game.Game, error) {
		switch {
		case m.Phase == PhaseFinished || m.Phase == PhaseAbandoned:
			return nil, ErrGameOver
		case m.Phase != PhaseSetup || m.Setups[side].Status == SetupConfirmed:
			return nil, ErrSetupConfirmed
		}
		if status == SetupConfirmed {
			if err := setup.Validate(m.Rules); err != nil {
				// The reason describes this player's own set-up: fit to show to
				// them, never to log or to show anyone else.
				return nil, fmt.Errorf("your set-up does not fit the rules: %w", err)
			}
		}
		m.Setups[side] = SideSetup{Status: status, Setup: setup, At: second(at)}
		if m.Setups[side.Opponent()].Status != SetupConfirmed || status != SetupConfirmed {
			return nil, nil
		}
		g, err := m.Game()
		if err != nil {
			return nil, err
		}
		m.Started = second(at)
		m.afterAction(g, at, db.opts.Reminders)
		if m.Phase == PhasePlaying {
			m.setDeadline(at.Add(m.MoveTime), db.opts.Reminders)
		}
		return g, nil
	})
}

// Abandon ends an active match with no result.
func (db *DB) Abandon(ctx context.Context, id MatchID, expectVersion uint64, at time.Time) (*Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(_ *bolt.Tx, m *Match) (*game.Game, error) {
		if !m.Phase.Active() {
			return nil, ErrGameOver
		}
		m.Phase, m.Ended = PhaseAbandoned, second(at)
		m.setDeadline(time.Time{}, db.opts.Reminders)
		return nil, nil
	})
}

// MarkReminded records the reminder due at RemindAt as sent and plans the next.
func (db *DB) MarkReminded(ctx context.Context, id MatchID, expectVersion uint64, at time.Time) (*Match, error) {
	return db.modify(ctx, id, expectVersion, at, func(_ *bolt.Tx, m *Match) (*game.Game, error) {
		if m.RemindAt.IsZero() || at.Before(m.RemindAt) || (m.ClockPending && m.Phase == PhasePlaying) {
			return nil, fmt.Errorf("match %d has no reminder due: %w", m.ID, ErrNotDue)
		}
		m.RemindersSent++
		m.planReminder(db.opts.Reminders)
		return nil, nil
	})
}

// saveMatch checks m, counts a newly finished match in the standings, records
// the notices the change owes (and so whether the clock of the side to move
// waits for one), bumps the version, and writes the record and its index
// entries. old is the stored version, nil for a new match; g, when not nil, is
// m's game already rebuilt; at is when the change happened.
func (db *DB) saveMatch(tx *bolt.Tx, old, m *Match, g *game.Game, at time.Time) error {
	normalize(m)
	if err := m.validate(); err != nil {
		return fmt.Errorf("match %d: %w", m.ID, err)
	}
	if err := checkResult(m, g); err != nil {
		return err
	}
	if m.rated() && !m.RatingApplied {
		if err := recordResult(tx, m); err != nil {
			return err
		}
		m.RatingApplied = true
	}
	notices := Notices(old, m, at)
	if len(notices) > 0 && at.IsZero() {
		return fmt.Errorf("match %d: this change would owe the players %d notices: %w", m.ID, len(notices), ErrInvalid)
	}
	m.ClockPending = clockPending(old, m, notices)
	if err := recordNotices(tx, notices); err != nil {
		return err
	}
	m.Version++
	return db.writeMatch(tx, old, m)
}

// clockPending says whether the clock of the side to move waits for its
// notice after a change: a new turn waits when it owes one; otherwise the
// clock stays as it was.
func clockPending(old, m *Match, notices []Notice) bool {
	if m.Phase != PhasePlaying {
		return false
	}
	if old != nil && old.Phase == PhasePlaying && len(old.Log) == len(m.Log) {
		return old.ClockPending // the same turn: only its notice starts the clock
	}
	for _, n := range notices {
		if n.StartsClock {
			return true
		}
	}
	return false
}

// writeMatch writes the record and its index entries as they are.
func (db *DB) writeMatch(tx *bolt.Tx, old, m *Match) error {
	data, err := encodeMatch(m)
	if err != nil {
		return err
	}
	b := tx.Bucket(bucketMatches)
	b.FillPercent = matchFill
	if err := b.Put(idKey(uint64(m.ID)), data); err != nil {
		return fmt.Errorf("match %d: %w", m.ID, err)
	}
	return updateIndexes(tx, matchIndex(old), matchIndex(m))
}

// checkResult holds the invariant that the stored result and phase are the replay's.
func checkResult(m *Match, g *game.Game) error {
	if m.Phase == PhaseSetup || m.Phase == PhaseAbandoned {
		if m.Result.Over() {
			return fmt.Errorf("match %d: a match in %s has no result: %w", m.ID, m.Phase, ErrInvalid)
		}
		return nil
	}
	if g == nil {
		var err error
		if g, err = m.Game(); err != nil {
			if errors.Is(err, ErrCorrupt) {
				err = fmt.Errorf("%v: %w", err, ErrInvalid)
			}
			return err
		}
	}
	if g.Result() != m.Result {
		return fmt.Errorf("match %d: stored result %q, the replay says %q: %w", m.ID, m.Result, g.Result(), ErrInvalid)
	}
	if (m.Phase == PhaseFinished) != m.Result.Over() {
		return fmt.Errorf("match %d: phase %s does not fit result %q: %w", m.ID, m.Phase, m.Result, ErrInvalid)
	}
	return nil
}

// normalize makes m what a reload gives back: times in whole UTC seconds, no
// set-up behind SetupNone.
func normalize(m *Match) {
	for side := range m.Setups {
		if m.Setups[side].Status == SetupNone {
			m.Setups[side].Setup = game.Setup{}
		}
	}
	for _, t := range []*time.Time{&m.Deadline, &m.RemindAt, &m.Created, &m.Started, &m.Ended, &m.Setups[0].At, &m.Setups[1].At} {
		*t = second(*t)
	}
	for i := range m.Log {
		m.Log[i].At = second(m.Log[i].At)
	}
}

// PlayerMatches lists a player's matches, newest first.
func (db *DB) PlayerMatches(ctx context.Context, userID string, active bool, limit int) ([]*Match, error) {
	return db.listMatches(ctx, bucketByPlayer, userID, active, limit)
}

// ChannelMatches lists a channel's (or thread's) matches, newest first.
func (db *DB) ChannelMatches(ctx context.Context, channelID string, active bool, limit int) ([]*Match, error) {
	return db.listMatches(ctx, bucketByChannel, channelID, active, limit)
}

func (db *DB) listMatches(ctx context.Context, index []byte, name string, active bool, limit int) ([]*Match, error) {
	state := byte(stateFinished)
	if active {
		state = stateActive
	}
	var out []*Match
	err := db.view(ctx, func(tx *bolt.Tx) error {
		var err error
		eachReverse(tx.Bucket(index), prefixKey(name, state), func(id uint64) bool {
			var m *Match
			if m, err = loadMatch(tx, MatchID(id)); err != nil {
				return false
			}
			out = append(out, m)
			return limit <= 0 || len(out) < limit
		})
		return err
	})
	return out, err
}
