package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// Vacations: /stratego vacation days:N stops the member's clocks in all
// their correspondence matches (a day or more a move) for N days, within a
// yearly allowance the servers set (/stratego server vacation_days): the
// smallest of those of the servers it stops a clock in, and of the one it is
// asked in. A server may turn vacations off (0 days): its matches then go on,
// the member is told so, and its allowance bounds nothing; when every server
// concerned has them off, the member is refused. A match still in set-up
// waits too: its set-up deadline moves on while either player is away.
// Their opponents are told when it starts and when it ends; it ends early
// when the member moves or says `/stratego vacation end:true`, and the days
// not taken come back to the allowance. Tournament games go on: their
// rounds have deadlines that would cost both players. A vacation costs days
// only while it stops a clock: one that would stop none (no match, or only
// matches that go on, or that ended or ran out of time meanwhile) is not
// taken, and one whose last stopped match ends is over then.

// The texts of vacations.
const (
	txtVacationDaysNeeded     = "Say how many days: `/stratego vacation days:7`. You have %[1]s of vacation left this year."
	txtVacationTooLong        = "You have %[1]s of vacation left this year (%[2]d in all); ask for at most that."
	txtVacationTooLongYearEnd = "You may take at most %[1]s from now: what is left of this year's allowance, then days of next year's (%[2]d a year)."
	txtVacationUnderway       = "You are on vacation already, until <t:%[1]s:f>. End it with `/stratego vacation end:true`."
	txtVacationStarted        = "You are on vacation until <t:%[1]s:f> (<t:%[1]s:R>): your clock stops in your correspondence matches (%[2]d). A move in any of them ends the vacation. Days left this year: %[3]d."
	txtVacationNone           = "You are not on vacation."
	txtVacationEnded          = "Welcome back: your vacation is over and your clocks run again."
	txtVacationBack           = "Welcome back: your vacation is over."
	txtVacationBackMove       = "Match #%[1]s: your move is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtVacationBackSetup      = "Match #%[1]s: your set-up is due <t:%[2]s:R> (<t:%[2]s:f>)."
	txtVacationBackPaused     = "Match #%[1]s is paused by agreement until <t:%[2]s:f>."
	txtVacationOverMove       = "Your vacation is over: your move is due <t:%[1]s:R> (<t:%[1]s:f>)."
	txtVacationOverSetup      = "Your vacation is over: your set-up is due <t:%[1]s:R> (<t:%[1]s:f>)."
	txtVacationNotice         = "%[1]s is on vacation until <t:%[2]s:f> (<t:%[2]s:R>): their clock in this match stops until then."
	txtVacationOver           = "%[1]s is back from vacation."
	txtVacationLine           = "%[1]s is on vacation until <t:%[2]s:f>"
	txtVacationLineYou        = "You are on vacation until <t:%[1]s:f>"
	txtHistoryVacation        = "%[1]s went on vacation for %[2]s."
	txtServerVacation         = "vacation allowance: %[1]s a year"
	txtVacationTournament     = "Your tournament games (%[1]d) go on: each round has a deadline."
	txtServerVacationOff      = "vacations: off (clocks keep running while a member is away)"
	txtVacationOff            = "The servers you play on have turned vacations off, so your clocks keep running while you are away. You can still ask an opponent to pause a match: `/stratego pause days:3`."
	txtVacationElsewhere      = "Your matches on servers that have turned vacations off (%[1]d) go on: keep moving there."
	txtVacationSetupDue       = "The set-ups of this match are now due <t:%[1]s:f> (<t:%[1]s:R>)."
	txtVacationDaysOrEnd      = "Use either `days` or `end:true`, not both: `/stratego vacation days:7` starts a vacation, `/stratego vacation end:true` ends one."
	txtVacationNothing        = "You have no correspondence match in which a vacation would stop your clock, so no days were taken."
)

