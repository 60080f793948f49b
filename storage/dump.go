package storage

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Dump is a whole database in the form both backends read and write, for
// moving a stopped bot's database from one backend to the other
// (strategobot copydb): every record with its id and version as stored,
// the outbox's notices with their ids and delivery state, and what lives
// beside the records (followers, the web key, when the bot was last alive,
// the sequences ids are drawn from). Indexes are not in it: the target
// writes them from the records, as every change does. Leases are not in
// it either: they belong to the processes of the source, which are gone.
//
// It holds hidden information (set-ups, secrets, the web key): it is never
// written anywhere but into the target database, and nothing prints it.
type Dump struct {
	Matches     []*Match
	Followers   map[MatchID][]string // by match, ordered by user id
	Challenges  []*Challenge
	Players     []*PlayerSettings
	Servers     []*ServerSettings
	Standings   []Standing
	Notices     []Notice // the outbox, ids as stored
	Seeks       []*Seek
	Tournaments []*Tournament
	WebKey      []byte    // nil when no process drew one yet
	Alive       time.Time // zero: never recorded
	Sequences   Sequences
}

// Sequences are the last ids each kind of record was given (0: none), so
// that the target goes on from them and never hands out an id twice: a
// deleted challenge's, or a done notice's, is not given again.
type Sequences struct {
	Match, Challenge, Notice, Tournament uint64
}

// Dumper is a backend that reads its whole database into a Dump, from one
// consistent snapshot.
type Dumper interface {
	Dump(ctx context.Context) (*Dump, error)
}

// Loader is a backend that writes a Dump into its empty database in one
// transaction: a database holding any record is refused with ErrNotEmpty
// and left as it was, and the ids it draws next are past those of the
// Dump and any it drew before.
type Loader interface {
	Load(ctx context.Context, d *Dump) error
}

// ErrNotEmpty refuses to load a Dump into a database that holds records.
var ErrNotEmpty = errors.New("the target database is not empty")

// Counts says how many records of each kind a Dump holds.
type Counts struct {
	Matches, Active, Followers, Challenges, Players, Servers, Standings, Notices, Seeks, Tournaments int
}

// Counts counts d's records.
func (d *Dump) Counts() Counts {
	c := Counts{Matches: len(d.Matches), Challenges: len(d.Challenges), Players: len(d.Players), Servers: len(d.Servers),
		Standings: len(d.Standings), Notices: len(d.Notices), Seeks: len(d.Seeks), Tournaments: len(d.Tournaments)}
	for _, m := range d.Matches {
		if m.Phase.Active() {
			c.Active++
		}
	}
	for _, f := range d.Followers {
		c.Followers += len(f)
	}
	return c
}

// String is the counts as copydb reports them.
func (c Counts) String() string {
	return fmt.Sprintf("%d matches (%d under way), %d followers, %d challenges, %d seeks, %d tournaments, "+
		"%d players, %d servers, %d standings, %d notices still owed",
		c.Matches, c.Active, c.Followers, c.Challenges, c.Seeks, c.Tournaments, c.Players, c.Servers, c.Standings, c.Notices)
}

// Copy reads the whole of from and writes it into to, which must be empty,
// and returns what it copied.
func Copy(ctx context.Context, from Dumper, to Loader) (Counts, error) {
	d, err := from.Dump(ctx)
	if err != nil {
		return Counts{}, fmt.Errorf("read the source: %w", err)
	}
	if err := d.check(); err != nil {
		return Counts{}, fmt.Errorf("read the source: %w", err)
	}
	if err := to.Load(ctx, d); err != nil {
		return Counts{}, fmt.Errorf("write the target: %w", err)
	}
	return d.Counts(), nil
}

// check refuses a Dump whose ids run past its sequences, which the target
// would hand out again.
func (d *Dump) check() error {
	s := d.Sequences
	for _, m := range d.Matches {
		if uint64(m.ID) > s.Match {
			return fmt.Errorf("match %d is past the matches' sequence %d: %w", m.ID, s.Match, ErrCorrupt)
		}
	}
	for _, c := range d.Challenges {
		if uint64(c.ID) > s.Challenge {
			return fmt.Errorf("challenge %d is past the challenges' sequence %d: %w", c.ID, s.Challenge, ErrCorrupt)
		}
	}
	for _, n := range d.Notices {
		if n.ID > s.Notice {
			return fmt.Errorf("notice %d is past the notices' sequence %d: %w", n.ID, s.Notice, ErrCorrupt)
		}
	}
	for _, t := range d.Tournaments {
		if uint64(t.ID) > s.Tournament {
			return fmt.Errorf("tournament %d is past the tournaments' sequence %d: %w", t.ID, s.Tournament, ErrCorrupt)
		}
	}
	return nil
}
