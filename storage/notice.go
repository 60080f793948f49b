package storage

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/strategobot/strategobot/game"
)

// Event is what happened to a match or a challenge that someone must be told.
type Event uint8

// The events the outbox tells about.
const (
	EventCreated          Event = iota + 1 // a match was made: each player gets a set-up invite (and the channel an announcement, of a match to announce: Match.Announce)
	EventStarted                           // both set-ups are in: the first position
	EventMove                              // a move was played (Notice.Log counts it)
	EventDrawOffered                       // a player offered a draw: the opponent is asked
	EventDrawDeclined                      // a draw offer was declined: the offerer is told
	EventEnded                             // the game ended by resignation, time or agreement (not by a move)
	EventFinale                            // the game is over: the channel gets the reveal and the replay
	EventAbandoned                         // the match ended with no result
	EventReminder                          // a player's time runs short
	EventChallengeExpired                  // a challenge waited too long (Notice.Challenge holds it)
	EventFallback                          // the bot's own note after a notice it could not deliver (Notice.Reason)
	EventLateBoard                         // a board (or set-up invite) that starts a clock arrived late: its player is told when their time started (of a set-up invite, the opponent too)
	EventTimeGiven                         // a player gave the opponent more time: the opponent is told
	EventPauseOffered                      // a player proposed to pause: the opponent is asked
	EventPauseDeclined                     // a proposal to pause was declined: the proposer is told
	EventPaused                            // the players agreed to pause: both and the channel are told until when
	EventResumed                           // the pause ran out: both and the channel are told
	EventVacation                          // a player went on vacation: the opponent is told until when
	EventVacationOver                      // a player's vacation ended: the opponent is told (and the player who owes, of an end that moved a deadline they were told)

	// A tournament's announcements (Notice.Tournament; Notice.Log counts
	// its events), in its channel: see TournamentNotices.
	EventRoundPaired    // a round was paired: its pairings
	EventRoundResult    // a game's result was recorded: it and the standings
	EventRoundClosed    // a round's deadline passed: its unfinished games are scored
	EventWithdrawn      // a player withdrew, left or was removed after the start: the standings
	EventTourneyOver    // the tournament ended: the final standings
	EventTourneyCancel  // the tournament was cancelled
	EventTourneyNoReach // the organiser, by DM: an announcement could not be posted (Notice.Reason: which)

	// EventChannelBack: the bot may post in the match's channel again
	// (ChannelBack): the channel gets the board as it stands.
	EventChannelBack

	// EventAway: nobody ran the timers for a while, and the clock of a
	// player who must act was given that time back (ActAway): they are told.
	EventAway

	// EventTourneyAway: a tournament's announcement, in its channel: the
	// deadline of its round under way moved on by the time nobody ran the
	// timers (Tournament.GiveAway).
	EventTourneyAway

	// EventOfferSettled: a draw offer or a proposal to pause that the
	// player asked (by a DM with buttons) was answered, withdrawn, lapsed
	// or ended with the match (Notice.Offer: which one; Notice.Reason:
	// what became of it): that DM is edited to say so, without its buttons.
	EventOfferSettled

	// EventTourneyHeldUp: a tournament's announcement, in its channel:
	// the bot's timers have failed for long to move it on
	// (Tournament.HeldUp).
	EventTourneyHeldUp
)

var eventNames = [...]string{"", "created", "started", "move", "draw-offered", "draw-declined", "ended", "finale", "abandoned", "reminder", "challenge-expired", "fallback", "late-board", "time-given", "pause-offered", "pause-declined", "paused", "resumed", "vacation", "vacation-over",
	"round-paired", "round-result", "round-closed", "withdrawn", "tournament-over", "tournament-cancelled", "tournament-unreachable",
	"channel-back", "away", "tournament-away", "offer-settled", "tournament-held-up"}

// String names the event, such as "move".
func (e Event) String() string {
	if int(e) < len(eventNames) && e != 0 {
		return eventNames[e]
	}
	return fmt.Sprintf("Event(%d)", uint8(e))
}