// onVacation starts or ends the member's vacation.
func (b *Bot) onVacation(ctx context.Context, i *discordgo.Interaction, opts options) {
	p := printerOf(i)
	user := userOf(i).ID
	now := b.now()
	if end, _ := opts.boolean(optEnd); end {
		if _, days := opts.integer(optDays); days {
			b.tell(i, p.Sprintf(txtVacationDaysOrEnd))
			return
		}
		if !b.deferPrivate(i) {
			return
		}
		ended, back := b.endVacation(ctx, user, now)
		if !ended {
			b.finish(i, p.Sprintf(txtVacationNone))
			return
		}
		b.finish(i, welcomeBack(p, back, user, now))
		return
	}
	settings := b.settingsOf(ctx, user)
	if v, on := settings.VacationSince(now); on {
		b.tell(i, p.Sprintf(txtVacationUnderway, unix(v.End)))
		return
	}
	all, inTournaments, err := b.vacationMatches(ctx, user)
	if err != nil {
		// Not "no match to stop": the list is unknown, and nothing is taken.
		b.tell(i, b.explain(p, err, "vacation"))
		return
	}
	allowance, matches, elsewhere := b.vacationAllowance(ctx, i.GuildID, all)
	if allowance == 0 {
		b.tell(i, p.Sprintf(txtVacationOff))
		return
	}
	thisYear := max(0, allowance-settings.VacationDaysUsed(now))
	longest := settings.VacationDaysLeft(now, allowance) // beyond thisYear near the new year
	days, ok := opts.integer(optDays)
	switch {
	case !ok:
		b.tell(i, p.Sprintf(txtVacationDaysNeeded, p.Sprintf(txtDays, thisYear)))
		return
	case int(days) > longest && longest > thisYear:
		b.tell(i, p.Sprintf(txtVacationTooLongYearEnd, p.Sprintf(txtDays, longest), allowance))
		return
	case int(days) > longest:
		b.tell(i, p.Sprintf(txtVacationTooLong, p.Sprintf(txtDays, thisYear), allowance))
		return
	}
	goOn := func(text string) string { // what goes on while the member is away
		if elsewhere > 0 {
			text += "\n" + p.Sprintf(txtVacationElsewhere, elsewhere)
		}
		if inTournaments > 0 {
			text += "\n" + p.Sprintf(txtVacationTournament, inTournaments)
		}
		return text
	}
	if len(matches) == 0 {
		b.tell(i, goOn(p.Sprintf(txtVacationNothing)))
		return
	}
	if !b.deferPrivate(i) {
		return
	}
	// The vacation is recorded before it stops any clock, so that a match
	// beginning meanwhile carries it; taken back if it stops none.
	taken, err := b.updatePlayer(ctx, user, func(s *storage.PlayerSettings) error {
		// Asked twice at once (a double press, two processes): the
		// settings read above did not show the other, the transaction does,
		// begun after now too (its request read its time later, maybe in
		// the next second, and recorded first).
		if v, on := s.VacationSince(now); on {
			return friendlyf(txtVacationUnderway, unix(v.End))
		}
		return s.StartVacation(now, int(days))
	})
	if err != nil {
		b.finish(i, b.explain(p, err, "vacation"))
		return
	}
	stopped := 0
	for _, m := range matches {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		changed, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: side, Days: int(days), At: now})
		if err != nil {
			switch {
			case errors.Is(err, storage.ErrTimeUp):
				b.nudgeTimers() // lost on time already: the timers record it now
			case !errors.Is(err, storage.ErrGameOver):
				b.log.Warn("starting a vacation in a match failed", "match", m.ID, "error", err)
			}
			continue
		}
		stopped++
		b.afterChange(ctx, changed, nil)
	}
	if stopped == 0 {
		// Each match ended, or ran out of time, before it could stop: the
		// vacation stops nothing, and costs nothing.
		if _, err := b.updatePlayer(ctx, user, func(s *storage.PlayerSettings) error {
			if !s.CancelVacation(now) {
				return fmt.Errorf("taking back a vacation that stopped no clock: none began at %v: %w", now, storage.ErrNotFound)
			}
			return nil
		}); err != nil {
			b.finish(i, b.explain(p, err, "vacation"))
			return
		}
		b.finish(i, goOn(p.Sprintf(txtVacationNothing)))
		return
	}
	until := now.Add(time.Duration(days) * 24 * time.Hour)
	b.finish(i, goOn(p.Sprintf(txtVacationStarted, unix(until), stopped, max(0, allowance-taken.VacationDaysUsed(now)))))
}

