package storage

import (
	"fmt"
	"time"

	"github.com/strategobot/strategobot/game"
)

// The rules of each change to a match (and of a challenge's end), which every
// backend applies inside its transaction: see backend.go for the path of a
// change around them.

// Changes are the rules of each change to a match, applied by a backend to a
// copy of the stored match inside its transaction; each returns the game it
// rebuilt, if any, for PrepareSave. Reminders is the reminder schedule of
// a turn that has the time it is given (each backend's Options.Reminders;
// see Match.reminderLeads); nil means none.
type Changes struct {
	Reminders func(turn time.Duration) []time.Duration
}

func (c Changes) reminders() func(time.Duration) []time.Duration {
	if c.Reminders == nil {
		return noReminders
	}
	return c.Reminders
}

func noReminders(time.Duration) []time.Duration { return nil }

// NewMatch returns the match CreateMatch stores for m, still without its ID:
// version 0 (PrepareSave makes it 1), a secret drawn when m has none, on a
// game clock the clock's time on both sides when m gives none (as
// AcceptChallenge starts them: a tournament's game is made so), and in
// set-up a deadline of Created + MoveTime when m has none.
func (c Changes) NewMatch(m *Match) (*Match, error) {
	if m.Created.IsZero() {
		return nil, fmt.Errorf("a match needs its creation time: %w", ErrInvalid)
	}
	n := m.Clone()
	n.ID, n.Version = 0, 0
	if n.Secret.IsZero() {
		var err error
		if n.Secret, err = NewSecret(); err != nil {
			return nil, err
		}
	}
	if n.Clock.On() && n.Left == [2]time.Duration{} {
		n.Left = [2]time.Duration{n.Clock.Base, n.Clock.Base}
	}
	if n.Phase == PhaseSetup && n.Deadline.IsZero() {
		n.setDeadline(n.Created.Add(n.MoveTime), c.reminders())
	}
	return n, nil
}

// AcceptChallenge returns the match, in set-up and still without its ID, that
// opponent's acceptance of ch at time at makes, or the reason it is refused
// (ErrNotInvited, ErrExpired, ErrInvalid). The caller deletes ch in the same
// transaction.
func (c Changes) AcceptChallenge(ch *Challenge, opponent Player, challengerSide game.Side, at time.Time) (*Match, error) {
	switch {
	case opponent.UserID == ch.Challenger.UserID:
		return nil, fmt.Errorf("you cannot accept your own challenge: %w", ErrInvalid)
	case ch.Opponent.UserID != "" && ch.Opponent.UserID != opponent.UserID:
		return nil, ErrNotInvited
	case !at.Before(ch.Expires):
		return nil, ErrExpired
	case challengerSide > game.Blue:
		return nil, fmt.Errorf("unknown side %d: %w", challengerSide, ErrInvalid)
	}
	m := &Match{
		GuildID: ch.GuildID, ChannelID: ch.ChannelID, LiveMessage: ch.MessageID, Rules: ch.Rules, MoveTime: ch.MoveTime, Casual: ch.Casual,
		Clock: ch.Clock, Left: [2]time.Duration{ch.Clock.Base, ch.Clock.Base},
		Phase: PhaseSetup, Created: second(at),
	}
	m.Players[challengerSide] = ch.Challenger
	m.Players[challengerSide.Opponent()] = opponent
	var err error
	if m.Secret, err = NewSecret(); err != nil {
		return nil, err
	}
	m.setDeadline(m.Created.Add(m.MoveTime), c.reminders())
	return m, nil
}

// UpdateMatch applies a caller's fn to m, keeping m's ID and Version.
func (c Changes) UpdateMatch(m *Match, fn func(m *Match) error) error {
	id, version := m.ID, m.Version
	if err := fn(m); err != nil {
		return err
	}
	m.ID, m.Version = id, version
	return nil
}