// ofTournament reports whether e is a tournament's event.
func (e Event) ofTournament() bool {
	return e >= EventRoundPaired && e <= EventTourneyNoReach || e == EventTourneyAway || e == EventTourneyHeldUp
}

func parseEvent(s string) (Event, error) {
	for i, n := range eventNames {
		if n == s && i != 0 {
			return Event(i), nil
		}
	}
	return 0, fmt.Errorf("unknown event %q", s)
}

// Audience is who a notice is for: one player, by direct message, the
// match's channel (its thread, if it has one), or one of its followers.
type Audience uint8

// The audiences of a notice.
const (
	AudienceRed    Audience = iota // Red's player, by DM
	AudienceBlue                   // Blue's player, by DM
	AudiencePublic                 // the channel: only what the public may know
	// AudienceFollower is a member who follows the match by DM (Notice.Follower):
	// the channel's own board, sent to them.
	AudienceFollower
	// AudienceOrganiser is the member who created a tournament, by DM.
	AudienceOrganiser
	// AudiencePlayer is one of a tournament's players, by DM
	// (Notice.Player): an announcement its channel could not be told,
	// as far as it concerns them.
	AudiencePlayer
)

var audienceNames = [...]string{"red", "blue", "public", "follower", "organiser", "player"}

// String returns "red", "blue", "public", "follower", "organiser" or "player".
func (a Audience) String() string {
	if int(a) < len(audienceNames) {
		return audienceNames[a]
	}
	return fmt.Sprintf("Audience(%d)", uint8(a))
}

func parseAudience(s string) (Audience, error) {
	for i, n := range audienceNames {
		if n == s {
			return Audience(i), nil
		}
	}
	return 0, fmt.Errorf("unknown audience %q", s)
}

// Notice is one message the bot owes someone because of a change. It is
// recorded in the same transaction as the change, so a change is never stored
// without what it owes; the bot's outbox loop delivers it later, rendering it
// from the match as it stood then (its first Log actions), and marks it done.
// Notices to one audience of one match are delivered in the order they were
// recorded.
type Notice struct {
	// ID is the outbox's sequence number: notices are recorded in ID order.
	ID    uint64
	Match MatchID // the match it tells about (0 for a challenge's or a tournament's notice)
	Event Event
	To    Audience
	// Log is how many actions the match's log held right after the change:
	// the state to show is the game replayed that far.
	Log int
	// Version is the match's version the change produced (0 in notices
	// recorded before versions were kept): a reader holding the match at that
	// version need not load it again.
	Version uint64
	// At is when the change happened.
	At time.Time
	// StartsClock marks the notice that tells the side to move it is their
	// turn: the match's clock waits until it is done (delivered, or given up).
	StartsClock bool
	// Challenge is the challenge an EventChallengeExpired notice tells about
	// (it is no longer stored anywhere else).
	Challenge *Challenge
	// Reason says what an EventFallback notice stands in for, for the bot's
	// own use; on an EventLateBoard, which kind of notice arrived late (and
	// of a set-up invite, whose: the reader's own or their opponent's); on
	// an EventOfferSettled, what became of the offer (OfferAccepted …).
	Reason string
	// Offer, on an EventOfferSettled, is the offer settled: the count of
	// the match's actions up to it.
	Offer int
	// Follower is the user id an AudienceFollower notice goes to.
	Follower string
	// Player is the user id an AudiencePlayer notice goes to.
	Player string
	// Practice marks a notice about a match against the computer: the bot
	// delivers people's notices first.
	Practice bool
	// Tournament is the tournament a tournament's notice tells about (its
	// Log then counts the tournament's events).
	Tournament TournamentID
	// After, on a tournament's announcement of a game's result, is the
	// game's match: the announcement waits for the notices to that match's
	// channel recorded before it (the game's end, its finale), so that the
	// channel reads how the game ended before the standings it made; no
	// longer than WaitCap.
	After MatchID
	// Until, on a tournament's announcement of a round's deadline, of a
	// withdrawal or of its cancel, lists the matches of the games that
	// event scored (or, a cancel, ended) while they were still on: the
	// bot calls them off after it recorded the event (the call-off's own
	// notices come after the announcement's), so the announcement waits
	// until each is over and the notices to its channel are done, so that
	// the channel reads each game's call-off before the standings; no
	// longer than WaitCap. Nothing else waits across queues.
	Until []MatchID

	// Delivery state.
	Sent     int       // parts already delivered: a notice may take several messages
	Attempts int       // failed attempts so far
	NextTry  time.Time // not before this time
}

