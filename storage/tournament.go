package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/tournament"
)

// A tournament is kept as a match is: its rules and an ordered log of events
// (package tournament), from which tournament.Replay rebuilds its state. The
// log only grows: every change appends to it at the version the caller read
// (UpdateTournament), so of two processes pairing a round at once one wins
// and the other is told ErrStale. Beside the log the record keeps what the
// bot needs to run it (its channel, its terms, its timers) and which match
// plays which board, with an index from each match back to its board, so
// that the end of a match advances its tournament.

// TournamentID names a tournament: a small sequence number, like a match's.
type TournamentID uint64

// String returns the id in decimal.
func (id TournamentID) String() string { return strconv.FormatUint(uint64(id), 10) }

// ParseTournamentID reads "7" or "#7".
func ParseTournamentID(text string) (TournamentID, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(text), "#"), 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q is not a tournament number", text)
	}
	return TournamentID(n), nil
}

// TournamentGame links board Board of round Round to the match playing it.
type TournamentGame struct {
	Tournament TournamentID `json:"-"`
	Round      int          `json:"round"`
	Board      int          `json:"board"`
	Match      MatchID      `json:"match"`
}

// Tournament is one tournament of a server: its terms, its log and its games.
type Tournament struct {
	ID      TournamentID
	Version uint64 // increases with every change

	GuildID   string
	ChannelID string // where it is announced and its games are played
	Name      string
	CreatorID string
	Created   time.Time

	Rules tournament.Rules
	// Game, MoveTime and Clock are the terms of every match, as a
	// challenge's.
	Game     game.Rules
	MoveTime time.Duration
	Clock    TimeControl
	// RoundTime is how long a round may last: at its deadline the games
	// still on are scored as Rules.Unfinished says.
	RoundTime time.Duration
	// StartAt is when the first round is paired; JoinBy the last moment to
	// join (at most StartAt). MaxPlayers caps the field.
	StartAt, JoinBy time.Time
	MaxPlayers      int

	// Names are the players' display names, by user id, as they joined.
	Names map[string]string
	// Log is the tournament's events; Replay(Rules, Log) is its state.
	Log []tournament.Event
	// Games are the matches started for the rounds' boards.
	Games []TournamentGame
	// OffThrough counts the rounds, from the first, whose matches are all
	// known to be over: the bot's timers, which heal a lost call-off
	// (callOffScored), read none of them again. They set it as they pair
	// the next round.
	OffThrough int
	// RoundDeadline is the deadline of the round under way (zero: none).
	RoundDeadline time.Time
	// MembersDue is when the players still in a round under way are next
	// asked to be members of the server (a player who left is withdrawn);
	// zero, while a round is under way: at once. Set by the caller that
	// checks them, before it asks, so that of several processes one asks.
	MembersDue time.Time
	// Starting is set while the matches of the round just paired are being
	// started: the tournament is due at once (Wake), so that a crash
	// midway is mended by the next pass.
	Starting bool
	// Done is set once the tournament is over or cancelled, with nothing
	// more to do.
	Done bool
	// CallingOff is set as the tournament is cancelled with games that
	// may still be on: its timer comes at MembersDue, when the bot makes
	// sure they are called off (the cancel's own call-off may have been
	// lost: the process stopped, or the database was away), and clears it.
	CallingOff bool
	// NoReachNotice is the latest note to the organiser that an
	// announcement could not be posted which the bot chose to send, and
	// NoReachAt when: kept so that a restart neither repeats the note
	// within a day nor drops the one chosen (it is sent again, as a retry).
	NoReachNotice uint64
	NoReachAt     time.Time
	// ChannelLost is when the bot last found the channel out of its reach
	// (zero: within it), and ChannelDeleted whether it was deleted: the
	// bot then tells the players by DM without trying the channel first,
	// as a match remembers its lost channel (Match.PublicGone).
	ChannelLost    time.Time
	ChannelDeleted bool
	// Changed is when the latest change was made, set by the caller: the
	// time of the announcements it owes (TournamentNotices).
	Changed time.Time
	// AwayFrom and AwayUntil are the latest time nobody ran the timers
	// that was given back to the tournament's timers (GiveAway): each is
	// given once, and its announcement tells it.
	AwayFrom, AwayUntil time.Time
	// HeldUp is when the bot's timers began to fail to move the
	// tournament on (to start, pair or close a round), set once they had
	// failed for long, and cleared once they move it on: the change that
	// sets it owes its channel one announcement (EventTourneyHeldUp), so
	// that a stall is told once, however long it lasts.
	HeldUp time.Time
}

