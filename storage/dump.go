package storage

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// A database moves from one backend to the other (strategobot copydb) as a
// stream of its records: a Dumper sends them one at a time into a Sink,
// which a Loader writes into its empty database as they come, so that
// neither side holds more than a bounded part of the database in memory:
// every record with its id and version as stored, the outbox's notices
// with their ids and delivery state, and what lives beside the records
// (followers, the web key, when the bot was last alive, the sequences ids
// are drawn from). Indexes are not sent: the target writes them from the
// records, as every change does; but the board each match plays
// (MatchTournament) is, which the records cannot say of a match two
// tournaments link (see Loader). Leases are not sent either: they belong
// to the processes of the source, which are gone.
//
// The records hold hidden information (set-ups, secrets, the web key):
// they are never written anywhere but into the target database, and
// nothing prints them.

// Meta is what a database holds beside its records. A Dumper sends it
// first.
type Meta struct {
	WebKey    []byte    // nil when no process drew one yet
	Alive     time.Time // zero: never recorded
	Sequences Sequences
}

// Sequences are the last ids each kind of record was given (0: none), so
// that the target goes on from them and never hands out an id twice: a
// deleted challenge's, or a done notice's, is not given again.
type Sequences struct {
	Match, Challenge, Notice, Tournament uint64
}

// Sink takes a database's records as a Dumper sends them: Meta first, then
// the records of each kind in turn, in the order of its methods. It does
// not change a record it is given, nor keeps it past its call but to write
// it. An error stops the Dumper, which returns it.
type Sink interface {
	Meta(Meta) error
	Match(*Match) error
	Follower(match MatchID, user string) error // by match, then user id
	Challenge(*Challenge) error
	Player(*PlayerSettings) error
	Server(*ServerSettings) error
	Standing(Standing) error
	Notice(*Notice) error // the outbox, ids as stored
	Seek(*Seek) error
	Tournament(*Tournament) error
	// TournamentGame is the board a match plays (MatchTournament), one a
	// match a tournament's record links, by match id, after the
	// tournaments: see Loader.
	TournamentGame(TournamentGame) error
}

// Source sends a whole database into a Sink: a Dumper's Dump, or a Dump's
// Send.
type Source func(ctx context.Context, to Sink) error

// Dumper is a backend that sends its whole database into a Sink, from one
// consistent snapshot, a record at a time.
type Dumper interface {
	Dump(ctx context.Context, to Sink) error
}

// Loader is a backend that writes what a Source sends into its empty
// database: a database holding any record is refused with ErrNotEmpty
// before the Source is read and left as it was, and the ids it draws next
// are past those of the Source's Sequences and any it drew before. What
// Load writes is whole only once it returns nil: PostgreSQL writes it in
// one transaction; bbolt, in transactions of a bounded size, marks the file
// an unfinished copy until the last (ErrUnfinishedCopy).
//
// A tournament is written with its links as they are, as a tournament
// stored keeps those it holds (UpdateTournament), a match indexed for the
// first tournament sent that links it. A match that two tournaments link,
// which versions before the refusal of such a link let happen (PostgreSQL
// then kept the first link, bbolt the last), then plays the board the
// Source sends for it (Sink.TournamentGame: both backends' Dump send what
// their MatchTournament says) where that tournament's record holds it, so
// that its result counts in the copy for the tournament it counted for in
// the source; the other tournament's record keeps its link. A board no
// record holds is not written, the match keeping the board the records
// gave it, as an index is written from the records.
type Loader interface {
	Load(ctx context.Context, from Source) error
}

// ErrNotEmpty refuses to load into a database that holds records.
var ErrNotEmpty = errors.New("the target database is not empty")

// ErrUnfinishedCopy refuses to open a database a copy was written into but
// never finished (strategobot copydb stopped or failed on the way).
var ErrUnfinishedCopy = errors.New("a copy that was never finished (strategobot copydb was stopped on the way): delete it and copy again")

// Counts says how many records of each kind a copy held.
type Counts struct {
	Matches, Active, Followers, Challenges, Players, Servers, Standings, Notices, Seeks, Tournaments int
}

