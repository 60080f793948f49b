package storage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
)

// MatchID names a match: a small sequence number, short enough for Discord
// custom_ids and autocomplete, and stable for the life of the database.
type MatchID uint64

// String returns the id in decimal, such as "42", never grouped like a
// quantity: the bot shows a match as "#1234", not "#1,234".
func (id MatchID) String() string { return strconv.FormatUint(uint64(id), 10) }

// ParseMatchID reads "42" or "#42", and the number that begins a match's
// name as the bot's lists of matches offer it ("#42 Ada vs Bob"), typed
// rather than chosen. It is the one reading of a match number a member
// gives.
func ParseMatchID(text string) (MatchID, error) {
	first := ""
	if fields := strings.Fields(text); len(fields) > 0 {
		first = fields[0]
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(first, "#"), 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q is not a match number", text)
	}
	return MatchID(n), nil
}

// Phase is where a match stands.
type Phase uint8

// The phases of a match.
const (
	PhaseSetup     Phase = iota // the players are placing their pieces
	PhasePlaying                // both set-ups are confirmed; moves are being played
	PhaseFinished               // the game has a result
	PhaseAbandoned              // ended with no result (before both set-ups were in, or cancelled)
)

var phaseNames = [...]string{"setup", "playing", "finished", "abandoned"}

// String returns "setup", "playing", "finished" or "abandoned".
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Active reports whether the match still waits for a player (set-up or playing).
func (p Phase) Active() bool { return p == PhaseSetup || p == PhasePlaying }

// Player is one participant: a Discord user and the name shown for them.
type Player struct {
	UserID string
	Name   string
}

// SetupStatus is how far one side's set-up has come.
type SetupStatus uint8

// The set-up states of one side.
const (
	SetupNone      SetupStatus = iota // nothing placed yet
	SetupDraft                        // a draft the player is looking at, not yet confirmed
	SetupConfirmed                    // final; the game starts when both are confirmed
)

// SideSetup is one side's set-up. It is hidden information: show it only to
// its owner until the game is over.
type SideSetup struct {
	Status SetupStatus
	Setup  game.Setup // the draft or the confirmed set-up
	At     time.Time  // when it was last changed
}