// MaxTournamentName is the longest name a tournament may have.
const MaxTournamentName = 80

// State replays the log.
func (t *Tournament) State() (*tournament.Tournament, error) {
	return tournament.Replay(t.Rules, t.Log)
}

// Wake is the tournament's next timer: at once while its matches are being
// started (Starting), its start before it started, then, while a round is
// under way, its deadline or the check of its players' membership
// (MembersDue), whichever comes first; cancelled, the check that its
// games are called off (CallingOff, at MembersDue); false when it waits
// for nothing. The bot's timers hold back, for a growing while, a
// tournament still due at the same wake and version after they ran it
// (what was due failed), so that one due at once is not run again and
// again.
func (t *Tournament) Wake() (time.Time, bool) {
	switch {
	case t.Starting:
		// At once, even when cancelled meanwhile: the pass that clears it
		// calls off the matches a stopped process made and never linked.
		return t.Created, true
	case t.Done && t.CallingOff:
		return t.MembersDue, true
	case t.Done:
		return time.Time{}, false
	case !t.started():
		return t.StartAt, !t.StartAt.IsZero()
	case t.RoundDeadline.IsZero():
		return time.Time{}, false
	case t.MembersDue.IsZero():
		return t.Created, true // never checked: at once
	default:
		return minTime(t.RoundDeadline, t.MembersDue), true
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (t *Tournament) started() bool {
	return slices.ContainsFunc(t.Log, func(e tournament.Event) bool { return e.Kind == tournament.Paired || e.Kind == tournament.Cancelled })
}

// GameOf returns the link of board of round, and false when no match plays it yet.
func (t *Tournament) GameOf(round, board int) (TournamentGame, bool) {
	for _, g := range t.Games {
		if g.Round == round && g.Board == board {
			return g, true
		}
	}
	return TournamentGame{}, false
}

// Clone returns a deep copy.
func (t *Tournament) Clone() *Tournament {
	c := *t
	c.Names = make(map[string]string, len(t.Names))
	for k, v := range t.Names {
		c.Names[k] = v
	}
	c.Log = make([]tournament.Event, len(t.Log))
	for i, e := range t.Log {
		e.Games = slices.Clone(e.Games)
		c.Log[i] = e
	}
	c.Games = slices.Clone(t.Games)
	return &c
}

// validate checks a tournament about to be saved: its terms, and that its
// log replays.
func (t *Tournament) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("tournament %d: %s: %w", t.ID, fmt.Sprintf(format, args...), ErrInvalid)
	}
	if t.GuildID == "" || t.ChannelID == "" || t.CreatorID == "" {
		return bad("a tournament needs a server, a channel and a creator")
	}
	if n := len([]rune(t.Name)); n == 0 || n > MaxTournamentName {
		return bad("a name of 1 to %d characters", MaxTournamentName)
	}
	if err := t.Rules.Validate(); err != nil {
		return bad("%v", err)
	}
	if err := t.Game.Validate(); err != nil {
		return bad("%v", err)
	}
	if t.MoveTime <= 0 || t.RoundTime <= 0 {
		return bad("a move time and a round time")
	}
	if t.StartAt.IsZero() || t.JoinBy.After(t.StartAt) {
		return bad("a start, and a join deadline no later than it")
	}
	if t.MaxPlayers < 2 || t.MaxPlayers > tournament.MaxPlayers {
		return bad("a player limit of 2 to %d", tournament.MaxPlayers)
	}
	state, err := t.State()
	if err != nil {
		return bad("%v", err)
	}
	rounds := state.Rounds()
	if t.OffThrough < 0 || t.OffThrough > len(rounds) {
		return bad("%d rounds over of %d paired", t.OffThrough, len(rounds))
	}
	seen := map[MatchID]bool{}
	boards := map[[2]int]bool{}
	for _, g := range t.Games {
		if boards[[2]int{g.Round, g.Board}] {
			return bad("board %d of round %d has two matches", g.Board, g.Round)
		}
		boards[[2]int{g.Round, g.Board}] = true
		if g.Round < 1 || g.Round > len(rounds) || g.Board < 1 || g.Board > len(rounds[g.Round-1].Games) {
			return bad("match %d plays no board of the rounds paired", g.Match)
		}
		if seen[g.Match] || g.Match == 0 {
			return bad("match %d plays two boards", g.Match)
		}
		seen[g.Match] = true
	}
	return nil
}