// queue names the line a notice waits in: notices of one match (or
// challenge) to one audience go out one at a time, in ID order.
func (n *Notice) queue() string {
	if n.Challenge != nil && n.Match == 0 {
		return fmt.Sprintf("c%d/%s", n.Challenge.ID, n.To)
	}
	if n.To == AudienceFollower {
		return fmt.Sprintf("m%d/follower/%s", n.Match, n.Follower)
	}
	if n.To == AudiencePlayer {
		return fmt.Sprintf("t%d/player/%s", n.Tournament, n.Player)
	}
	if n.Tournament != 0 {
		return fmt.Sprintf("t%d/%s", n.Tournament, n.To)
	}
	return matchQueue(n.Match, n.To)
}

// matchQueue names the queue of a match's notices to one audience.
func matchQueue(id MatchID, to Audience) string { return fmt.Sprintf("m%d/%s", id, to) }

// untilQueues names the channel queues of the matches n waits for (Until).
func (n *Notice) untilQueues() []string {
	var out []string
	for _, id := range n.Until {
		out = append(out, matchQueue(id, AudiencePublic))
	}
	return out
}

// waitsFor names the queue whose notices older than n go first (After):
// "" when none.
func (n *Notice) waitsFor() string {
	if n.After == 0 {
		return ""
	}
	return matchQueue(n.After, AudiencePublic)
}

