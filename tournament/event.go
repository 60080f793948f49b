package tournament

import "fmt"

// EventKind says what an Event records.
type EventKind uint8

// The kinds of events in a tournament's log.
const (
	// Joined: Player entered with Rating. Only before the first round.
	Joined EventKind = iota + 1
	// Withdrew: Player left the tournament for Reason. Before the first
	// round they are simply no longer in it; afterwards their game of the
	// current round, if still on, is forfeited and they are paired no more
	// (in a round robin their scheduled games are forfeited as they come;
	// played all at once, every game of theirs still on is forfeited).
	Withdrew
	// Paired: round Round was paired as Games say. The first Paired event
	// starts the tournament and fixes the seeds.
	Paired
	// Recorded: the game on board Board (from 1) of round Round ended with
	// Result. A result in the latest round may be corrected by another.
	Recorded
	// Closed: round Round reached its deadline; games still on are scored
	// as Rules.Unfinished says (Adjudicated), but those Games lists had not
	// begun and take the result it gives them (see CloseRound). Round 0 is
	// the deadline of a round robin played all at once: it closes every
	// round (see CloseAll).
	Closed
	// Cancelled: a moderator cancelled the tournament. Nothing follows it.
	Cancelled
)

var eventNames = [...]string{"", "joined", "withdrew", "round paired", "result recorded", "round closed", "cancelled"}

// String names the kind of event.
func (k EventKind) String() string {
	if k >= Joined && int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// WithdrawReason says why a player left.
type WithdrawReason uint8

// The reasons for a withdrawal.
const (
	WithdrewByChoice WithdrawReason = iota // the player asked to
	LeftServer                             // the player left the Discord server
	Removed                                // a moderator removed the player
)

// String describes the reason.
func (r WithdrawReason) String() string {
	switch r {
	case WithdrewByChoice:
		return "withdrew"
	case LeftServer:
		return "left the server"
	case Removed:
		return "removed by a moderator"
	}
	return fmt.Sprintf("WithdrawReason(%d)", uint8(r))
}

// Event is one entry of a tournament's log; the fields that matter depend on
// Kind. A Tournament is rebuilt from its rules and its log by Replay.
type Event struct {
	Kind   EventKind      `json:"kind"`
	Player string         `json:"player,omitempty"`
	Rating int            `json:"rating,omitempty"`
	Reason WithdrawReason `json:"reason,omitempty"`
	Round  int            `json:"round,omitempty"`
	Games  []Pairing      `json:"games,omitempty"`
	Board  int            `json:"board,omitempty"`
	Result Result         `json:"result,omitempty"`
}

// Join returns the event of a player entering with a rating.
func Join(id string, rating int) Event { return Event{Kind: Joined, Player: id, Rating: rating} }

// Withdraw returns the event of a player leaving.
func Withdraw(id string, reason WithdrawReason) Event {
	return Event{Kind: Withdrew, Player: id, Reason: reason}
}

// Record returns the event of a result on board (from 1) of round.
func Record(round, board int, r Result) Event {
	return Event{Kind: Recorded, Round: round, Board: board, Result: r}
}

// CloseRound returns the event of a round's deadline. notBegun lists games
// of the round still on that had not begun, each with the result it takes
// rather than Adjudicated: a forfeit of the side whose set-up never came
// (RedForfeited, BlueForfeited), or NotBegun when neither came.
func CloseRound(round int, notBegun ...Pairing) Event {
	return Event{Kind: Closed, Round: round, Games: notBegun}
}

// CloseAll returns the event of the one deadline of a round robin played
// all at once (Rules.AllAtOnce): every round closes as CloseRound closes
// one, and notBegun lists games of any round, each named by its players
// (a pair meets with the same colours once only, even in a double round
// robin).
func CloseAll(notBegun ...Pairing) Event {
	return Event{Kind: Closed, Round: 0, Games: notBegun}
}

// Cancel returns the event of a moderator cancelling the tournament.
func Cancel() Event { return Event{Kind: Cancelled} }

// String describes the event for a log line.
func (e Event) String() string {
	switch e.Kind {
	case Joined:
		return fmt.Sprintf("%s joined (rating %d)", e.Player, e.Rating)
	case Withdrew:
		return fmt.Sprintf("%s %s", e.Player, e.Reason)
	case Paired:
		return fmt.Sprintf("round %d paired (%d pairings)", e.Round, len(e.Games))
	case Recorded:
		return fmt.Sprintf("round %d board %d: %s", e.Round, e.Board, e.Result)
	case Closed:
		if e.Round == 0 {
			return "every round closed"
		}
		return fmt.Sprintf("round %d closed", e.Round)
	case Cancelled:
		return "tournament cancelled"
	}
	return e.Kind.String()
}

// LogError is a log that Replay refused: the event at Index (from 0) could not
// be applied.
type LogError struct {
	Index int
	Event Event
	Err   error
}

func (e *LogError) Error() string {
	return fmt.Sprintf("event %d (%s): %v", e.Index+1, e.Event.Kind, e.Err)
}

// Unwrap returns the refusal.
func (e *LogError) Unwrap() error { return e.Err }