// Match is one game between two players, from set-up to result. The log of
// actions is the truth: Game rebuilds the position by replaying it, and the
// stored Result must equal the replay's.
type Match struct {
	ID MatchID
	// Version increases with every change; updates may name the version they
	// were based on and are refused with ErrStale when it moved on.
	Version uint64

	GuildID   string // empty for a match outside a server
	ChannelID string
	ThreadID  string // empty when the match is played in the channel itself
	// LiveMessage is the channel message that announced the match (its
	// challenge's), which the live board mode edits after every move.
	LiveMessage string
	// OfferDMs are the DMs that asked each player about the opponent's
	// latest draw offer and proposal to pause (RecordAsked): each is
	// edited once its offer is settled (EventOfferSettled).
	OfferDMs []OfferDM
	// Announce marks a match made where no answer to an interaction shows
	// it: the queue paired two seeks in the waiting seeker's channel (the
	// second seeker is answered privately in theirs). Its channel is told
	// of the match by a notice (EventCreated), which the outbox delivers
	// once, whatever Discord does.
	Announce bool

	// Players holds the two players, indexed by game.Side: Players[game.Red] plays Red.
	Players [2]Player
	Rules   game.Rules
	// MoveTime is how long a player has for each move (5 minutes to 7 days);
	// with a Clock, how long the set-ups may take.
	MoveTime time.Duration
	// Clock, when on, replaces the deadline per move: each side's time left
	// is in Left, and the side to move loses when its time runs out.
	Clock TimeControl
	Left  [2]time.Duration
	// Casual matches do not change ratings.
	Casual bool
	// Secret seeds the match's secret random choices. CreateMatch and
	// AcceptChallenge draw it; it is never shown to anyone.
	Secret Secret
	// Computer is the computer's level in a practice match, in which the
	// bot's own user plays one side ("easy", "normal", "hard": the computer's
	// own names, which storage keeps without reading); empty when two people
	// play. Practice says which.
	Computer string

	Phase  Phase
	Setups [2]SideSetup
	Log    []Action
	Result game.Result

	// Deadline is when whoever must act runs out of time (zero: nobody must act).
	// In the set-up phase it is when the match is abandoned; in play, when the
	// side to move loses on time.
	Deadline time.Time
	// RemindAt is when the next reminder is due (zero: none). RemindersSent
	// counts the reminders of the store's schedule (Changes.Reminders) already done for the
	// current deadline (sent, or skipped as too late). Both reset with every
	// new deadline; a pause or a vacation, which moves the deadline without
	// changing the time left on the clock, moves RemindAt and keeps the count.
	// A gift of time moves the deadline within the same turn: it keeps the
	// half-time reminder where it was and moves the one an hour before
	// (giftReminders).
	RemindAt      time.Time
	RemindersSent int
	// ClockPending is set while the side to move has not yet been told it is
	// their turn (their notice is still in the outbox): their clock does not
	// run, no reminder or time-out is due, and Deadline is only provisional.
	// Delivering the notice (NoticeDone) starts the clock from then. In
	// set-up it is set while the set-up invite of a side that still owes its
	// set-up has not arrived (InvitePending): the set-up time, no reminder
	// and no call-off run before both have.
	ClockPending bool
	// InvitePending marks, in set-up, the sides whose set-up invite
	// (EventCreated, which StartsClock) is still on its way; the set-up
	// clock starts when the last of those that still owe a set-up has
	// arrived. Matches stored before it have none pending, and their set-up
	// time counts from their creation.
	InvitePending [2]bool
	// InviteArrived is, in set-up, when each side's set-up invite arrived
	// (was done, or given up) while the set-up clock waited for it
	// (StartClock): the later of the two started the set-up time. Zero for
	// an invite the clock did not wait for, and in matches stored before it.
	// It is forgotten once the game begins.
	InviteArrived [2]time.Time
	// ClockStarted is when the clock of whoever must act started, when it
	// waited for their board (ClockPending; in set-up, for the invites):
	// the board's arrival (StartClock). Zero while it waits, when it did
	// not wait, and in matches stored before it was kept. Time nobody ran
	// the timers before it is not given back: that clock did not run
	// (awayCredit).
	ClockStarted time.Time

	// CalledOff says why the match ended with no result, when it did
	// (Phase is PhaseAbandoned).
	CalledOff CallOff
	// ModeratorNote is which moderator called the match off or awarded it, and
	// why, in their words; empty unless one did.
	ModeratorNote string
	// PublicGone is set once the bot can no longer post in the match's
	// channel (deleted, or the bot lost access): the match goes on by DM and
	// the channel is not written to, until it comes back (ChannelBack).
	PublicGone bool
	// PublicLost is when the bot last found the channel out of its reach
	// (zero while it is within it, and in matches stored before it was
	// kept), and PublicDeleted whether it was deleted: a deleted channel
	// never comes back.
	PublicLost    time.Time
	PublicDeleted bool
	// PublicBack is the version the match had when its channel last came
	// back (ChannelBack): the channel's notices recorded up to it, while the
	// channel was out of reach, are not posted there; the one that came
	// back with it shows the board as it stands.
	PublicBack uint64
	// ToldUnreachable is, for each side, when the match's channel was last
	// told that its player's DMs do not reach them (closed, or they left
	// the server): it is told once in each match while they stay so.
	ToldUnreachable [2]time.Time

	// RatingApplied is set, in the same transaction that finished the match,
	// once its result is counted in the standings: it is counted exactly once.
	RatingApplied bool

	// Tournament is the tournament the match was made for (zero for any
	// other, and for tournament matches made before it was kept): a match
	// made but not yet linked to its board when the bot stopped is known
	// as its tournament's, not taken for a challenge's.
	Tournament TournamentID
	// RoundEnds is, for a tournament's match, the deadline of its round
	// (Tournament.RoundDeadline when it was made): a game still on then is
	// scored as the tournament's rules say, so nothing that would end or
	// change it is taken at or after it (ErrRoundOver; see roundOver),
	// however late the timers close the round. Zero for any other match,
	// and for tournament matches made before it was kept.
	RoundEnds time.Time

	Created, Started, Ended time.Time
}