// Notices returns what a change of a match owes, in the order it must be
// told: old is the match before the change (nil for a new one), m after it.
// Every backend records exactly these in the change's transaction, so that
// who is told what is the same everywhere:
//
//   - a new match: a set-up invite to each player, which starts the
//     set-up clock (the later of the two does), and, when it is to be
//     announced (Match.Announce), the channel;
//   - the game starts: both players and the channel; Red's notice starts
//     Red's clock;
//   - each move: both players and the channel; the notice to the side now to
//     move starts its clock;
//   - a draw offer: the opponent; a declined offer: the offerer;
//   - a draw offer or a proposal to pause that stood before the change and
//     no longer does (answered, withdrawn, lapsed, or the match over): the
//     player it asked, whose DM is edited (settledOffers);
//   - a gift of time: the opponent;
//   - a proposal to pause: the opponent; a declined one: the proposer; a
//     pause agreed, and its end: both players and the channel;
//   - a player's vacation, and its end: the opponent; an end before its
//     time, or on time in a turn or set-up begun before the vacation and
//     outside a pause, the player too, when they owe a move or a set-up;
//   - an ending other than by a move (resignation, time, agreement): both
//     players and the channel (a game ended by a move is told by the move);
//   - any ending: then the channel gets the finale (reveal and replay);
//   - no result (abandoned): both players and the channel;
//   - a reminder recorded (MarkReminded): each player who owes an action;
//   - the channel back within the bot's reach (ChannelBack): the channel,
//     the board as it stands (its players are told once it is posted);
//   - time nobody ran the timers given back (ActAway): each player who
//     owes an action.
//
// at is the time of the change.
func Notices(old, m *Match, at time.Time) []Notice {
	var out []Notice
	add := func(e Event, to Audience, log int, clock bool) {
		out = append(out, Notice{Match: m.ID, Event: e, To: to, Log: log, At: second(at), StartsClock: clock, Practice: m.Practice()})
	}
	everyone := func(e Event, log int, clockFor Audience, clock bool) {
		for _, to := range []Audience{AudienceRed, AudienceBlue, AudiencePublic} {
			add(e, to, log, clock && to == clockFor)
		}
	}
	if old == nil {
		// The set-up time starts when both invites have arrived.
		add(EventCreated, AudienceRed, 0, m.Phase == PhaseSetup)
		add(EventCreated, AudienceBlue, 0, m.Phase == PhaseSetup)
		if m.Announce {
			add(EventCreated, AudiencePublic, 0, false)
		}
		return out
	}
	if old.Phase == PhaseSetup && m.Phase != PhaseSetup && m.Phase != PhaseAbandoned {
		// At the log as it stands: vacations taken during the set-ups may be in it.
		everyone(EventStarted, len(m.Log), AudienceRed, m.Phase == PhasePlaying)
	}
	for i := len(old.Log); i < len(m.Log); i++ {
		a := m.Log[i]
		switch a.Kind {
		case ActMove:
			// The side now to move is told by the last move's notice, which starts its clock.
			last := i == len(m.Log)-1
			everyone(EventMove, i+1, Audience(a.Side.Opponent()), last && m.Phase == PhasePlaying)
		case ActOfferDraw:
			add(EventDrawOffered, Audience(a.Side.Opponent()), i+1, false)
		case ActDeclineDraw:
			// The engine accepted the decline, so the latest offer was standing.
			// Taking back one's own offer tells nobody.
			for j := i - 1; j >= 0; j-- {
				if m.Log[j].Kind == ActOfferDraw {
					if m.Log[j].Side != a.Side {
						add(EventDrawDeclined, Audience(m.Log[j].Side), i+1, false)
					}
					break
				}
			}
		case ActResign, ActTimeOut, ActAcceptDraw, ActAward:
			everyone(EventEnded, i+1, 0, false)
		case ActGiveTime:
			add(EventTimeGiven, Audience(a.Side.Opponent()), i+1, false)
		case ActOfferPause:
			add(EventPauseOffered, Audience(a.Side.Opponent()), i+1, false)
		case ActDeclinePause:
			for j := i - 1; j >= 0; j-- {
				if m.Log[j].Kind == ActOfferPause {
					if m.Log[j].Side != a.Side {
						add(EventPauseDeclined, Audience(m.Log[j].Side), i+1, false)
					}
					break
				}
			}
		case ActAcceptPause:
			everyone(EventPaused, i+1, 0, false)
		case ActResume:
			everyone(EventResumed, i+1, 0, false)
		case ActVacation:
			add(EventVacation, Audience(a.Side.Opponent()), i+1, false)
		case ActAway:
			for side := range 2 {
				if m.Owes(game.Side(side)) {
					add(EventAway, Audience(side), i+1, false)
				}
			}
		case ActVacationEnd:
			add(EventVacationOver, Audience(a.Side.Opponent()), i+1, false)
			// Ended early while the player owes a move or a set-up, by
			// vacation end:true or a move in another match: their
			// deadline is now earlier than their board said. Ended on
			// time, outside a pause (whose end tells it), in a turn their
			// board or invite gave before the vacation moved it on: they
			// were never told the deadline it has now.
			early := a.At.Before(old.VacationUntil(a.Side))
			if m.Owes(a.Side) && (early || m.PausedUntil().IsZero() && turnBeforeVacation(m, m.Log[:i], a.Side)) {
				add(EventVacationOver, Audience(a.Side), i+1, false)
			}
		}
	}
	for _, o := range settledOffers(old, m) {
		n := Notice{Match: m.ID, Event: EventOfferSettled, To: Audience(m.Log[o.offer-1].Side.Opponent()), Log: len(m.Log), At: second(at), Practice: m.Practice(), Offer: o.offer, Reason: o.how}
		out = append(out, n)
	}
	if old.Phase != PhaseFinished && m.Phase == PhaseFinished {
		add(EventFinale, AudiencePublic, len(m.Log), false)
	}
	if old.Phase.Active() && m.Phase == PhaseAbandoned {
		everyone(EventAbandoned, len(m.Log), 0, false)
	}
	if old.PublicGone && !m.PublicGone && m.Phase.Active() {
		add(EventChannelBack, AudiencePublic, len(m.Log), false)
	}
	// A reminder: MarkReminded counted one more, with nothing else changed.
	if m.Phase.Active() && m.Phase == old.Phase && len(m.Log) == len(old.Log) &&
		m.Deadline.Equal(old.Deadline) && m.RemindersSent > old.RemindersSent {
		for side := range 2 {
			if m.Owes(game.Side(side)) {
				add(EventReminder, Audience(side), len(m.Log), false)
			}
		}
	}
	return out
}