// vacationsOverWith ends, when match m has ended while a player's vacation
// stopped their clock in it, that vacation, if no other match of theirs
// holds it still (reconcileVacation, which ends it when m ended): a vacation
// costs days only while it stops a clock, and the days not taken come back
// to the allowance. A vacation younger than vacationSettle is left to the
// timers' hourly look: onVacation may still be stopping its clocks in
// matches that do not hold it yet.
func (b *Bot) vacationsOverWith(ctx context.Context, m *storage.Match) {
	if m.Phase.Active() || !pausable(m) {
		return
	}
	now := b.now()
	for side := game.Red; side <= game.Blue; side++ {
		if !m.VacationOpenAtEnd(side) {
			continue
		}
		if err := b.reconcileVacation(ctx, m.Players[side].UserID, now); err != nil {
			// The timers' hourly look tries again.
			b.log.Warn("ending a vacation that stops no clock any more failed", "match", m.ID, "error", err)
		}
	}
}

// A crash may leave a vacation that costs days for nothing: one recorded in
// the player's settings whose clocks onVacation did not get to stop, or one
// whose last stopped match ended before vacationsOverWith ended it. The
// timers look, at start and then every vacationCheck, at the players on
// vacation (storage.Store.PlayersOnVacation, an index) and end each
// vacation that holds no clock any more when it last held one, or take it
// back when it held none (reconcileVacation). A vacation younger than
// vacationSettle is left alone: onVacation may be stopping its clocks.
// Those matches are not touched, so nobody is told anything: the player
// sees the days back in their allowance, as when a match ends normally. A
// crash may also leave a vacation that holds too little or too much: one
// that stopped some of its clocks but not all (the player, who was told
// nothing, is told on asking again that they are on vacation: the rest are
// stopped then, for its whole days still to come, as when it is carried
// into a new match), or one a move of the player's ended in a match it held
// before the bot ended it in the others (endVacationByMove: it ends
// everywhere, from that move), or one ended in the player's settings before
// the bot ended it in every match it held (endVacation): the timers look,
// too, at the players whose vacation ended since their last look (since
// this process was last alive, at its first), and end it in the matches
// that hold it still (endedVacation). A move that ended its match as well
// counts, the match's end not ending the vacation. Those matches' players
// are told, as of any vacation's start or end.
const (
	vacationCheck  = time.Hour
	vacationSettle = 15 * time.Minute
)

// vacationsNext is when the timers next look for vacations that stop no clock.
func (b *Bot) vacationsNext() time.Time {
	return time.Unix(b.vacationsDue.Load(), 0)
}

// vacationsReachBack makes the next look for vacations, at once, take the
// vacations ended since from too, or since earlier when an earlier time
// was asked for and not looked at yet (creditAway runs twice as the bot
// starts: the second time, the first look may not have been).
func (b *Bot) vacationsReachBack(from time.Time) {
	for {
		cur := b.vacationsFrom.Load()
		if cur != 0 && cur <= from.Unix() {
			break
		}
		if b.vacationsFrom.CompareAndSwap(cur, from.Unix()) {
			break
		}
	}
	b.vacationsDue.Store(0)
}

// vacationTimer looks for vacations that stop no clock, when that is due;
// the caller holds timerPass.
func (b *Bot) vacationTimer(ctx context.Context) {
	now := b.now()
	if now.Before(b.vacationsNext()) {
		return
	}
	b.vacationsDue.Store(now.Add(vacationCheck).Unix())
	// Those whose vacation ended since the last look, too (endedVacation):
	// since the time this process was last alive before it took the
	// timers on, for its first look.
	since := now.Add(-(vacationCheck + vacationSettle))
	from := b.vacationsFrom.Load()
	if from != 0 && time.Unix(from, 0).Before(since) {
		since = time.Unix(from, 0)
	}
	users, err := b.store.PlayersOnVacation(ctx, since)
	if err != nil {
		b.log.Error("listing the players on vacation failed", "error", err)
		return
	}
	b.vacationsFrom.CompareAndSwap(from, 0)
	for _, user := range users {
		b.guard(ctx, "vacation", func(ctx context.Context) {
			if err := b.reconcileVacation(ctx, user, now); err != nil {
				b.log.Warn("ending a vacation that stops no clock failed", "error", err)
			}
		})
	}
}

