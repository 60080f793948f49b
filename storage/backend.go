package storage

import (
	"errors"
	"fmt"
	"time"

	"github.com/strategobot/strategobot/game"
)

// What every Store implementation shares. The bbolt backend (storage/bolt)
// and the PostgreSQL backend (storage/postgres) differ only in how they load,
// lock and write records; the records' encoding, the rules of each change
// (Changes, in changes.go) and the rating of a finished match live here, so
// that both read the same truth and keep the same rules. A backend changes a
// match in one transaction:
//
//  1. load the match, locked against other writers (bbolt has one writer;
//     PostgreSQL takes the row with SELECT … FOR UPDATE);
//  2. CheckVersion against the version the caller expects;
//  3. apply one of the Changes methods to a Clone of it;
//  4. PrepareSave, which checks the result, sets ClockPending, bumps the
//     version, and says when the result must now be counted (then lock both
//     players' standings, compute them with Rate and write them back) and which
//     notices the change owes;
//  5. record those notices in the outbox (PrepareNotice, in order, each with
//     the next id) and write the record (EncodeMatch) and its indexes
//     (Phase.Active, MatchTimer).
//
// Records of an older format are brought up to date by a backend's
// migration (UpgradeRecord); the standings' record (EncodeStanding) is for a
// backend that keeps them as records rather than columns.
//
// The outbox's rules are shared too: a queue (NoticeQueue) delivers its oldest
// notice first, StartClock says what a delivered notice does to its match, and
// Changes.ExpireChallenge what an expired challenge owes.
//
// The bot itself uses the Store interface, never these.

// EncodeMatch returns m's stored record: JSON whose log is one compact string
// (see the package documentation, "Encoding"). It holds both set-ups and the
// secret: hidden information.
func EncodeMatch(m *Match) ([]byte, error) { return encodeMatch(m) }

// DecodeMatch reads a record written by EncodeMatch (of this version or an
// older one). A record from a newer program is refused with ErrNewerSchema, a
// damaged one with ErrCorrupt; neither error shows the record.
func DecodeMatch(data []byte) (*Match, error) { return decodeMatch(data) }

// EncodeChallenge returns c's stored record (JSON).
func EncodeChallenge(c *Challenge) ([]byte, error) { return encodeChallenge(c) }

// DecodeChallenge reads a record written by EncodeChallenge.
func DecodeChallenge(data []byte) (*Challenge, error) { return decodeChallenge(data) }

// EncodePlayer returns p's stored record (JSON). Saved set-ups are hidden information.
func EncodePlayer(p *PlayerSettings) ([]byte, error) { return encodePlayer(p) }

// DecodePlayer reads a record written by EncodePlayer, upgrading an older format.
func DecodePlayer(data []byte) (*PlayerSettings, error) { return decodePlayer(data) }

// CheckVersion refuses with ErrStale a change based on another version of m
// than the stored one; expect 0 accepts any version.
func CheckVersion(m *Match, expect uint64) error {
	if expect != 0 && m.Version != expect {
		return fmt.Errorf("match %d is at version %d, not %d: %w", m.ID, m.Version, expect, ErrStale)
	}
	return nil
}

// MatchTimer returns the match's timer (its next reminder or its deadline, as
// NextDeadline reports it), and false when nobody must act.
func MatchTimer(m *Match) (Deadline, bool) {
	at, kind, ok := m.wake()
	if !ok {
		return Deadline{}, false
	}
	return Deadline{At: at, Kind: kind, ID: uint64(m.ID)}, true
}

// NewStanding returns the standing of a player with no rated game in that
// server and variant: the starting Glicko-2 rating.
func NewStanding(guildID string, v game.Variant, userID string) Standing {
	return newStanding(guildID, v, userID)
}

// EncodeStanding returns s's stored record (JSON), for a backend that keeps
// standings as records; the record leaves out s's server, variant and player,
// which are its key.
func EncodeStanding(s Standing) ([]byte, error) { return encodeStanding(s) }

// DecodeStanding reads a record written by EncodeStanding: the standing of
// userID in that server and variant.
func DecodeStanding(guildID string, v game.Variant, userID string, data []byte) (Standing, error) {
	return decodeStanding(newStanding(guildID, v, userID), data)
}

// Rate counts a finished, rated match in both players' standings: before holds
// their standings in m's server and variant, indexed by side (NewStanding for
// a first game), and Rate returns them after this one game, rated as its own
// Glicko-2 rating period after each player's idle periods.
func Rate(m *Match, before [2]Standing) [2]Standing {
	return rate(m, before)
}

