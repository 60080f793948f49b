package storagetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// Damage overwrites the stored record of tournament id with data, as a
// damaged disk, a hand edit, or a newer strategobot sharing the database
// would leave it; the record's indexes (its timer) stay as they were. A
// backend's own test gives it: the Store interface writes no such record.
type Damage func(t *testing.T, id storage.TournamentID, data []byte)

// UnreadableTournaments runs, on stores from open, the checks that a
// tournament record that cannot be read holds up no other: DueTournaments
// and ServerTournaments return every other tournament, in order, with an
// *storage.UnreadableError naming that one (errors.Is sees its cause);
// NextTournamentWake still reports its timer, and CreateTournament counts
// it among its server's tournaments not yet over.
func UnreadableTournaments(t *testing.T, open func(t *testing.T) (storage.Store, Damage)) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"damaged", `{"v":1,"id":2,"log":"not a log"}`, storage.ErrCorrupt},
		{"bad rules", `{"v":1,"id":2,"game":{"variant":"nonsense"}}`, storage.ErrCorrupt},
		{"newer", `{"v":99,"id":2}`, storage.ErrNewerSchema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, damage := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ctx := context.Background()
			var ids []storage.TournamentID
			for _, guild := range []string{"g1", "g2", "g3", "g2"} {
				ids = append(ids, must(s.CreateTournament(ctx, NewTournament(guild), storage.TournamentLimits{})).in(t).ID)
			}
			// The fourth, of g2 too, is over.
			must(s.UpdateTournament(ctx, ids[3], 0, func(x *storage.Tournament) error { x.Done = true; return nil })).in(t)
			start := T0.Add(24 * time.Hour) // NewTournament's start
			damage(t, ids[1], []byte(tc.data))
			due, err := s.DueTournaments(ctx, start)
			var unread *storage.UnreadableError
			if !errors.As(err, &unread) {
				t.Fatalf("DueTournaments with tournament %d damaged: %v, want an *UnreadableError", ids[1], err)
			}
			if !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) || !errors.Is(err, tc.want) {
				t.Errorf("unreadable %v (%v), want tournament %d, %v", unread.IDs, err, ids[1], tc.want)
			}
			var got []storage.TournamentID
			for _, x := range due {
				got = append(got, x.ID)
			}
			if want := []storage.TournamentID{ids[0], ids[2]}; !slices.Equal(got, want) {
				t.Errorf("due with tournament %d damaged: %v, want the others %v", ids[1], got, want)
			}
			if at, ok, err := s.NextTournamentWake(ctx); !ok || err != nil || !at.Equal(start) {
				t.Errorf("next timer %v, %v, %v; want the start %v", at, ok, err, start)
			}
			// Before any is due, nothing is read, and nothing fails.
			if due, err := s.DueTournaments(ctx, start.Add(-time.Second)); len(due) != 0 || err != nil {
				t.Errorf("due before the start: %v, %v", due, err)
			}
			for _, all := range []bool{false, true} {
				list, err := s.ServerTournaments(ctx, "g2", all)
				if !errors.As(err, &unread) || !slices.Equal(unread.IDs, []uint64{uint64(ids[1])}) || !errors.Is(err, tc.want) {
					t.Errorf("ServerTournaments(all %v) with tournament %d damaged: %v, want an *UnreadableError naming it", all, ids[1], err)
				}
				var got []storage.TournamentID
				for _, x := range list {
					got = append(got, x.ID)
				}
				var want []storage.TournamentID
				if all {
					want = []storage.TournamentID{ids[3]}
				}
				if !slices.Equal(got, want) {
					t.Errorf("ServerTournaments(all %v) with tournament %d damaged: %v, want the others %v", all, ids[1], got, want)
				}
			}
			// The damaged one is not over: it counts for its server.
			limits := storage.TournamentLimits{PerServer: 2}
			if _, err := s.CreateTournament(ctx, NewTournament("g2"), limits); err != nil {
				t.Errorf("a second tournament of g2 beside the damaged one: %v", err)
			}
			var limit *storage.TournamentLimitError
			if _, err := s.CreateTournament(ctx, NewTournament("g2"), limits); !errors.As(err, &limit) || limit.Open != 2 {
				t.Errorf("a third tournament of g2, two allowed: %v, want a *TournamentLimitError of 2", err)
			}
		})
	}
}
