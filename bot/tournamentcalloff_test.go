package bot

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
	"github.com/strategobot/strategobot/tournament"
)

// unreadableMatches fails every read of a match.
type unreadableMatches struct{ storage.Store }

func (unreadableMatches) Match(context.Context, storage.MatchID) (*storage.Match, error) {
	return nil, errors.New("the database is away")
}

// TestCallOffRoundLogsAnUnreadMatch: a tournament match that the round's
// deadline cannot read to call off is logged, not passed over in silence.
func TestCallOffRoundLogsAnUnreadMatch(t *testing.T) {
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var logs strings.Builder
	clock := discordtest.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := New(Config{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nil, unreadableMatches{db}, nil)
	tt := &storage.Tournament{ID: 3, Games: []storage.TournamentGame{{Round: 1, Board: 1, Match: 7}}}
	b.callOffRound(ctx, tt, 1, "the round's deadline passed")
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "match=7") {
		t.Errorf("an unread match to call off was not logged:\n%s", logs.String())
	}
}

// roundOverStore holds one tournament match in play whose round is over:
// a reminder for it is refused (storage.ErrRoundOver).
type roundOverStore struct {
	storage.Store
	m *storage.Match
}

func (s roundOverStore) Match(context.Context, storage.MatchID) (*storage.Match, error) {
	return s.m, nil
}

func (s roundOverStore) MarkReminded(context.Context, storage.MatchID, uint64, time.Time) (*storage.Match, error) {
	return nil, storage.ErrRoundOver
}

// TestReminderAfterTheRoundQuiet: a reminder that storage refuses because
// the match's round is over (its call-off lost) does not warn on every
// pass: the match is handed to callOffLost instead.
func TestReminderAfterTheRoundQuiet(t *testing.T) {
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var logs strings.Builder
	clock := discordtest.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	m := &storage.Match{ID: 7, GuildID: "g1", Phase: storage.PhasePlaying, RoundEnds: clock.Now().Add(-time.Hour),
		Players: [2]storage.Player{{UserID: "1", Name: "one"}, {UserID: "2", Name: "two"}}}
	b := New(Config{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nil, roundOverStore{db, m}, nil)
	b.onDeadline(ctx, storage.Deadline{Kind: storage.DeadlineReminder, ID: 7, At: clock.Now()})
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("a reminder refused for the round is over warned:\n%s", logs.String())
	}
}

// abandonFails fails every Abandon of one match.
type abandonFails struct {
	storage.Store
	lost storage.MatchID
}

func (s abandonFails) Abandon(ctx context.Context, id storage.MatchID, version uint64, at time.Time, why storage.CallOff) (*storage.Match, error) {
	if id == s.lost {
		return nil, errors.New("the database is away")
	}
	return s.Store.Abandon(ctx, id, version, at, why)
}

// TestCallOffScoredRoundOnlyWhenAllOff: of a round closed with two games
// still on, whose call-offs were both lost, callOffScored calls off the
// second and not the first (its call-off lost again): the round is not
// known over (its result is no more rounds than before).
func TestCallOffScoredRoundOnlyWhenAllOff(t *testing.T) {
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tt, err := db.CreateTournament(ctx, storagetest.NewTournament("g1"), storage.TournamentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	tt, err = db.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		for _, id := range []string{"1001", "1002", "1003", "1004"} {
			x.Log = append(x.Log, tournament.Join(id, 1500))
		}
		s, err := x.State()
		if err != nil {
			return err
		}
		e, err := s.NextRound()
		x.Log = append(x.Log, e)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var matches []*storage.Match
	for k := range 2 {
		m := storagetest.NewMatch(game.VariantClassic)
		m.Tournament = tt.ID
		matches = append(matches, storagetest.Started(t, db, m, uint64(k+1)))
	}
	tt, err = db.UpdateTournament(ctx, tt.ID, 0, func(x *storage.Tournament) error {
		for k, m := range matches {
			x.Games = append(x.Games, storage.TournamentGame{Round: 1, Board: k + 1, Match: m.ID})
		}
		x.Log = append(x.Log, tournament.CloseRound(1))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	state, err := tt.State()
	if err != nil {
		t.Fatal(err)
	}
	clock := discordtest.NewFakeClock(storagetest.T0.Add(time.Hour))
	b := New(Config{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil, abandonFails{db, matches[0].ID}, nil)
	if off := b.callOffScored(ctx, tt, state); off != 0 {
		t.Errorf("round 1 known over (%d rounds), its first match still on", off)
	}
	for k, m := range matches {
		got, err := db.Match(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Phase.Active() != (k == 0) {
			t.Errorf("match %d on %v; want only the first, its call-off lost, on", m.ID, got.Phase.Active())
		}
	}
}