// reconcileVacation ends user's vacation under way at now when it holds no
// clock in any of their matches, older than vacationSettle: at the latest
// time it held one (a match's end, an end in a match, or its running out),
// so that only those days count; a vacation that held none is taken back,
// as if never asked for (CancelVacation).
func (b *Bot) reconcileVacation(ctx context.Context, user string, now time.Time) error {
	settings, err := b.store.Player(ctx, user)
	if err != nil {
		return fmt.Errorf("reading the settings of a player on vacation: %w", err)
	}
	v, on := settings.OnVacation(now)
	if !on {
		return b.endedVacation(ctx, user, settings)
	}
	if now.Sub(v.Start) < vacationSettle {
		return nil
	}
	active, err := b.store.PlayerMatches(ctx, user, true, 0)
	if err != nil {
		return fmt.Errorf("listing the matches of a player on vacation: %w", err)
	}
	ended, err := b.store.PlayerMatches(ctx, user, false, 0)
	if err != nil {
		return fmt.Errorf("listing the ended matches of a player on vacation: %w", err)
	}
	var moved time.Time // the first move of theirs that ended it in a match; zero: none
	for _, m := range append(active, ended...) {
		if !m.Phase.Active() && m.Ended.Before(v.Start) {
			continue // over before it began (its move may have ended the match: a Flag captured)
		}
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		if at, ok := m.VacationEndedByMove(side, v.Start); ok && (moved.IsZero() || at.Before(moved)) {
			moved = at
		}
	}
	if !moved.IsZero() {
		return b.backByMove(ctx, user, v, moved)
	}
	holds := false
	for _, m := range active {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		holds = holds || !m.VacationUntil(side).IsZero()
	}
	if holds {
		b.stopMissed(ctx, user, settings, v, active) // it holds a clock: it goes on, in all of them
		return nil
	}
	var held time.Time // when it last held a clock; zero: never
	for _, m := range append(active, ended...) {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		if at := m.VacationHeldUntil(side, v.Start); at.After(held) {
			held = at
		}
	}
	if held.After(now) {
		held = now
	}
	changed := false
	_, err = b.updatePlayer(ctx, user, func(s *storage.PlayerSettings) error {
		changed = false
		if cur, on := s.OnVacation(now); !on || !cur.Start.Equal(v.Start) {
			return nil // ended or taken back meanwhile
		}
		if !held.After(v.Start) {
			changed = s.CancelVacation(v.Start)
			return nil
		}
		changed = s.EndVacation(held)
		return nil
	})
	if err != nil {
		return fmt.Errorf("ending a vacation that stops no clock: %w", err)
	}
	if changed {
		b.log.Info("a vacation that no longer stopped any clock was ended", "began", v.Start, "held_until", held)
	}
	return nil
}