// LeaseTimes returns the times a backend compares and keeps for Lead(at,
// ttl), to the microsecond, the precision of PostgreSQL's timestamps: now
// is at rounded down, and until, the lease's end at+ttl, rounded up. A
// lease held until until has expired by now when until <= now, which then
// holds of the times as given too: a lease is never taken before the end
// its holder was given, even by the fraction of a microsecond a rounding
// down of that end would cut off, and all backends decide alike.
func LeaseTimes(at time.Time, ttl time.Duration) (now, until time.Time) {
	now = at.Truncate(time.Microsecond).UTC()
	end := at.Add(ttl)
	until = end.Truncate(time.Microsecond).UTC()
	if until.Before(end) {
		until = until.Add(time.Microsecond)
	}
	return now, until
}

// Saved is what PrepareSave found a change owes, besides its record.
type Saved struct {
	// Rate is set when the change finished a rated match not yet counted: the
	// caller counts it (Rate) in the same transaction.
	Rate bool
	// Notices are what the change owes (Notices), to be recorded in the
	// outbox in the same transaction, in this order.
	Notices []Notice
}

// PrepareSave makes m ready to be written, after a change or at creation: it
// normalizes it to what a reload gives back, checks it (ErrInvalid, and the
// stored result and phase must be the replay's; g, when not nil, is m's game
// already rebuilt), sets RatingApplied when the result must now be counted,
// works out the notices the change owes and so whether the clock of the side
// to move waits for one (ClockPending), and bumps its version. old is the
// stored match, nil for a new one; at is when the change happened, zero for a
// change that owes nobody a notice (UpdateMatch).
func PrepareSave(old, m *Match, g *game.Game, at time.Time) (Saved, error) {
	normalize(m)
	if err := m.validate(); err != nil {
		return Saved{}, fmt.Errorf("match %d: %w", m.ID, err)
	}
	if err := checkResult(m, g); err != nil {
		return Saved{}, err
	}
	var s Saved
	if s.Rate = m.rated() && !m.RatingApplied; s.Rate {
		m.RatingApplied = true
	}
	s.Notices = Notices(old, m, at)
	if len(s.Notices) > 0 && at.IsZero() {
		return Saved{}, fmt.Errorf("match %d: this change would owe the players %d notices: %w", m.ID, len(s.Notices), ErrInvalid)
	}
	m.ClockPending = clockPending(old, m, s.Notices)
	if m.ClockPending || !m.Phase.Active() {
		m.ClockStarted = time.Time{} // a new turn's clock waits for its board
	}
	if !m.ClockPending || m.Phase != PhaseSetup {
		m.InvitePending = [2]bool{}
	}
	if m.Phase != PhaseSetup {
		m.InviteArrived = [2]time.Time{}
	}
	m.Version++
	for i := range s.Notices {
		s.Notices[i].Version = m.Version
	}
	return s, nil
}

// clockPending says whether the clock of the side to move waits for its
// notice after a change: a new turn waits when it owes one; otherwise the
// clock stays as it was. In set-up, a new match waits for the invites
// (which StartsClock) of the sides that owe a set-up, and marks them
// InvitePending; a change in set-up keeps what is left of the wait (the
// changes that start the set-up clock, StartClock and SetSetup, clear it),
// and a running clock never waits again.
func clockPending(old, m *Match, notices []Notice) bool {
	if m.Phase == PhaseSetup {
		if old == nil {
			m.InvitePending = [2]bool{}
			for _, n := range notices {
				if n.StartsClock && n.Event == EventCreated && n.To <= AudienceBlue && m.Owes(game.Side(n.To)) {
					m.InvitePending[n.To] = true
				}
			}
		} else if !old.ClockPending {
			m.InvitePending = [2]bool{}
		}
		return m.InvitePending[game.Red] || m.InvitePending[game.Blue]
	}
	if m.Phase != PhasePlaying {
		return false
	}
	if old != nil && old.Phase == PhasePlaying && !movedSince(old, m) {
		// The same turn (a draw offer, a gift of time, nothing): only the
		// notice of the move that began it starts the clock.
		return old.ClockPending
	}
	for _, n := range notices {
		if n.StartsClock {
			return true
		}
	}
	return false
}

// movedSince reports whether m's log holds a move that old's does not.
func movedSince(old, m *Match) bool {
	return hasMove(m.Log[min(len(old.Log), len(m.Log)):])
}

// hasMove reports whether actions hold a move: a new turn. Other actions (a
// draw offer, a gift of time) happen within a turn.
func hasMove(actions []Action) bool {
	for _, a := range actions {
		if a.Kind == ActMove {
			return true
		}
	}
	return false
}

// EncodeNotice returns n's stored record (JSON). A challenge's notice holds
// the challenge.
func EncodeNotice(n *Notice) ([]byte, error) { return encodeNotice(n) }

