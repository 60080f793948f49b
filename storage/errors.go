package storage

import (
	"errors"
	"fmt"
	"slices"

	"github.com/strategobot/strategobot/game"
)

// Errors callers test with errors.Is. Their texts are safe to show to players:
// none of them names a hidden piece.
var (
	// ErrNotFound: no match, challenge or record with that id.
	ErrNotFound = errors.New("not found")
	// ErrStale refuses an update made against an older version of a match:
	// someone else changed it in between (a second click, a second device).
	ErrStale = errors.New("the board changed since you looked: that move was already played or the turn passed")
	// ErrNotYourTurn is the engine's sentinel: the side acting is not the side to move.
	ErrNotYourTurn = game.ErrNotYourTurn
	// ErrGameOver is the engine's sentinel: the match has ended (or was abandoned).
	ErrGameOver = game.ErrGameOver
	// ErrNotStarted refuses a move while the set-ups are not both confirmed.
	ErrNotStarted = errors.New("the game has not started: both set-ups must be confirmed first")
	// ErrSetupConfirmed refuses a change to a set-up already confirmed.
	ErrSetupConfirmed = errors.New("that set-up is already confirmed and cannot change")
	// ErrNotDue refuses a time-out or reminder before its time.
	ErrNotDue = errors.New("the deadline has not passed yet")
	// ErrTimeUp refuses what a player does in a match whose side to move
	// ran out of time, before the timers recorded the loss on time (Act
	// with ActTimeOut): a late move, vacation, pause or gift would undo it.
	ErrTimeUp = errors.New("the time to move ran out")
	// ErrSetupTimeUp (an ErrTimeUp) refuses, once the set-up time ran out
	// before the timers called the match off (Abandon with
	// CallOffLateSetup), a set-up confirmed or a vacation taken: either
	// would undo the call-off, which a tournament scores as the late
	// player's forfeit.
	ErrSetupTimeUp = fmt.Errorf("the time for the set-ups ran out: %w", ErrTimeUp)
	// ErrRoundOver refuses what would end or change a tournament's match
	// at or after its round's deadline (Match.RoundEnds), before the
	// timers closed the round: the game is scored as one still on at the
	// deadline, as if they had been on time.
	ErrRoundOver = errors.New("the deadline of the match's tournament round has passed")
	// ErrNoGiftsLeft: the player has given its opponent time as often as a
	// match allows (MaxGifts).
	ErrNoGiftsLeft = errors.New("no more gifts of time in this match")
	// ErrGiftGiven: the gift of time asked for (Action.Gift: the gifts
	// its request saw, plus one) was given already, by a press of the same
	// moment or one made since the page asking showed the player's gifts.
	ErrGiftGiven = errors.New("that gift of time was given already")
	// ErrNotCorrespondence: only matches of a day or more a move pause.
	ErrNotCorrespondence = errors.New("only correspondence matches (a day or more a move) can pause")
	// ErrPaused: the match is paused already.
	ErrPaused = errors.New("the match is paused already")
	// ErrNoPauseOffersLeft: the player has proposed a pause as often as a
	// match allows (MaxPauseOffers).
	ErrNoPauseOffersLeft = errors.New("no more proposals to pause in this match")
	// ErrNoPauseOffer: there is no proposal to pause to answer.
	ErrNoPauseOffer = errors.New("no proposal to pause")
	// ErrPauseOffered: the player's own proposal to pause for those days
	// stands already (a second press or command of the same moment): it is
	// not made, nor its opponent asked, twice.
	ErrPauseOffered = errors.New("that proposal to pause stands already")
	// ErrPauseOfferStands: the player proposed a pause for other days
	// while the opponent's proposal stands; that one is answered first.
	ErrPauseOfferStands = errors.New("the opponent's proposal to pause stands")
	// ErrPauseOfferChanged: the answer names the days of a proposal to
	// pause that was withdrawn and made again for other days meanwhile.
	ErrPauseOfferChanged = errors.New("the proposal to pause was made again for other days")
	// ErrInvalid marks a record the caller built wrongly (missing players, bad rules, …).
	ErrInvalid = errors.New("invalid record")
	// ErrInUse: another process holds the database file.
	ErrInUse = errors.New("database is in use by another process")
	// ErrCorrupt: the database file is damaged or is not a strategobot database.
	ErrCorrupt = errors.New("database file is damaged or unreadable")
	// ErrNewerSchema: the file was written by a newer strategobot that this one cannot read.
	ErrNewerSchema = errors.New("database was written by a newer version of strategobot")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("database is closed")
)

// UnreadableError is what a list of records returns, beside those it could
// read, when it met stored records it cannot read: damaged (ErrCorrupt),
// written by a newer strategobot (ErrNewerSchema), or gone from under
// their index. One bad record must not hide the others, nor hold up what
// is due for them. It names the records by id, never by their content;
// errors.Is sees each one's error.
type UnreadableError struct {
	What string   // the kind of record: "tournament", "seek"
	IDs  []uint64 // in the list's order: a tournament's id, a seek's 0
	Keys []string // by IDs: what names a record without an id (a seek: its member's id), else ""
	Errs []error  // each one's error, by IDs
}

func (e *UnreadableError) Error() string {
	names := fmt.Sprint(e.IDs)
	if slices.ContainsFunc(e.Keys, func(k string) bool { return k != "" }) {
		names = fmt.Sprint(e.Keys)
	}
	return fmt.Sprintf("%d %s record(s) cannot be read (%s): %v", len(e.IDs), e.What, names, errors.Join(e.Errs...))
}

func (e *UnreadableError) Unwrap() []error { return e.Errs }

// Unreadable collects the records of kind what that a list could not read,
// for a backend: Add each, then Err.
type Unreadable struct{ e UnreadableError }

// NewUnreadable starts a collection of the records of kind what a list
// could not read.
func NewUnreadable(what string) *Unreadable { return &Unreadable{e: UnreadableError{What: what}} }

// Add notes record id, which could not be read for err.
func (u *Unreadable) Add(id uint64, err error) { u.AddKey(id, "", err) }

// AddKey notes the record named by id and key, which could not be read for
// err.
func (u *Unreadable) AddKey(id uint64, key string, err error) {
	u.e.IDs = append(u.e.IDs, id)
	u.e.Keys = append(u.e.Keys, key)
	u.e.Errs = append(u.e.Errs, err)
}

// Len is how many records could not be read.
func (u *Unreadable) Len() int { return len(u.e.IDs) }

// Err is nil when every record was read, else the *UnreadableError.
func (u *Unreadable) Err() error {
	if len(u.e.IDs) == 0 {
		return nil
	}
	e := u.e
	return &e
}