// backByMove ends user's vacation v, which a move of theirs at moved ended
// in a match it held: in their settings from that move, and in the matches
// that hold it still, now (endVacation), whose players are told.
func (b *Bot) backByMove(ctx context.Context, user string, v storage.Vacation, moved time.Time) error {
	if _, err := b.updatePlayer(ctx, user, func(s *storage.PlayerSettings) error {
		if cur, on := s.OnVacation(moved); on && cur.Start.Equal(v.Start) {
			s.EndVacation(moved)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("ending a vacation a move ended: %w", err)
	}
	b.endVacation(ctx, user, b.now())
	b.log.Info("a vacation a move had ended in one match was ended in the others", "began", v.Start, "moved", moved)
	return nil
}

// endedVacation ends, in each of user's matches, their last vacation that
// settings say is over when the match holds it beyond that: one ended
// early (`/stratego vacation end:true`, or a move) in their settings before
// the bot ended it in every match it held (endVacation), which a crash
// cut short. It ends there now, and the players are told, as of any
// vacation's end. A vacation that ran its course is left to each match's
// own timer (onVacationOver), as is one a match holds for days counted
// later (stopMissed, carryVacations: never past its end), and one that
// began there at or after its end: a vacation begun since.
func (b *Bot) endedVacation(ctx context.Context, user string, settings *storage.PlayerSettings) error {
	var last storage.Vacation
	for _, v := range settings.Vacations {
		if v.End.After(last.End) {
			last = v
		}
	}
	if last.End.IsZero() {
		return nil
	}
	matches, _, err := b.vacationMatches(ctx, user)
	if err != nil {
		return fmt.Errorf("listing the matches of a player back from vacation: %w", err)
	}
	for _, m := range matches {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		began := vacationBegan(m, side)
		if !m.VacationUntil(side).After(last.End) || began.Before(last.Start) || !began.Before(last.End) {
			continue
		}
		if b.endVacationIn(ctx, m, side) != nil {
			b.log.Info("a vacation over in its player's settings was ended in a match that held it still", "match", m.ID, "began", last.Start, "ended", last.End)
		}
	}
	return nil
}

// vacationBegan is when side's vacation m holds began there: zero when m
// holds none.
func vacationBegan(m *storage.Match, side game.Side) time.Time {
	if m.VacationUntil(side).IsZero() {
		return time.Time{}
	}
	for i := len(m.Log) - 1; i >= 0; i-- {
		if a := m.Log[i]; a.Kind == storage.ActVacation && a.Side == side {
			return a.At
		}
	}
	return time.Time{}
}

// endVacationIn ends side's vacation in m now, and returns m as that left
// it; nil when m no longer held it (or ended meanwhile), or that failed.
func (b *Bot) endVacationIn(ctx context.Context, m *storage.Match, side game.Side) *storage.Match {
	over, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacationEnd, Side: side, At: b.now()})
	if err != nil {
		if !errors.Is(err, storage.ErrNotDue) && !errors.Is(err, storage.ErrGameOver) {
			b.log.Warn("ending a vacation in a match failed", "match", m.ID, "error", err)
		}
		return nil
	}
	b.afterChange(ctx, over, nil)
	return over
}

// stopMissed stops user's clock, for the whole days of vacation v still to
// come, in each of their matches that v should hold and does not, of
// active, their matches still on: one onVacation did not reach before the
// bot stopped, or one begun since that carryVacations did not reach. player
// holds user's settings with v. Left alone are the matches v leaves running
// (see vacationMatches and vacationAllowance, and carryVacations: a server
// whose allowance v does not fit), those in which it began and ended
// already, and those user moved in since it began: they play there.
// Each clock stops at the time it does, for the whole days left then, so
// that the match's log stays in the order of its times. A vacation that
// ends meanwhile (`/stratego vacation end:true`, or a move elsewhere) may
// have passed over a match not stopped yet: each stop is followed by a new
// read of the settings, and when it is over, it ends there too, and no
// other clock stops.
func (b *Bot) stopMissed(ctx context.Context, user string, player *storage.PlayerSettings, v storage.Vacation, active []*storage.Match) {
	var candidates []*storage.Match
	for _, m := range active {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		if m.Phase.Active() && pausable(m) && m.VacationUntil(side).IsZero() && m.VacationHeldUntil(side, v.Start).IsZero() && !movedSince(m, side, v.Start) && !b.inTournament(ctx, m) {
			candidates = append(candidates, m)
		}
	}
	if len(candidates) == 0 {
		return
	}
	_, stop, _ := b.vacationAllowance(ctx, "", candidates)
	for _, m := range stop {
		if !player.VacationFits(v, b.serverOf(ctx, m.GuildID).VacationAllowance()) {
			continue // begun since on a server whose rule v does not fit: see carryVacations
		}
		side, _ := m.SideOf(user)
		at := b.now()
		days := int(v.End.Sub(at) / (24 * time.Hour))
		if days < 1 {
			return
		}
		stopped, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: side, Days: days, At: at})
		if err != nil {
			if !errors.Is(err, storage.ErrGameOver) && !errors.Is(err, storage.ErrTimeUp) && !errors.Is(err, storage.ErrInvalid) {
				b.log.Warn("stopping a clock a vacation missed failed", "match", m.ID, "error", err)
			}
			continue
		}
		b.log.Info("a vacation stopped a clock it had missed", "match", m.ID, "began", v.Start)
		b.afterChange(ctx, stopped, nil)
		settings, err := b.store.Player(ctx, user)
		if err != nil {
			b.log.Warn("reading the settings of a player on vacation failed", "error", err)
			return // the next look ends it there, if it is over
		}
		if cur, on := settings.OnVacation(b.now()); !on || !cur.Start.Equal(v.Start) {
			b.endVacationIn(ctx, stopped, side)
			b.log.Info("a vacation that ended as it stopped a clock it had missed was ended there too", "match", m.ID, "began", v.Start)
			return
		}
	}
}