// ApplyMove plays side's move at time at: see Store.ApplyMove. It returns the
// game after the move. A move dated before the log's last action is
// recorded at that one's time, as Act records one (notBeforeLog).
func (c Changes) ApplyMove(m *Match, side game.Side, move game.Move, at time.Time) (*game.Game, error) {
	g, err := playable(m)
	if err != nil {
		return nil, err
	}
	at = m.notBeforeLog(at)
	a := Action{Kind: ActMove, Side: side, Move: move, At: at}
	if err := m.lateAction(a); err != nil {
		return nil, err
	}
	if _, err := a.apply(g); err != nil {
		return nil, err
	}
	m.chargeClock(int(side), at)
	m.Log = append(m.Log, a)
	m.afterAction(g, at, c.reminders())
	if m.Phase == PhasePlaying {
		m.setDeadline(at.Add(m.TurnTime(int(side.Opponent()))), c.reminders())
	}
	return g, nil
}

// lateAction refuses an action a that comes too late: at or after the
// deadline of a tournament match's round (roundOver), or once the time of
// the side to move ran out (timeUp).
func (m *Match) lateAction(a Action) error {
	if err := m.roundOver(a.Kind, a.At); err != nil {
		return err
	}
	return m.timeUp(a)
}

// roundOver refuses, in a tournament's match still on, an action of kind
// taken at time at, at or after the deadline of its round (RoundEnds),
// before the timers closed the round: had they been on time, the match
// would have been called off then, and the game is scored as one still on
// at the deadline. An action by time is taken at the time it was due: a
// time-out at the deadline of the side to move, a set-up called off at the
// set-up deadline, so that a time that ran out before the round's
// deadline still counts, however late the timers record it; a player's
// action after such a time ran out is timeUp's to refuse. The end of a
// pause or of a vacation changes nothing the round's deadline scores.
func (m *Match) roundOver(kind ActionKind, at time.Time) error {
	if m.RoundEnds.IsZero() || !m.Phase.Active() {
		return nil
	}
	switch kind {
	case ActResume, ActVacationEnd:
		return nil
	case ActTimeOut:
		at = m.Deadline
	case ActAway:
		// Time given back at or after the round's deadline gives nothing:
		// that deadline is the same for everyone, and the bot moves it on
		// by the time away first (Tournament.GiveAway), so that one still
		// passed passed while the timers ran.
	default:
		if m.Phase == PhasePlaying && m.ClockRunning() && !m.Practice() && m.Deadline.Before(m.RoundEnds) && !second(at).Before(m.Deadline) {
			return nil // the time ran out first: see timeUp
		}
	}
	if second(at).Before(m.RoundEnds) {
		return nil
	}
	return fmt.Errorf("match %d: its round's deadline passed at %s: %w", m.ID, m.RoundEnds.Format(time.RFC3339), ErrRoundOver)
}