// String is the counts as copydb reports them, each noun singular for one.
func (c Counts) String() string {
	return fmt.Sprintf("%s (%d under way), %s, %s, %s, %s, %s, %s, %s, %s still owed",
		counted(c.Matches, "match", "matches"), c.Active, counted(c.Followers, "follower", "followers"),
		counted(c.Challenges, "challenge", "challenges"), counted(c.Seeks, "seek", "seeks"),
		counted(c.Tournaments, "tournament", "tournaments"), counted(c.Players, "player", "players"),
		counted(c.Servers, "server", "servers"), counted(c.Standings, "standing", "standings"),
		counted(c.Notices, "notice", "notices"))
}

// counted is n with the noun's singular or plural: "1 server", "2 servers".
func counted(n int, one, other string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, other)
}

// Copy reads the whole of from and writes it into to, which must be empty,
// a record at a time, and returns what it copied. An error says which side
// failed: "read the source" or "write the target".
func Copy(ctx context.Context, from Dumper, to Loader) (Counts, error) {
	var c copier
	err := to.Load(ctx, func(ctx context.Context, sink Sink) error {
		c.to = sink
		err := from.Dump(ctx, &c)
		var w *targetError
		if err != nil && !errors.As(err, &w) {
			err = &sourceError{err}
		}
		return err
	})
	var r *sourceError
	var w *targetError
	switch {
	case err == nil:
		if !c.meta {
			return Counts{}, errors.New("read the source: it sent nothing")
		}
		return c.counts, nil
	case errors.As(err, &r):
		return Counts{}, fmt.Errorf("read the source: %w", r.err)
	case errors.As(err, &w):
		return Counts{}, fmt.Errorf("write the target: %w", w.err)
	default:
		return Counts{}, fmt.Errorf("write the target: %w", err)
	}
}

// sourceError and targetError say which side of a Copy failed.
type (
	sourceError struct{ err error }
	targetError struct{ err error }
)

func (e *sourceError) Error() string { return e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }
func (e *targetError) Error() string { return e.err.Error() }
func (e *targetError) Unwrap() error { return e.err }

// copier passes a Dumper's records on to a Loader's Sink, counting them,
// and refuses a record whose id runs past its sequence, which the target
// would hand out again.
type copier struct {
	to     Sink
	meta   bool
	seq    Sequences
	counts Counts
}

// pass passes a record on: err is the check's (the source's), then the
// target's.
func (c *copier) pass(err error, put func() error) error {
	if err == nil && !c.meta {
		err = fmt.Errorf("a record came before the sequences: %w", ErrCorrupt)
	}
	if err != nil {
		return err
	}
	if err := put(); err != nil {
		return &targetError{err}
	}
	return nil
}

// past refuses a record's id past the last its sequence gave.
func past(what, kind string, id, last uint64) error {
	if id > last {
		return fmt.Errorf("%s %d is past the %s' sequence %d: %w", what, id, kind, last, ErrCorrupt)
	}
	return nil
}

func (c *copier) Meta(m Meta) error {
	c.meta, c.seq = true, m.Sequences
	if err := c.to.Meta(m); err != nil {
		return &targetError{err}
	}
	return nil
}

func (c *copier) Match(m *Match) error {
	c.counts.Matches++
	if m.Phase.Active() {
		c.counts.Active++
	}
	return c.pass(past("match", "matches", uint64(m.ID), c.seq.Match), func() error { return c.to.Match(m) })
}

func (c *copier) Follower(id MatchID, user string) error {
	c.counts.Followers++
	return c.pass(nil, func() error { return c.to.Follower(id, user) })
}

func (c *copier) Challenge(ch *Challenge) error {
	c.counts.Challenges++
	return c.pass(past("challenge", "challenges", uint64(ch.ID), c.seq.Challenge), func() error { return c.to.Challenge(ch) })
}

func (c *copier) Player(p *PlayerSettings) error {
	c.counts.Players++
	return c.pass(nil, func() error { return c.to.Player(p) })
}

func (c *copier) Server(s *ServerSettings) error {
	c.counts.Servers++
	return c.pass(nil, func() error { return c.to.Server(s) })
}

func (c *copier) Standing(s Standing) error {
	c.counts.Standings++
	return c.pass(nil, func() error { return c.to.Standing(s) })
}

func (c *copier) Notice(n *Notice) error {
	c.counts.Notices++
	return c.pass(past("notice", "notices", n.ID, c.seq.Notice), func() error { return c.to.Notice(n) })
}