// movedSince reports whether side moved in m at or after since.
func movedSince(m *storage.Match, side game.Side, since time.Time) bool {
	for i := len(m.Log) - 1; i >= 0 && !m.Log[i].At.Before(since); i-- {
		if a := m.Log[i]; a.Kind == storage.ActMove && a.Side == side {
			return true
		}
	}
	return false
}

// carryVacations stops, in a match that has just begun, the clock of a
// player who is on vacation (a challenge or a seek of theirs met while they
// were away): as in their other matches, for the whole days of it still to
// come. The days were counted when the vacation began. It is carried when
// the set-ups begin, so that their deadline waits too, and again when the
// game begins for a vacation the match does not hold yet (one that began
// before set-ups waited for vacations). A match of a server that has turned
// vacations off goes on, and so does one of a server whose allowance the
// vacation does not fit (storage.PlayerSettings.VacationFits): asked for
// with a match there, it would have been refused, and carried there it
// would stop that server's clock for more days than its rule gives.
func (b *Bot) carryVacations(ctx context.Context, snap *snapshot) {
	m := snap.m
	if !justBegun(m) || !pausable(m) {
		return
	}
	now := b.now()
	read := func(user string) *storage.PlayerSettings { return b.settingsOf(ctx, user) }
	var away [2]int // whole days of each side's vacation still to come: never more than was counted
	var vacations [2]storage.Vacation
	for side := game.Red; side <= game.Blue; side++ {
		if !m.VacationUntil(side).IsZero() {
			continue // the match holds it already
		}
		if v, on := snap.player(side, read).OnVacation(now); on {
			away[side], vacations[side] = int(v.End.Sub(now)/(24*time.Hour)), v
		}
	}
	if away == [2]int{} || b.inTournament(ctx, m) {
		return
	}
	allowance := b.serverOf(ctx, m.GuildID).VacationAllowance()
	for side := game.Red; side <= game.Blue; side++ {
		if away[side] > 0 && !snap.player(side, read).VacationFits(vacations[side], allowance) {
			away[side] = 0 // off there (0), or too long for the server's rule
		}
	}
	var last *storage.Match
	for side, days := range away {
		if days < 1 {
			continue
		}
		stopped, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacation, Side: game.Side(side), Days: days, At: now})
		if err != nil {
			b.log.Warn("carrying a vacation into a new match failed", "match", m.ID, "error", err)
			continue
		}
		last = stopped
	}
	if last != nil {
		b.afterChange(ctx, last, nil)
	}
}

// justBegun reports whether m has just begun: in set-up with no set-up
// confirmed yet, or in play with no move made and nothing but vacations and
// time given back for nobody running the timers (ActAway, no player's
// doing) in its log. A draft does not count: it is hidden, and what it
// decides here (whether the set-up deadline waits) is public.
func justBegun(m *storage.Match) bool {
	switch m.Phase {
	case storage.PhaseSetup:
		return m.Setups[game.Red].Status != storage.SetupConfirmed && m.Setups[game.Blue].Status != storage.SetupConfirmed
	case storage.PhasePlaying:
		for _, a := range m.Log {
			switch a.Kind {
			case storage.ActVacation, storage.ActVacationEnd, storage.ActAway:
			default:
				return false
			}
		}
		return true
	}
	return false
}

