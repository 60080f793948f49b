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
// returns every other due tournament, in order, with an
// *storage.UnreadableError naming that one (errors.Is sees its cause),
// and NextTournamentWake still reports its timer.
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
			for _, guild := range []string{"g1", "g2", "g3"} {
				ids = append(ids, must(s.CreateTournament(ctx, NewTournament(guild), storage.TournamentLimits{})).in(t).ID)
			}
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
		})
	}
}