func (c *copier) Seek(s *Seek) error {
	c.counts.Seeks++
	return c.pass(nil, func() error { return c.to.Seek(s) })
}

func (c *copier) Tournament(t *Tournament) error {
	c.counts.Tournaments++
	return c.pass(past("tournament", "tournaments", uint64(t.ID), c.seq.Tournament), func() error { return c.to.Tournament(t) })
}

func (c *copier) TournamentGame(g TournamentGame) error {
	return c.pass(nil, func() error { return c.to.TournamentGame(g) })
}

// Dump is a whole database held in memory: a Sink that keeps what it is
// sent, and a Source (Send) that sends it again. For tests and tools that
// build a database, not for copying one: it holds all of it.
type Dump struct {
	WebKey      []byte    // nil when no process drew one yet
	Alive       time.Time // zero: never recorded
	Sequences   Sequences
	Matches     []*Match
	Followers   map[MatchID][]string // by match, ordered by user id
	Challenges  []*Challenge
	Players     []*PlayerSettings
	Servers     []*ServerSettings
	Standings   []Standing
	Notices     []Notice // the outbox, ids as stored
	Seeks       []*Seek
	Tournaments []*Tournament
	Games       []TournamentGame // the board each match plays, by match
}

var _ Sink = (*Dump)(nil)

func (d *Dump) Meta(m Meta) error {
	d.WebKey, d.Alive, d.Sequences = m.WebKey, m.Alive, m.Sequences
	return nil
}
func (d *Dump) Match(m *Match) error         { d.Matches = append(d.Matches, m); return nil }
func (d *Dump) Challenge(c *Challenge) error { d.Challenges = append(d.Challenges, c); return nil }
func (d *Dump) Player(p *PlayerSettings) error {
	d.Players = append(d.Players, p)
	return nil
}
func (d *Dump) Server(s *ServerSettings) error { d.Servers = append(d.Servers, s); return nil }
func (d *Dump) Standing(s Standing) error      { d.Standings = append(d.Standings, s); return nil }
func (d *Dump) Notice(n *Notice) error         { d.Notices = append(d.Notices, *n); return nil }
func (d *Dump) Seek(s *Seek) error             { d.Seeks = append(d.Seeks, s); return nil }
func (d *Dump) Tournament(t *Tournament) error { d.Tournaments = append(d.Tournaments, t); return nil }
func (d *Dump) TournamentGame(g TournamentGame) error {
	d.Games = append(d.Games, g)
	return nil
}
func (d *Dump) Follower(id MatchID, user string) error {
	if d.Followers == nil {
		d.Followers = map[MatchID][]string{}
	}
	d.Followers[id] = append(d.Followers[id], user)
	return nil
}

// Send sends d into to, as a Dumper would: Meta first, followers by match.
func (d *Dump) Send(ctx context.Context, to Sink) error {
	if err := to.Meta(Meta{WebKey: d.WebKey, Alive: d.Alive, Sequences: d.Sequences}); err != nil {
		return err
	}
	for _, m := range d.Matches {
		if err := to.Match(m); err != nil {
			return err
		}
	}
	ids := slices.Sorted(maps.Keys(d.Followers))
	for _, id := range ids {
		for _, u := range d.Followers[id] {
			if err := to.Follower(id, u); err != nil {
				return err
			}
		}
	}
	for _, c := range d.Challenges {
		if err := to.Challenge(c); err != nil {
			return err
		}
	}
	for _, p := range d.Players {
		if err := to.Player(p); err != nil {
			return err
		}
	}
	for _, s := range d.Servers {
		if err := to.Server(s); err != nil {
			return err
		}
	}
	for _, s := range d.Standings {
		if err := to.Standing(s); err != nil {
			return err
		}
	}
	for i := range d.Notices {
		if err := to.Notice(&d.Notices[i]); err != nil {
			return err
		}
	}
	for _, s := range d.Seeks {
		if err := to.Seek(s); err != nil {
			return err
		}
	}
	for _, t := range d.Tournaments {
		if err := to.Tournament(t); err != nil {
			return err
		}
	}
	for _, g := range d.Games {
		if err := to.TournamentGame(g); err != nil {
			return err
		}
	}
	return ctx.Err()
}