// welcomeBack answers the end of user's vacation: what it ended in each of
// back, the matches it stopped a clock in, as they are now. Its end moves
// the deadline of a turn it held to now, earlier than the boards said; and
// a match paused by agreement stays paused, its clocks stopped still.
func welcomeBack(p lang.Printer, back []*storage.Match, user string, now time.Time) string {
	var lines []string
	paused := false
	for _, m := range back {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		if until := m.PausedUntil(); !until.IsZero() {
			paused = true
			lines = append(lines, p.Sprintf(txtVacationBackPaused, m.ID.String(), unix(until)))
		}
		due := m.DeadlineToShow(now)
		if due.IsZero() || !m.Owes(side) {
			continue
		}
		switch {
		case m.Phase == storage.PhaseSetup:
			lines = append(lines, p.Sprintf(txtVacationBackSetup, m.ID.String(), unix(due)))
		case !m.PausedUntil().IsZero():
			lines[len(lines)-1] += " " + p.Sprintf(txtPausedYourMove, unix(due))
		default:
			lines = append(lines, p.Sprintf(txtVacationBackMove, m.ID.String(), unix(due)))
		}
	}
	head := p.Sprintf(txtVacationEnded)
	if paused {
		head = p.Sprintf(txtVacationBack)
	}
	return joinLines(append([]string{head}, lines...)...)
}

// endVacation ends user's vacation at now in their settings, and then in
// every match it stopped a clock in, each at the time it does (a crash
// between the two: endedVacation); false when they were not on vacation.
// back holds those matches as its end left them.
func (b *Bot) endVacation(ctx context.Context, user string, now time.Time) (ended bool, back []*storage.Match) {
	if _, err := b.updatePlayer(ctx, user, func(s *storage.PlayerSettings) error {
		ended = s.EndVacation(now)
		return nil
	}); err != nil {
		b.log.Warn("ending a vacation failed", "error", err)
	}
	matches, _, err := b.vacationMatches(ctx, user)
	if err != nil {
		// Its matches keep the vacation until its end, as if it ran its course.
		b.log.Warn("listing the matches a vacation ended in failed", "error", err)
	}
	for _, m := range matches {
		side, _ := m.SideOf(user) // one of user's own matches: user plays it
		if m.VacationUntil(side).IsZero() {
			continue
		}
		ended = true
		if over := b.endVacationIn(ctx, m, side); over != nil {
			back = append(back, over)
		}
	}
	return ended, back
}

// endVacationByMove ends the mover's vacation everywhere when the move was
// made during it: a player who moves is back. moved is the match as the
// move left it: its log says whether the vacation was on as the move was
// recorded, which the match the move's command read may not (a vacation
// begun meanwhile, by another request).
func (b *Bot) endVacationByMove(ctx context.Context, moved *storage.Match, side game.Side) {
	if !moved.MovedOnVacation(side) {
		return
	}
	b.endVacation(ctx, moved.Players[side].UserID, b.now())
}

// onVacationOver ends, in match id, the vacations whose time is up.
func (b *Bot) onVacationOver(ctx context.Context, id storage.MatchID, now time.Time) {
	m, err := b.store.Match(ctx, id)
	if err != nil {
		b.timerFailed("reading a match whose vacation is over failed", storage.Deadline{Kind: storage.DeadlineVacation, ID: uint64(id)}, err)
		return
	}
	for side := game.Red; side <= game.Blue; side++ {
		if back := m.VacationUntil(side); back.IsZero() || now.Before(back) {
			continue
		}
		back, err := b.store.Act(ctx, m.ID, 0, storage.Action{Kind: storage.ActVacationEnd, Side: side, At: now})
		if err != nil {
			if b.roundOver(ctx, m, err) {
				return
			}
			if !errors.Is(err, storage.ErrNotDue) && !errors.Is(err, storage.ErrGameOver) {
				b.log.Warn("ending a vacation failed", "match", m.ID, "error", err)
			}
			continue
		}
		b.afterChange(ctx, back, nil)
	}
}

// pausable reports whether a vacation may stop a clock in match m: a
// correspondence match between two members (a fast game is played in one
// sitting, and the computer needs no rest). A server's or a tournament's
// rules may still keep it going.
func pausable(m *storage.Match) bool { return m.Correspondence() && !m.Practice() }