// PrepareTournament checks a new tournament and returns the copy to store,
// at version 1, without its ID.
func PrepareTournament(t *Tournament) (*Tournament, error) {
	n := t.Clone()
	n.normalize()
	n.Version = 1
	if err := n.validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// ChangeTournament applies fn to a copy of old at version expect (0: any)
// and returns the copy to store: ErrStale when old moved on; ErrInvalid
// when fn rewrote the log rather than appending to it, changed the
// tournament's identity, or left a log that does not replay.
func ChangeTournament(old *Tournament, expect uint64, fn func(t *Tournament) error) (*Tournament, error) {
	if expect != 0 && old.Version != expect {
		return nil, fmt.Errorf("tournament %d is at version %d, not %d: %w", old.ID, old.Version, expect, ErrStale)
	}
	n := old.Clone()
	if err := fn(n); err != nil {
		return nil, err
	}
	n.normalize()
	if n.ID != old.ID || n.GuildID != old.GuildID || n.Rules != old.Rules {
		return nil, fmt.Errorf("tournament %d: its server and rules never change: %w", old.ID, ErrInvalid)
	}
	if len(n.Log) < len(old.Log) || !logsEqual(n.Log[:len(old.Log)], old.Log) {
		return nil, fmt.Errorf("tournament %d: its log only grows: %w", old.ID, ErrInvalid)
	}
	for _, g := range old.Games {
		if !slices.Contains(n.Games, g) {
			return nil, fmt.Errorf("tournament %d: a board keeps its match: %w", old.ID, ErrInvalid)
		}
	}
	if err := n.validate(); err != nil {
		return nil, err
	}
	n.Version = old.Version + 1
	return n, nil
}

func logsEqual(a, b []tournament.Event) bool {
	return slices.EqualFunc(a, b, func(x, y tournament.Event) bool {
		return x.Kind == y.Kind && x.Player == y.Player && x.Rating == y.Rating && x.Reason == y.Reason &&
			x.Round == y.Round && x.Board == y.Board && x.Result == y.Result && slices.Equal(x.Games, y.Games)
	})
}

func (t *Tournament) normalize() {
	t.Created = second(t.Created)
	t.StartAt = second(t.StartAt)
	t.JoinBy = second(t.JoinBy)
	t.RoundDeadline = second(t.RoundDeadline)
	t.MembersDue = second(t.MembersDue)
	t.Changed = second(t.Changed)
	t.NoReachAt = second(t.NoReachAt)
	t.ChannelLost = second(t.ChannelLost)
	t.AwayFrom = second(t.AwayFrom)
	t.AwayUntil = second(t.AwayUntil)
	t.HeldUp = second(t.HeldUp)
	if t.Names == nil {
		t.Names = map[string]string{}
	}
	for i := range t.Games {
		t.Games[i].Tournament = t.ID
	}
}

// tournamentRecord is a tournament as stored (format version 1).
type tournamentRecord struct {
	V          int                `json:"v"`
	ID         TournamentID       `json:"id"`
	Version    uint64             `json:"version"`
	Guild      string             `json:"guild"`
	Channel    string             `json:"channel"`
	Name       string             `json:"name"`
	Creator    string             `json:"creator"`
	Created    int64              `json:"created"`
	Rules      tournament.Rules   `json:"rules"`
	Game       rulesRecord        `json:"game"`
	MoveTime   int64              `json:"move_time"`
	ClockBase  int64              `json:"clock_base,omitempty"`
	ClockInc   int64              `json:"clock_inc,omitempty"`
	RoundTime  int64              `json:"round_time"`
	StartAt    int64              `json:"start_at"`
	JoinBy     int64              `json:"join_by"`
	MaxPlayers int                `json:"max_players"`
	Names      map[string]string  `json:"names,omitempty"`
	Log        []tournament.Event `json:"log"`
	Games      []TournamentGame   `json:"games,omitempty"`
	OffThrough int                `json:"off_through,omitempty"`
	Deadline   int64              `json:"deadline,omitempty"`
	MembersDue int64              `json:"members_due,omitempty"`
	Done       bool               `json:"done,omitempty"`
	CallingOff bool               `json:"calling_off,omitempty"`
	Starting   bool               `json:"starting,omitempty"`
	Changed    int64              `json:"changed,omitempty"`
	NoReach    uint64             `json:"no_reach,omitempty"`
	NoReachAt  int64              `json:"no_reach_at,omitempty"`
	Lost       int64              `json:"channel_lost,omitempty"`
	Deleted    bool               `json:"channel_deleted,omitempty"`
	AwayFrom   int64              `json:"away_from,omitempty"`
	AwayUntil  int64              `json:"away_until,omitempty"`
	HeldUp     int64              `json:"held_up,omitempty"`
}

const tournamentFormat = 1

// EncodeTournament returns t's stored record (JSON).
func EncodeTournament(t *Tournament) ([]byte, error) {
	rec := tournamentRecord{
		V: tournamentFormat, ID: t.ID, Version: t.Version, Guild: t.GuildID, Channel: t.ChannelID, Name: t.Name,
		Creator: t.CreatorID, Created: unixTime(t.Created), Rules: t.Rules, Game: encodeRules(t.Game),
		MoveTime: int64(t.MoveTime / time.Second), ClockBase: int64(t.Clock.Base / time.Second), ClockInc: int64(t.Clock.Increment / time.Second),
		RoundTime: int64(t.RoundTime / time.Second), StartAt: unixTime(t.StartAt), JoinBy: unixTime(t.JoinBy),
		MaxPlayers: t.MaxPlayers, Names: t.Names, Log: t.Log, Games: t.Games, OffThrough: t.OffThrough, Deadline: unixTime(t.RoundDeadline), Done: t.Done, CallingOff: t.CallingOff, Starting: t.Starting,
		MembersDue: unixTime(t.MembersDue), Changed: unixTime(t.Changed), NoReach: t.NoReachNotice, NoReachAt: unixTime(t.NoReachAt),
		Lost: unixTime(t.ChannelLost), Deleted: t.ChannelDeleted, AwayFrom: unixTime(t.AwayFrom), AwayUntil: unixTime(t.AwayUntil),
		HeldUp: unixTime(t.HeldUp),
	}
	return json.Marshal(rec)
}

// DecodeTournament reads a record written by EncodeTournament.
func DecodeTournament(data []byte) (*Tournament, error) {
	var rec tournamentRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("tournament record: %w", ErrCorrupt)
	}
	if rec.V > tournamentFormat {
		return nil, fmt.Errorf("tournament record of format %d: %w", rec.V, ErrNewerSchema)
	}
	rules, err := decodeRules(rec.Game)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %v: %w", rec.ID, err, ErrCorrupt)
	}
	t := &Tournament{
		ID: rec.ID, Version: rec.Version, GuildID: rec.Guild, ChannelID: rec.Channel, Name: rec.Name, CreatorID: rec.Creator,
		Created: fromUnix(rec.Created), Rules: rec.Rules, Game: rules, MoveTime: time.Duration(rec.MoveTime) * time.Second,
		Clock:     TimeControl{Base: time.Duration(rec.ClockBase) * time.Second, Increment: time.Duration(rec.ClockInc) * time.Second},
		RoundTime: time.Duration(rec.RoundTime) * time.Second, StartAt: fromUnix(rec.StartAt), JoinBy: fromUnix(rec.JoinBy),
		MaxPlayers: rec.MaxPlayers, Names: rec.Names, Log: rec.Log, Games: rec.Games, OffThrough: rec.OffThrough, RoundDeadline: fromUnix(rec.Deadline), Done: rec.Done, CallingOff: rec.CallingOff, Starting: rec.Starting,
		MembersDue: fromUnix(rec.MembersDue), Changed: fromUnix(rec.Changed), NoReachNotice: rec.NoReach, NoReachAt: fromUnix(rec.NoReachAt),
		ChannelLost: fromUnix(rec.Lost), ChannelDeleted: rec.Deleted, AwayFrom: fromUnix(rec.AwayFrom), AwayUntil: fromUnix(rec.AwayUntil),
		HeldUp: fromUnix(rec.HeldUp),
	}
	t.normalize()
	return t, nil
}