// CallOff says why a match ended with no result.
type CallOff uint8

// Why matches are called off.
const (
	CallOffLateSetup  CallOff = iota // a set-up did not arrive in time, as the rules say
	CallOffBotRemoved                // the bot was removed from the match's server
	CallOffModerator                 // a moderator of the server called it off (ModeratorNote says why)
	CallOffTournament                // its tournament's round closed, a player withdrew or it was cancelled (ModeratorNote says which)
)

// callOffWords are CallOff's stored names.
var callOffWords = [...]string{CallOffLateSetup: "late-setup", CallOffBotRemoved: "bot-removed", CallOffModerator: "moderator", CallOffTournament: "tournament"}

func (c CallOff) String() string {
	if int(c) < len(callOffWords) {
		return callOffWords[c]
	}
	return fmt.Sprintf("CallOff(%d)", c)
}

// MinMoveTime and MaxMoveTime bound Match.MoveTime.
const (
	MinMoveTime = 5 * time.Minute
	MaxMoveTime = 7 * 24 * time.Hour
)

// SideOf returns the side userID plays, and false when they do not play in m.
func (m *Match) SideOf(userID string) (game.Side, bool) {
	switch userID {
	case m.Players[game.Red].UserID:
		return game.Red, true
	case m.Players[game.Blue].UserID:
		return game.Blue, true
	}
	return game.Red, false
}

// Where returns the channel the match is shown in: its thread if it has one.
func (m *Match) Where() string {
	if m.ThreadID != "" {
		return m.ThreadID
	}
	return m.ChannelID
}

// Game rebuilds the game by replaying the log from the two confirmed set-ups,
// each move as recorded: not judged again by the repetition rules, whose
// reading may have grown stricter since (Action.replay). Before both are
// confirmed it returns ErrNotStarted. Its errors never show a set-up's contents.
func (m *Match) Game() (*game.Game, error) {
	if m.Setups[game.Red].Status != SetupConfirmed || m.Setups[game.Blue].Status != SetupConfirmed {
		return nil, fmt.Errorf("match %d: %w", m.ID, ErrNotStarted)
	}
	g, err := game.NewGame(m.Rules, m.Setups[game.Red].Setup, m.Setups[game.Blue].Setup)
	if err != nil {
		// The engine's reason may describe a set-up: keep it out of the text.
		return nil, fmt.Errorf("match %d: the stored rules or set-ups are not valid: %w", m.ID, ErrCorrupt)
	}
	for i, a := range m.Log {
		if _, err := a.replay(g); err != nil {
			// Only the action's public notation: the engine's reason may name a hidden piece.
			return nil, fmt.Errorf("match %d: action %d (%s by %s) does not replay: %w", m.ID, i+1, a, a.Side, ErrCorrupt)
		}
	}
	if m.Phase != PhaseFinished {
		// Stored as under way (or called off while it was): an end by no
		// legal moves that a stricter reading of the repetition rules
		// finds in the log is not one (ResumeRecorded); the side to move
		// has no legal move, and its time runs out, or it resigns. A
		// match called off has no result, and shows no army.
		g.ResumeRecorded()
	}
	return g, nil
}

// GameAt rebuilds the game as it stood after the first actions of the log
// (an outbox notice shows the match as it was when it was recorded).
func (m *Match) GameAt(actions int) (*game.Game, error) {
	if actions < 0 || actions > len(m.Log) {
		return nil, fmt.Errorf("match %d has %d actions, not %d: %w", m.ID, len(m.Log), actions, ErrInvalid)
	}
	short := *m
	short.Log = m.Log[:actions]
	return short.Game()
}

// Practice reports whether m is a practice match against the computer.
func (m *Match) Practice() bool { return m.Computer != "" }

// ForTournament reports whether m says it was made for a tournament (its
// Tournament, or its round's deadline). A tournament's match stored before
// those were kept says nothing: Store.MatchTournament knows it still.
func (m *Match) ForTournament() bool { return m.Tournament != 0 || !m.RoundEnds.IsZero() }