// vacationMatches are the matches a vacation of user may stop a clock in:
// their matches of a day or more a move, in set-up or in play, with a
// person, outside tournaments (vacationAllowance leaves out those of servers
// that turned vacations off). inTournaments counts the tournament games it
// leaves running.
func (b *Bot) vacationMatches(ctx context.Context, user string) (matches []*storage.Match, inTournaments int, err error) {
	all, err := b.store.PlayerMatches(ctx, user, true, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the matches of a player: %w", err)
	}
	for _, m := range all {
		switch {
		case !m.Phase.Active() || !pausable(m):
		case b.inTournament(ctx, m):
			inTournaments++
		default:
			matches = append(matches, m)
		}
	}
	return matches, inTournaments, nil
}

// vacationAllowance is the yearly vacation allowance of a member who asks in
// server guildID ("" in a DM) to stop the clocks of matches: the smallest of
// the allowances of that server and of the matches' servers, so that no
// server's rule is escaped by asking elsewhere (the default outside any
// server). A server that turned vacations off bounds nothing: its matches
// are left out of stop and counted in elsewhere. The allowance is zero when
// vacations are off on every server concerned.
func (b *Bot) vacationAllowance(ctx context.Context, guildID string, matches []*storage.Match) (allowance int, stop []*storage.Match, elsewhere int) {
	days := map[string]int{"": storage.DefaultVacationDays} // each server's, read once; none: the default
	of := func(guild string) int {
		d, ok := days[guild]
		if !ok {
			d = b.serverOf(ctx, guild).VacationAllowance()
			days[guild] = d
		}
		return d
	}
	off := false // some server concerned turned vacations off
	consider := func(d int) {
		switch {
		case d == 0:
			off = true
		case allowance == 0 || d < allowance:
			allowance = d
		}
	}
	if guildID != "" {
		consider(of(guildID))
	}
	for _, m := range matches {
		d := of(m.GuildID)
		if m.GuildID != "" {
			consider(d)
		}
		if d == 0 {
			elsewhere++
			continue
		}
		stop = append(stop, m)
	}
	if allowance == 0 && !off {
		allowance = storage.DefaultVacationDays // no server concerned
	}
	return allowance, stop, elsewhere
}

// vacationLines say on a board who is on vacation, and until when.
func (b *Bot) vacationLines(p lang.Printer, m *storage.Match, viewer game.Viewer) string {
	return joinLines(b.vacationParts(p, m, viewer)...)
}

// vacationParts says, for each player of m on vacation, until when: to
// the player on vacation, of themselves as "you".
func (b *Bot) vacationParts(p lang.Printer, m *storage.Match, viewer game.Viewer) []string {
	var parts []string
	for side := game.Red; side <= game.Blue; side++ {
		back := m.VacationUntil(side)
		switch {
		case back.IsZero():
		case viewer == game.ViewerOf(side):
			parts = append(parts, p.Sprintf(txtVacationLineYou, unix(back)))
		default:
			parts = append(parts, p.Sprintf(txtVacationLine, b.playerName(p, m, side), unix(back)))
		}
	}
	return parts
}

// backDueNotice tells the player whose vacation ended in m what they owe
// there, and by when: an early end moved their deadline earlier than their
// board said; one on time, in a turn begun before the vacation, later than
// it said. Nil once they owe nothing.
func (b *Bot) backDueNotice(p lang.Printer, m *storage.Match, side game.Side, now time.Time) *discordgo.MessageSend {
	due := m.DeadlineToShow(now)
	if due.IsZero() || !m.Owes(side) {
		return nil
	}
	text := txtVacationOverMove
	if m.Phase == storage.PhaseSetup {
		text = txtVacationOverSetup
	}
	return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + p.Sprintf(text, unix(due))}
}

// vacationNotice tells the opponent that side went on, or came back from,
// vacation; in set-up, when the set-ups are due now, since the vacation
// moved their deadline.
func (b *Bot) vacationNotice(p lang.Printer, m *storage.Match, side game.Side, started bool, until, now time.Time) *discordgo.MessageSend {
	text := p.Sprintf(txtVacationOver, b.playerName(p, m, side))
	if started {
		text = p.Sprintf(txtVacationNotice, b.playerName(p, m, side), unix(until))
	}
	if due := m.DeadlineToShow(now); m.Phase == storage.PhaseSetup && !due.IsZero() {
		text += "\n" + p.Sprintf(txtVacationSetupDue, unix(due))
	}
	return &discordgo.MessageSend{Content: b.matchTitle(p, m) + "\n" + text}
}