// TournamentNotices returns the announcements a change of a tournament
// owes its channel, in the order they must be posted: old is the
// tournament before the change, t after it. Every backend records exactly
// these in the change's transaction (UpdateTournament), in one queue, so
// that a result's standings always come before the next round's pairings:
//
//   - a round paired: its pairings; rounds paired in one change (a round
//     robin played all at once) owe one announcement of them all, told
//     from the tournament after the last;
//   - a result recorded: it, with the standings;
//   - a round's deadline: which games were still on;
//   - a player out after the start (withdrew, left), or removed by a
//     moderator at any time: the standings;
//   - a cancellation: the standings as they were (told after the
//     call-offs of its games still on, as a deadline's);
//   - the tournament over (Done, not cancelled): the final standings;
//   - the deadline of a round under way moved on by time nobody ran the
//     timers (GiveAway): the new deadline;
//   - the tournament held up (HeldUp set): that the bot cannot move it
//     on, once a stall.
//
// Each notice's Log is the length of the log right after its event, so
// that it is told from the tournament as it stood then.
func TournamentNotices(old, t *Tournament) []Notice {
	at := t.Changed
	if at.IsZero() {
		at = t.Created
	}
	var out []Notice
	add := func(e Event, log int) {
		out = append(out, Notice{Tournament: t.ID, Event: e, To: AudiencePublic, Log: log, Version: t.Version, At: second(at)})
	}
	started := old.started()
	scored := scoredBy(old, t)
	for i := len(old.Log); i < len(t.Log); i++ {
		switch e := t.Log[i]; e.Kind {
		case tournament.Paired:
			started = true
			if i+1 < len(t.Log) && t.Log[i+1].Kind == tournament.Paired {
				continue // announced with the rounds paired after it
			}
			add(EventRoundPaired, i+1)
		case tournament.Recorded:
			add(EventRoundResult, i+1)
			if g, ok := t.GameOf(e.Round, e.Board); ok {
				out[len(out)-1].After = g.Match // told after the game's own end
			}
		case tournament.Closed:
			add(EventRoundClosed, i+1)
			out[len(out)-1].Until = scored[i] // told after the call-offs that follow
		case tournament.Withdrew:
			if started || e.Reason == tournament.Removed {
				add(EventWithdrawn, i+1)
				out[len(out)-1].Until = scored[i]
			}
		case tournament.Cancelled:
			add(EventTourneyCancel, i+1)
			out[len(out)-1].Until = scored[i] // told after the call-offs that follow
		}
	}
	if !old.Done && t.Done && (len(t.Log) == 0 || t.Log[len(t.Log)-1].Kind != tournament.Cancelled) {
		add(EventTourneyOver, len(t.Log))
	}
	if !t.Done && t.AwayUntil.After(old.AwayUntil) && !old.RoundDeadline.IsZero() && t.RoundDeadline.After(old.RoundDeadline) {
		add(EventTourneyAway, len(t.Log))
	}
	if !t.Done && old.HeldUp.IsZero() && !t.HeldUp.IsZero() {
		add(EventTourneyHeldUp, len(t.Log))
	}
	return out
}