// ClockRunning reports whether Deadline counts now: the match is in set-up or
// play and the board that starts it has arrived: in play, the side to move's;
// in set-up, the set-up invites (until then the clock waits, ClockPending,
// and Deadline is only provisional).
func (m *Match) ClockRunning() bool {
	return m.Phase.Active() && !m.ClockPending && !m.Deadline.IsZero()
}

// SetupOverdue reports whether at time at the set-up time has run out with a
// set-up still missing, the one case in which a match is called off as late
// (CallOffLateSetup): the set-up clock runs (it does not while an invite is on
// its way) and its deadline has passed.
func (m *Match) SetupOverdue(at time.Time) bool {
	return m.Phase == PhaseSetup && m.ClockRunning() && !at.Before(m.Deadline)
}

// DeadlineToShow is the deadline a reader should see at now: Deadline while
// it counts; while the side to move's board (in set-up, a set-up invite) is
// on its way, the earliest its time can end (its clock starts when the board
// arrives); zero when nothing is due.
func (m *Match) DeadlineToShow(now time.Time) time.Time {
	switch {
	case m.ClockRunning():
		return m.Deadline
	case m.Phase.Active() && m.ClockPending:
		return m.turnEnds(now)
	}
	return time.Time{}
}

// turnEnds is the deadline of the side to move when its clock starts at time
// at: its turn time after at, or after the pause or vacation that stops it.
// In set-up it is the set-ups' deadline: the move time after at, or after
// the later of the players' vacations.
func (m *Match) turnEnds(at time.Time) time.Time {
	if m.Phase == PhaseSetup {
		return at.Add(m.MoveTime + m.stoppedLeft(at))
	}
	return at.Add(m.TurnTime(int(m.ToMove())) + m.stoppedLeft(at))
}

// SameTurn reports whether the turn that was on after the first log
// actions of the match's log is on still: the game goes on, and no move was
// made since (a draw offer, a gift or a pause happen within a turn).
func (m *Match) SameTurn(log int) bool {
	return m.Phase == PhasePlaying && log <= len(m.Log) && !hasMove(m.Log[log:])
}

// Clone returns a deep copy of m.
func (m *Match) Clone() *Match {
	c := *m
	c.Log = append([]Action(nil), m.Log...)
	c.OfferDMs = slices.Clone(m.OfferDMs)
	return &c
}

// Moves returns the number of moves played.
func (m *Match) Moves() int {
	n := 0
	for _, a := range m.Log {
		if a.Kind == ActMove {
			n++
		}
	}
	return n
}

// ToMove returns the side whose turn it is: Red moves first, and only moves
// pass the turn.
func (m *Match) ToMove() game.Side {
	return game.Side(m.Moves() % 2)
}

// validate checks what a stored match must satisfy, without replaying it.
func (m *Match) validate() error {
	switch {
	case m.Players[0].UserID == "" || m.Players[1].UserID == "":
		return fmt.Errorf("a match needs two players: %w", ErrInvalid)
	case m.Players[0].UserID == m.Players[1].UserID:
		return fmt.Errorf("a player cannot play against themselves: %w", ErrInvalid)
	case m.ChannelID == "":
		return fmt.Errorf("a match needs a channel: %w", ErrInvalid)
	case m.MoveTime < MinMoveTime || m.MoveTime > MaxMoveTime:
		return fmt.Errorf("move time %s is outside %s to %s: %w", m.MoveTime, MinMoveTime, MaxMoveTime, ErrInvalid)
	case m.Secret.IsZero():
		return fmt.Errorf("a match needs its secret: %w", ErrInvalid)
	case m.Clock.validate() != nil:
		return m.Clock.validate()
	case int(m.Phase) >= len(phaseNames):
		return fmt.Errorf("unknown phase %d: %w", m.Phase, ErrInvalid)
	}
	if err := m.Rules.Validate(); err != nil {
		return fmt.Errorf("rules: %v: %w", err, ErrInvalid)
	}
	if m.Phase == PhaseSetup && slices.ContainsFunc(m.Log, func(a Action) bool { return !vacationAction(a.Kind) && a.Kind != ActAway }) {
		return fmt.Errorf("a match in set-up has no moves, and no actions but vacations and time away: %w", ErrInvalid)
	}
	return nil
}
