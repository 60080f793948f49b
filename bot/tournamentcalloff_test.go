package bot

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
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