// scoredBy returns, by the index of each Closed, Withdrew and Cancelled
// event that the change from old to t appends, the matches of the games
// that event scored while they were still to play (a round's deadline, a
// withdrawal's forfeits), or, a cancel, ended unscored: the bot calls them
// off once the change is stored, so their announcement waits for them
// (Notice.Until). Nil when the log does not replay.
func scoredBy(old, t *Tournament) map[int][]MatchID {
	var s *tournament.Tournament
	var out map[int][]MatchID
	for i := len(old.Log); i < len(t.Log); i++ {
		e := t.Log[i]
		ends := e.Kind == tournament.Closed || e.Kind == tournament.Withdrew || e.Kind == tournament.Cancelled
		if s == nil {
			if !ends {
				continue
			}
			var err error
			if s, err = tournament.Replay(t.Rules, t.Log[:i]); err != nil {
				return nil
			}
		}
		var before []boardRef
		if ends {
			before = pendingOf(s)
		}
		if err := s.Apply(e); err != nil {
			return nil
		}
		r := s.Rounds()
		for _, b := range before {
			if e.Kind != tournament.Cancelled && (b.round > len(r) || !r[b.round-1].Games[b.board-1].Result.Done()) {
				continue
			}
			if g, ok := t.GameOf(b.round, b.board); ok {
				if out == nil {
					out = map[int][]MatchID{}
				}
				out[i] = append(out[i], g.Match)
			}
		}
	}
	return out
}