// turnBeforeVacation reports whether the turn or set-up under way at the end
// of log, m's log so far, began before side's last vacation in it: neither
// a move, nor the game's start, nor a pause's end (each told side its
// deadline) came after the vacation's start, so what told side its
// deadline came before it.
func turnBeforeVacation(m *Match, log []Action, side game.Side) bool {
	for i := len(log) - 1; i >= 0; i-- {
		switch a := log[i]; {
		case a.Kind == ActMove, a.Kind == ActResume:
			return false
		case a.Kind == ActVacation && a.Side == side:
			return !m.Started.After(a.At)
		}
	}
	return false
}

// Owes reports whether side must act for the match to go on: confirm a
// set-up, or move. It is the one rule for who is reminded, and who may be
// told their time is short.
func (m *Match) Owes(side game.Side) bool {
	switch m.Phase {
	case PhaseSetup:
		return m.Setups[side].Status != SetupConfirmed
	case PhasePlaying:
		return m.ToMove() == side
	}
	return false
}

// noticeRecord is a Notice as stored in the outbox (JSON).
type noticeRecord struct {
	V         int              `json:"v"`
	ID        uint64           `json:"id"`
	Match     uint64           `json:"match,omitempty"`
	Event     string           `json:"event"`
	To        string           `json:"to"`
	Log       int              `json:"log,omitempty"`
	Version   uint64           `json:"ver,omitempty"`
	At        int64            `json:"at"`
	Clock     bool             `json:"clock,omitempty"`
	Challenge *challengeRecord `json:"challenge,omitempty"`
	Reason    string           `json:"reason,omitempty"`
	Offer     int              `json:"offer,omitempty"`
	Follower  string           `json:"follower,omitempty"`
	Player    string           `json:"player,omitempty"`
	Practice  bool             `json:"practice,omitempty"`
	Tourney   uint64           `json:"tournament,omitempty"`
	After     uint64           `json:"after,omitempty"` // read by PostgreSQL's queries too
	Until     []uint64         `json:"until,omitempty"` // read by PostgreSQL's queries too
	Sent      int              `json:"sent,omitempty"`
	Attempts  int              `json:"attempts,omitempty"`
	NextTry   int64            `json:"next"`
}

func encodeNotice(n *Notice) ([]byte, error) {
	rec := noticeRecord{
		V: noticeRecordVersion, ID: n.ID, Match: uint64(n.Match), Event: n.Event.String(), To: n.To.String(),
		Log: n.Log, Version: n.Version, At: unixTime(n.At), Clock: n.StartsClock, Reason: n.Reason, Offer: n.Offer, Follower: n.Follower, Player: n.Player, Practice: n.Practice,
		Tourney: uint64(n.Tournament), After: uint64(n.After), Sent: n.Sent, Attempts: n.Attempts, NextTry: unixTime(n.NextTry),
	}
	for _, id := range n.Until {
		rec.Until = append(rec.Until, uint64(id))
	}
	if n.Challenge != nil {
		c := challengeToRecord(n.Challenge)
		rec.Challenge = &c
	}
	return json.Marshal(&rec)
}