// timeUp refuses a player's action a once the time of the side to move ran
// out, before the timers recorded it: the deadline is the rules', not the
// timers' pass, which may come late (a busy or restarted bot, another
// process leading). So in set-up, once the set-up time ran out, before the
// timers called the match off (ErrSetupTimeUp): a set-up confirmed then
// would start a game the rules end, and a vacation taken then would move
// on a deadline that passed. The timers' own actions (the time-out, the
// end of a pause or of a vacation) and a moderator's award go through; so
// does a practice match, in which the computer never loses on time.
func (m *Match) timeUp(a Action) error {
	switch a.Kind {
	case ActTimeOut, ActResume, ActVacationEnd, ActAward, ActAway:
		return nil
	}
	if !m.Phase.Active() || !m.ClockRunning() || m.Practice() || second(a.At).Before(m.Deadline) {
		return nil
	}
	if m.Phase == PhaseSetup {
		return fmt.Errorf("match %d: the set-up time ran out at %s: %w", m.ID, m.Deadline.Format(time.RFC3339), ErrSetupTimeUp)
	}
	return fmt.Errorf("match %d: time ran out at %s: %w", m.ID, m.Deadline.Format(time.RFC3339), ErrTimeUp)
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

// Act records an action other than a move: see Store.Act.
func (c Changes) Act(m *Match, a Action) (*game.Game, error) {
	if a.Kind == ActMove {
		return nil, fmt.Errorf("moves go through ApplyMove: %w", ErrInvalid)
	}
	gift := a.Gift // checked, not kept
	a.Gift = 0
	if a.Kind == ActAway {
		return c.away(m, a) // in set-up too
	}
	if m.Phase == PhaseSetup && vacationAction(a.Kind) {
		return nil, c.actInSetup(m, a)
	}
	g, err := playable(m)
	if err != nil {
		return nil, err
	}
	a.At, a.Move = m.notBeforeLog(a.At), game.Move{}
	if a.Kind == ActTimeOut {
		if m.ClockPending {
			return nil, fmt.Errorf("match %d: the player to move has not been told yet, so their time has not started: %w", m.ID, ErrNotDue)
		}
		if a.At.Before(m.Deadline) {
			return nil, fmt.Errorf("match %d: time runs out at %s: %w", m.ID, m.Deadline.Format(time.RFC3339), ErrNotDue)
		}
		a.Side = g.ToMove()
	}
	if err := m.lateAction(a); err != nil {
		return nil, err
	}
	if err := m.checkPause(&a); err != nil {
		return nil, err
	}
	if err := m.checkVacation(a); err != nil {
		return nil, err
	}
	stopped := m.StoppedUntil()
	if a.Kind == ActResume {
		a.Side = g.ToMove()
	}
	if a.Kind == ActGiveTime {
		if m.Phase != PhasePlaying {
			return nil, ErrGameOver
		}
		given := m.GiftsBy(a.Side)
		switch {
		case gift == 0:
		case gift <= given:
			return nil, fmt.Errorf("match %d: %s's gift %d: %w", m.ID, a.Side, gift, ErrGiftGiven)
		case gift > given+1:
			return nil, fmt.Errorf("match %d: %s's gift %d after %d: %w", m.ID, a.Side, gift, given, ErrInvalid)
		}
		if given >= MaxGifts {
			return nil, fmt.Errorf("match %d: %s gave time %d times: %w", m.ID, a.Side, MaxGifts, ErrNoGiftsLeft)
		}
	}
	if _, err := a.apply(g); err != nil {
		return nil, err
	}
	m.Log = append(m.Log, a)
	m.afterAction(g, a.At, c.reminders())
	switch a.Kind {
	case ActGiveTime:
		m.giveTime(a.Side, g.ToMove(), a.At, c.reminders())
	case ActAcceptPause, ActVacation, ActVacationEnd:
		m.moveStop(stopped, a.At)
	}
	return g, nil
}

// notBeforeLog is at, to the second, or the time of the log's last action
// when at is before it: the log is in the order of its times, which
// VacationHeldUntil, moveStop and the bot read it by. A caller that took
// its time a while before acting (a pass of the timers over many matches)
// may come after an action made meanwhile: its action is the later one.
func (m *Match) notBeforeLog(at time.Time) time.Time {
	at = second(at)
	if n := len(m.Log); n > 0 && at.Before(m.Log[n-1].At) {
		return m.Log[n-1].At
	}
	return at
}

// actInSetup records a vacation, or its end, in a match whose set-ups are
// not both in: the set-up deadline moves as it does a turn's (moveStop),
// and a vacation is refused once it passed (timeUp). There is no game to
// replay yet.
func (c Changes) actInSetup(m *Match, a Action) error {
	a.At, a.Move = m.notBeforeLog(a.At), game.Move{}
	if err := m.lateAction(a); err != nil {
		return err
	}
	if err := m.checkVacation(a); err != nil {
		return err
	}
	stopped := m.StoppedUntil()
	m.Log = append(m.Log, a)
	m.moveStop(stopped, a.At)
	return nil
}

// SetSetup stores a draft or confirms a set-up: see Store.SetSetup.
func (c Changes) SetSetup(m *Match, side game.Side, setup game.Setup, status SetupStatus, at time.Time) (*game.Game, error) {
	if side > game.Blue || (status != SetupDraft && status != SetupConfirmed) {
		return nil, fmt.Errorf("SetSetup takes a side and a draft or confirmed status: %w", ErrInvalid)
	}
	switch {
	case m.Phase == PhaseFinished || m.Phase == PhaseAbandoned:
		return nil, ErrGameOver
	case m.Phase != PhaseSetup || m.Setups[side].Status == SetupConfirmed:
		return nil, ErrSetupConfirmed
	}
	if err := m.roundOver(ActMove, at); err != nil {
		return nil, err
	}
	if status == SetupConfirmed {
		// A draft changes nothing the call-off would decide: it is kept.
		if err := m.timeUp(Action{Kind: ActMove, Side: side, At: at}); err != nil {
			return nil, err
		}
		if err := setup.Validate(m.Rules); err != nil {
			// The reason describes this player's own set-up: fit to show to
			// them, never to log or to show anyone else.
			return nil, fmt.Errorf("your set-up does not fit the rules: %w", err)
		}
	}
	m.Setups[side] = SideSetup{Status: status, Setup: setup, At: second(at)}
	if m.Setups[side.Opponent()].Status != SetupConfirmed || status != SetupConfirmed {
		// A confirmed set-up's own invite no longer matters: the set-up
		// time may start now, if the other's has arrived.
		m.startSetupClock(at, c.reminders())
		return nil, nil
	}
	g, err := m.Game()
	if err != nil {
		return nil, err
	}
	m.Started = second(at)
	if m.Clock.On() && m.Left == [2]time.Duration{} {
		// Stored before NewMatch gave a created match its clock's time
		// (a tournament's game): nobody has played, and it is all theirs.
		m.Left = [2]time.Duration{m.Clock.Base, m.Clock.Base}
	}
	m.afterAction(g, at, c.reminders())
	if m.Phase == PhasePlaying {
		// Red's turn ends after a vacation taken during the set-ups, too.
		m.setDeadline(m.turnEnds(at), c.reminders())
	}
	return g, nil
}

// Abandon ends an active match with no result, for the reason why.
func (c Changes) Abandon(m *Match, at time.Time, why CallOff) error {
	if !m.Phase.Active() {
		return ErrGameOver
	}
	if why == CallOffLateSetup && !m.SetupOverdue(at) {
		return fmt.Errorf("match %d: no set-up is overdue at %s: %w", m.ID, at.UTC().Format(time.RFC3339), ErrNotDue)
	}
	switch why {
	case CallOffLateSetup:
		// Overdue since the set-up deadline: the round's, if it came
		// first, scores the set-ups.
		if err := m.roundOver(ActTimeOut, at); err != nil {
			return err
		}
	case CallOffModerator:
		if err := m.roundOver(ActAward, at); err != nil {
			return err
		}
	}
	m.Phase, m.Ended, m.CalledOff = PhaseAbandoned, second(at), why
	m.setDeadline(time.Time{}, c.reminders())
	return nil
}

// MarkReminded records the reminder due at RemindAt as sent and plans the next
// (ErrNotDue before its time, and while the side to move, or in set-up a
// player, has not been told; ErrRoundOver for one due at or after a
// tournament match's round deadline, which is never sent: the match is
// called off then). The later reminders of the schedule due by at as well
// (the bot was down past them) count as sent with it: each would come at
// the same moment and say the same.
func (c Changes) MarkReminded(m *Match, at time.Time) error {
	if m.RemindAt.IsZero() || at.Before(m.RemindAt) || m.ClockPending {
		return fmt.Errorf("match %d has no reminder due: %w", m.ID, ErrNotDue)
	}
	if err := m.roundOver(ActMove, m.RemindAt); err != nil {
		return err // due once the match was to be called off: never sent
	}
	for m.RemindersSent++; ; m.RemindersSent++ {
		m.planReminder(c.reminders())
		if m.RemindAt.IsZero() || m.RemindAt.After(at) {
			return nil
		}
	}
}

// ChannelBack records that the bot may post in the match's channel again
// (see Store.ChannelBack): ErrNotDue unless the channel is out of reach and
// was not deleted, ErrGameOver once the match is over.
func (c Changes) ChannelBack(m *Match) error {
	if !m.PublicGone || m.PublicDeleted {
		return fmt.Errorf("match %d: its channel is not out of reach, or was deleted: %w", m.ID, ErrNotDue)
	}
	if !m.Phase.Active() {
		return fmt.Errorf("match %d: %w", m.ID, ErrGameOver)
	}
	m.PublicGone, m.PublicLost, m.PublicBack = false, time.Time{}, m.Version
	return nil
}

// StartClock returns the match as it is once n, a notice that StartsClock, was
// done at time at: the clock of the side to move runs, its deadline counted
// from at; the version does not change, since nothing a player acted on did,
// and the menus they hold stay valid. In play n is the turn's board (a set-up
// invite done once the game began starts nothing). In set-up n is a set-up invite: it is
// no longer pending, its arrival is kept (InviteArrived), and once no
// invite to a side that owes its set-up is, the set-up time runs from at. It returns false when there is nothing to
// start: the game has moved on, or the clock already runs. The caller
// writes the result as it is (no PrepareSave), in the transaction that
// removes n.
func (c Changes) StartClock(old *Match, n *Notice, at time.Time) (*Match, bool) {
	if !n.StartsClock || n.Match != old.ID || !old.ClockPending {
		return nil, false
	}
	if old.Phase == PhaseSetup {
		if n.Event != EventCreated || n.To > AudienceBlue || !old.InvitePending[n.To] {
			return nil, false
		}
		m := old.Clone()
		m.InvitePending[n.To], m.InviteArrived[n.To] = false, second(at)
		m.startSetupClock(at, c.reminders())
		return m, true
	}
	// Only the board of the turn starts it: a set-up invite done once the
	// game began (both set-ups sent before it arrived) starts nothing, the
	// first board being still on its way behind it.
	if old.Phase != PhasePlaying || !turnNotice(n) || n.Log > len(old.Log) || hasMove(old.Log[n.Log:]) {
		return nil, false
	}
	m := old.Clone()
	m.ClockPending, m.ClockStarted = false, second(at)
	m.setDeadline(m.turnEnds(at), c.reminders())
	return m, true
}

// turnNotice reports whether n tells a player a turn of the game: the first
// board, or a move's.
func turnNotice(n *Notice) bool {
	return n.Event == EventStarted || n.Event == EventMove
}

// startSetupClock starts the set-up time at time at once no side that owes
// its set-up waits for its invite: the set-ups are due the move time after
// at (after the later vacation, if one is under way).
func (m *Match) startSetupClock(at time.Time, reminders func(time.Duration) []time.Duration) {
	if !m.ClockPending || m.setupWaits() {
		return
	}
	m.ClockPending, m.InvitePending, m.ClockStarted = false, [2]bool{}, second(at)
	m.setDeadline(m.turnEnds(at), reminders)
}

// setupWaits reports whether the set-up clock still waits for the invite of a
// side that owes its set-up. A side that confirmed its set-up needs no
// invite: the computer's in a practice match, or a player who sent theirs
// by a command before the invite came.
func (m *Match) setupWaits() bool {
	for side := game.Red; side <= game.Blue; side++ {
		if m.InvitePending[side] && m.Owes(side) {
			return true
		}
	}
	return false
}

// ExpireChallenge returns the notice that challenge ch, whose time ran out,
// owes when it is removed at time at (ErrNotDue before it expires). The
// caller deletes ch and records the notice in one transaction.
func (c Changes) ExpireChallenge(ch *Challenge, at time.Time) (Notice, error) {
	if at.Before(ch.Expires) {
		return Notice{}, fmt.Errorf("challenge %d expires at %s: %w", ch.ID, ch.Expires.Format(time.RFC3339), ErrNotDue)
	}
	return Notice{Event: EventChallengeExpired, To: AudiencePublic, At: at, Challenge: ch}, nil
}