// boardRef names board (from 1) of round.
type boardRef struct{ round, board int }

// pendingOf lists the boards of s without a result.
func pendingOf(s *tournament.Tournament) []boardRef {
	var out []boardRef
	for _, r := range s.Rounds() {
		for _, k := range r.Pending() {
			out = append(out, boardRef{r.Number, k + 1})
		}
	}
	return out
}

// TournamentLimits bounds the tournaments not yet over (not Done) on one
// server that CreateTournament accepts: of one creator, and in all. 0 sets
// no bound.
type TournamentLimits struct{ PerCreator, PerServer int }

// TournamentLimitError is CreateTournament's refusal: Open tournaments not
// yet over already reach a limit, the creator's when Creator, else the
// server's.
type TournamentLimitError struct {
	Creator bool
	Open    int
}

func (e *TournamentLimitError) Error() string {
	if e.Creator {
		return fmt.Sprintf("the creator already runs %d tournaments not yet over", e.Open)
	}
	return fmt.Sprintf("the server already runs %d tournaments not yet over", e.Open)
}

// Allow returns a *TournamentLimitError when one more tournament would go
// over the limits, given how many not yet over the server and the creator
// have; nil when it would not.
func (l TournamentLimits) Allow(onServer, ofCreator int) error {
	switch {
	case l.PerCreator > 0 && ofCreator >= l.PerCreator:
		return &TournamentLimitError{Creator: true, Open: ofCreator}
	case l.PerServer > 0 && onServer >= l.PerServer:
		return &TournamentLimitError{Open: onServer}
	}
	return nil
}

// TournamentStore keeps tournaments: a part of Store.
type TournamentStore interface {
	// CreateTournament stores a new tournament and returns it with its ID
	// and Version 1, unless it would go over limits: then it stores
	// nothing and returns a *TournamentLimitError. The count and the write
	// are one transaction that no other process's create on the server
	// can interleave with.
	CreateTournament(ctx context.Context, t *Tournament, limits TournamentLimits) (*Tournament, error)
	// Tournament returns the tournament with that id, or ErrNotFound.
	Tournament(ctx context.Context, id TournamentID) (*Tournament, error)
	// UpdateTournament changes a tournament with fn in one transaction, at
	// version expectVersion (0: any; ErrStale when it moved on): fn may
	// append events to the log, link matches to boards and change the
	// tournament's timers and channel, never rewrite its log, unlink a
	// match or link one another tournament's board plays (ErrInvalid). fn may run more than once. The links of Games are
	// indexed for MatchTournament, and the announcements the change owes
	// (TournamentNotices) recorded in the outbox, in the same transaction.
	UpdateTournament(ctx context.Context, id TournamentID, expectVersion uint64, fn func(t *Tournament) error) (*Tournament, error)
	// ServerTournaments returns a server's tournaments, oldest first: those
	// not Done, or (all) every one. One whose record cannot be read hides
	// no other: the others are returned with an *UnreadableError that names
	// it.
	ServerTournaments(ctx context.Context, guildID string, all bool) ([]*Tournament, error)
	// MatchTournament returns the board a match plays, or ErrNotFound when
	// it is no tournament's.
	MatchTournament(ctx context.Context, id MatchID) (TournamentGame, error)
	// DueTournaments returns the tournaments whose Wake is at or before now,
	// earliest first; NextTournamentWake the earliest Wake of any, and false
	// when none waits. A due tournament whose record cannot be read
	// (damaged, or written by a newer strategobot) holds up no other:
	// DueTournaments returns all the others, with an *UnreadableError that
	// names it.
	DueTournaments(ctx context.Context, now time.Time) ([]*Tournament, error)
	NextTournamentWake(ctx context.Context) (time.Time, bool, error)
}
