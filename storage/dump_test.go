package storage_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// memDumper and memLoader copy from and into a storage.Dump.
type (
	memDumper struct{ d *storage.Dump }
	memLoader struct {
		d    *storage.Dump
		fail error // refuses every match
	}
)

func (m memDumper) Dump(ctx context.Context, to storage.Sink) error { return m.d.Send(ctx, to) }
func (m *memLoader) Load(ctx context.Context, from storage.Source) error {
	return from(ctx, m)
}
func (m *memLoader) Meta(x storage.Meta) error { return m.d.Meta(x) }
func (m *memLoader) Match(x *storage.Match) error {
	if m.fail != nil {
		return m.fail
	}
	return m.d.Match(x)
}
func (m *memLoader) Follower(id storage.MatchID, u string) error   { return m.d.Follower(id, u) }
func (m *memLoader) Challenge(x *storage.Challenge) error          { return m.d.Challenge(x) }
func (m *memLoader) Player(x *storage.PlayerSettings) error        { return m.d.Player(x) }
func (m *memLoader) Server(x *storage.ServerSettings) error        { return m.d.Server(x) }
func (m *memLoader) Standing(x storage.Standing) error             { return m.d.Standing(x) }
func (m *memLoader) Notice(x *storage.Notice) error                { return m.d.Notice(x) }
func (m *memLoader) Seek(x *storage.Seek) error                    { return m.d.Seek(x) }
func (m *memLoader) Tournament(x *storage.Tournament) error        { return m.d.Tournament(x) }
func (m *memLoader) TournamentGame(g storage.TournamentGame) error { return m.d.TournamentGame(g) }

// TestCopy: Copy counts what it passes on, refuses an id past its
// sequence as the source's corruption, and says which side failed.
func TestCopy(t *testing.T) {
	match := func(id storage.MatchID, phase storage.Phase) *storage.Match {
		m := storagetest.NewMatch(game.VariantClassic)
		m.ID, m.Phase = id, phase
		return m
	}
	full := errors.New("no space left on device")
	tests := []struct {
		name    string
		src     storage.Dump
		fail    error
		want    storage.Counts
		wantErr string
		is      error
	}{
		{"counted", storage.Dump{Sequences: storage.Sequences{Match: 3, Notice: 9},
			Matches:   []*storage.Match{match(1, storage.PhaseFinished), match(3, storage.PhasePlaying)},
			Followers: map[storage.MatchID][]string{3: {"7", "8"}}, Notices: []storage.Notice{{ID: 9}}},
			nil, storage.Counts{Matches: 2, Active: 1, Followers: 2, Notices: 1}, "", nil},
		{"a match past its sequence", storage.Dump{Sequences: storage.Sequences{Match: 2}, Matches: []*storage.Match{match(3, storage.PhaseFinished)}},
			nil, storage.Counts{}, "read the source: match 3 is past the matches' sequence 2", storage.ErrCorrupt},
		{"a notice past its sequence", storage.Dump{Notices: []storage.Notice{{ID: 1}}},
			nil, storage.Counts{}, "read the source: notice 1 is past the notices' sequence 0", storage.ErrCorrupt},
		{"the target refuses", storage.Dump{Sequences: storage.Sequences{Match: 1}, Matches: []*storage.Match{match(1, storage.PhaseFinished)}},
			full, storage.Counts{}, "write the target: no space left on device", full},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := storage.Copy(context.Background(), memDumper{&tc.src}, &memLoader{d: new(storage.Dump), fail: tc.fail})
			if tc.wantErr == "" {
				if err != nil || got != tc.want {
					t.Errorf("Copy: %+v, %v; want %+v", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || !errors.Is(err, tc.is) {
				t.Errorf("Copy: %v; want %q, wrapping %v", err, tc.wantErr, tc.is)
			}
		})
	}
}

// TestCountsString: copydb's report of what it copied says "1 server", not
// "1 servers".
func TestCountsString(t *testing.T) {
	for _, tc := range []struct {
		c    storage.Counts
		want string
	}{
		{storage.Counts{Servers: 1}, "0 matches (0 under way), 0 followers, 0 challenges, 0 seeks, 0 tournaments, " +
			"0 players, 1 server, 0 standings, 0 notices still owed"},
		{storage.Counts{Matches: 1, Active: 1, Followers: 1, Challenges: 1, Seeks: 1, Tournaments: 1, Players: 1, Servers: 1, Standings: 1, Notices: 1},
			"1 match (1 under way), 1 follower, 1 challenge, 1 seek, 1 tournament, 1 player, 1 server, 1 standing, 1 notice still owed"},
		{storage.Counts{Matches: 12, Active: 3, Followers: 2, Challenges: 2, Seeks: 2, Tournaments: 2, Players: 24, Servers: 2, Standings: 2, Notices: 5},
			"12 matches (3 under way), 2 followers, 2 challenges, 2 seeks, 2 tournaments, 24 players, 2 servers, 2 standings, 5 notices still owed"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
}