// DecodeNotice reads a record written by EncodeNotice.
func DecodeNotice(data []byte) (*Notice, error) { return decodeNotice(data) }

// NoticeQueue names the queue n waits in: notices of one match (or challenge)
// to one audience go out one at a time, in id order, and only a queue's
// oldest is ever due.
func NoticeQueue(n *Notice) string { return n.queue() }

// NoticeWaitsFor names the queue whose notices recorded before n must be
// done before n is due (Notice.After); "" when none. A backend leaves n out
// of DueNotices and NextNotice while that queue's oldest notice is older
// than n, until WaitEnds.
func NoticeWaitsFor(n *Notice) string { return n.waitsFor() }

// NoticeWaitsUntil lists the matches n waits for (Notice.Until) and the
// queues of their notices to their channels, one for each: a backend
// leaves n out of DueNotices and NextNotice while one of these matches is
// active (Phase.Active) or its queue holds a notice, whenever recorded,
// until WaitEnds.
func NoticeWaitsUntil(n *Notice) ([]MatchID, []string) { return n.Until, n.untilQueues() }

// WaitCap bounds how long a notice waits for other queues, for its
// After match's older notices to its channel or for its Until matches:
// from WaitEnds (its At plus WaitCap) a backend no longer holds it back
// for them, and NextNotice offers it then. A game's end and its finale,
// or a call-off, are a few writes whose notices go out in seconds; a
// call-off lost is healed by the timers' next pass (each minute or so),
// and a Discord outage longer than this is rare. An hour is ample for
// these, and bounds what a stray costs the tournament's channel, which
// would otherwise wait for ever for the rest of the event's
// announcements: a call-off that never comes (a bug, a match that cannot
// be read), or a game's notice to its channel that cannot be read, which
// the bot holds back until it is mended. They go out, the game's end or
// a call-off read out of order at worst.
const WaitCap = time.Hour

// WaitEnds is when n stops waiting for other queues (WaitCap).
func WaitEnds(n *Notice) time.Time { return n.At.Add(WaitCap) }

// PrepareNotice checks a notice about to be recorded (ErrInvalid) and makes
// it new: its time kept to the second, no part sent, no attempt made, due at
// its time. The caller gives it the next id.
func PrepareNotice(n *Notice) error {
	if err := validNotice(n); err != nil {
		return err
	}
	n.At = second(n.At)
	n.Sent, n.Attempts, n.NextTry = 0, 0, n.At
	return nil
}

// PrepareChallenge returns a copy of c ready to be stored: times kept to the
// second, and checked (ErrInvalid).
func PrepareChallenge(c *Challenge) (*Challenge, error) {
	n := *c
	n.Created, n.Expires = second(c.Created), second(c.Expires)
	if err := n.validate(); err != nil {
		return nil, err
	}
	return &n, nil
}

// PreparePlayer makes settings changed by a caller's function ready to be
// stored: the user id and the next version after version are the store's,
// times are kept to the second, and the number of saved set-ups is checked.
func PreparePlayer(p *PlayerSettings, userID string, version uint64) error {
	p.UserID, p.Version = userID, version+1
	p.DMBlockedAt = second(p.DMBlockedAt)
	for i := range p.Vacations {
		// As the record keeps them, and so a backend's index of vacations.
		p.Vacations[i].Start, p.Vacations[i].End = second(p.Vacations[i].Start), second(p.Vacations[i].End)
	}
	for i := range p.Setups {
		p.Setups[i].Saved = second(p.Setups[i].Saved)
		if p.Setups[i].Variant != game.VariantCustom {
			p.Setups[i].Army = p.Setups[i].Variant.Army()
		}
	}
	if len(p.Setups) > MaxSavedSetups {
		return fmt.Errorf("at most %d saved set-ups: %w", MaxSavedSetups, ErrInvalid)
	}
	return nil
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
	for _, t := range []*time.Time{&m.Deadline, &m.RemindAt, &m.RoundEnds, &m.Created, &m.Started, &m.Ended, &m.Setups[0].At, &m.Setups[1].At, &m.InviteArrived[0], &m.InviteArrived[1], &m.ClockStarted, &m.ToldUnreachable[0], &m.ToldUnreachable[1], &m.PublicLost} {
		*t = second(*t)
	}
	for i := range m.Log {
		m.Log[i].At = second(m.Log[i].At)
	}
	for i := range m.OfferDMs {
		m.OfferDMs[i].At = second(m.OfferDMs[i].At)
	}
	if len(m.OfferDMs) == 0 {
		m.OfferDMs = nil
	}
}