func decodeNotice(data []byte) (*Notice, error) {
	var rec noticeRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "notice", noticeRecordVersion); err != nil {
		return nil, err
	}
	n := &Notice{
		ID: rec.ID, Match: MatchID(rec.Match), Log: rec.Log, Version: rec.Version, At: fromUnix(rec.At), StartsClock: rec.Clock,
		Reason: rec.Reason, Offer: rec.Offer, Follower: rec.Follower, Player: rec.Player, Practice: rec.Practice, Tournament: TournamentID(rec.Tourney), After: MatchID(rec.After), Sent: rec.Sent, Attempts: rec.Attempts, NextTry: fromUnix(rec.NextTry),
	}
	for _, id := range rec.Until {
		n.Until = append(n.Until, MatchID(id))
	}
	var err error
	if n.Event, err = parseEvent(rec.Event); err != nil {
		return nil, fmt.Errorf("notice %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	if n.To, err = parseAudience(rec.To); err != nil {
		return nil, fmt.Errorf("notice %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	if rec.Challenge != nil {
		if n.Challenge, err = challengeFromRecord(rec.Challenge); err != nil {
			return nil, fmt.Errorf("notice %d: %w", rec.ID, err)
		}
	}
	return n, nil
}

// validNotice checks what a recorded notice must hold.
func validNotice(n *Notice) error {
	switch {
	case n.Event == 0 || int(n.Event) >= len(eventNames):
		return fmt.Errorf("a notice needs an event: %w", ErrInvalid)
	case int(n.To) >= len(audienceNames):
		return fmt.Errorf("a notice needs an audience: %w", ErrInvalid)
	case (n.Match == 0 && n.Challenge == nil) == (n.Tournament == 0):
		return fmt.Errorf("a notice is about a match, a challenge or a tournament: %w", ErrInvalid)
	case (n.Tournament != 0) != n.Event.ofTournament():
		return fmt.Errorf("a tournament's notice, and only one, tells of a tournament's event: %w", ErrInvalid)
	case (n.To == AudienceOrganiser) != (n.Event == EventTourneyNoReach):
		return fmt.Errorf("only the organiser is told an announcement could not be posted: %w", ErrInvalid)
	case n.Tournament != 0 && n.To != AudiencePublic && n.To != AudienceOrganiser && n.To != AudiencePlayer:
		return fmt.Errorf("a tournament's notice is for its channel, its organiser or a player: %w", ErrInvalid)
	case (n.To == AudiencePlayer) != (n.Player != "") || (n.To == AudiencePlayer && n.Tournament == 0):
		return fmt.Errorf("a tournament player's notice, and only one, names the player: %w", ErrInvalid)
	case n.After != 0 && (n.Event != EventRoundResult || n.To != AudiencePublic):
		return fmt.Errorf("only a tournament's announcement of a result waits for its game's: %w", ErrInvalid)
	case len(n.Until) > 0 && (n.Event != EventRoundClosed && n.Event != EventWithdrawn && n.Event != EventTourneyCancel || n.To != AudiencePublic):
		return fmt.Errorf("only a tournament's announcement of a deadline, a withdrawal or a cancel waits for the games it called off: %w", ErrInvalid)
	case n.At.IsZero():
		return fmt.Errorf("a notice needs its time: %w", ErrInvalid)
	case (n.Event == EventOfferSettled) != (n.Offer > 0) || n.Offer > n.Log || (n.Offer > 0 && n.Match == 0):
		return fmt.Errorf("a settled offer's notice, and only one, names the offer of its match: %w", ErrInvalid)
	case (n.To == AudienceFollower) != (n.Follower != ""):
		return fmt.Errorf("a follower's notice, and only one, names the follower: %w", ErrInvalid)
	case n.To == AudienceFollower && (n.Match == 0 || n.StartsClock):
		return fmt.Errorf("a follower's notice is about a match and starts no clock: %w", ErrInvalid)
	}
	return nil
}

// Clone returns a copy of n that shares nothing with it.
func (n *Notice) Clone() *Notice {
	c := *n
	if n.Challenge != nil {
		ch := *n.Challenge
		c.Challenge = &ch
	}
	c.Until = slices.Clone(n.Until)
	return &c
}
