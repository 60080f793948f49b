package bot

import (
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// TestSnapshotCacheKeepsWhatWasRead: the cache keeps the newest version of
// a match; of the same version it keeps what was replayed and read for the
// snapshot it holds (the outbox may have composed from it before the
// change's own snapshot came), with the match whose clock started further.
func TestSnapshotCacheKeepsWhatWasRead(t *testing.T) {
	at := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	match := func(version uint64, pending bool, arrived int) *storage.Match {
		m := &storage.Match{ID: 7, Version: version, ClockPending: pending}
		for i := range arrived {
			m.InviteArrived[i] = at
		}
		return m
	}
	tests := []struct {
		name        string
		kept, put   *storage.Match
		wantVersion uint64
		wantPending bool
		wantArrived int
		wantShared  string // "kept" or "put"
	}{
		{"a newer version replaces", match(4, false, 0), match(5, true, 0), 5, true, 0, "put"},
		{"an older version is ignored", match(5, true, 0), match(4, false, 0), 5, true, 0, "kept"},
		{"the same version keeps what was read", match(5, true, 0), match(5, true, 0), 5, true, 0, "kept"},
		{"the same version, its clock started since", match(5, true, 0), match(5, false, 0), 5, false, 0, "kept"},
		{"the same version, from before its clock started", match(5, false, 0), match(5, true, 0), 5, false, 0, "kept"},
		{"the same version, an invite arrived since", match(5, true, 1), match(5, true, 2), 5, true, 2, "kept"},
		{"the same version, from before an invite arrived", match(5, true, 2), match(5, true, 1), 5, true, 2, "kept"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newSnapshotCache(storage.Changes{})
			kept, put := newSnapshot(tc.kept, nil), newSnapshot(tc.put, nil)
			c.put(kept)
			c.put(put)
			got, ok := c.get(7, tc.wantVersion)
			if !ok {
				t.Fatalf("no snapshot of version %d kept", tc.wantVersion)
			}
			arrived := 0
			for _, a := range got.m.InviteArrived {
				if !a.IsZero() {
					arrived++
				}
			}
			if got.m.ClockPending != tc.wantPending || arrived != tc.wantArrived {
				t.Errorf("kept a match with its clock pending %v and %d invites arrived; want %v and %d", got.m.ClockPending, arrived, tc.wantPending, tc.wantArrived)
			}
			want := map[string]*snapshotReads{"kept": kept.shared, "put": put.shared}[tc.wantShared]
			if got.shared != want {
				t.Errorf("kept the reads of the wrong snapshot; want the %s one's", tc.wantShared)
			}
		})
	}
}

// TestSnapshotCacheStartsLaterVersions: a change of the same turn stored
// while the board that starts its clock was on its way is stored waiting
// for it, and the store starts its clock when the board arrives. Whichever
// the cache learns of first, the change or the start, the snapshot it keeps
// has the clock running, with the change counted (the store's rule); the
// start of an earlier turn does not start a later one.
func TestSnapshotCacheStartsLaterVersions(t *testing.T) {
	day := 24 * time.Hour
	moved := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	arrived := moved.Add(2 * time.Hour)
	board := storage.Notice{Match: 7, Event: storage.EventMove, To: storage.AudienceBlue, Log: 1, Version: 4, At: moved, StartsClock: true}
	match := func(version uint64, log ...storage.Action) *storage.Match {
		return &storage.Match{ID: 7, Version: version, Phase: storage.PhasePlaying, MoveTime: day, ClockPending: true,
			Deadline: moved.Add(day), Log: append([]storage.Action{{Kind: storage.ActMove, Side: game.Red, At: moved}}, log...)}
	}
	gift := storage.Action{Kind: storage.ActGiveTime, Side: game.Red, At: moved.Add(time.Hour)}
	reply := storage.Action{Kind: storage.ActMove, Side: game.Blue, At: moved.Add(time.Hour)}
	tests := []struct {
		name        string
		before      *storage.Match // put before the start is known (nil: none)
		after       *storage.Match // put after it
		wantVersion uint64
		wantPending bool
		wantDue     time.Time
	}{
		{"the board's own version", match(4), nil, 4, false, arrived.Add(day)},
		{"a gift kept before the board arrived", match(5, gift), nil, 5, false, arrived.Add(2 * day)},
		{"a gift kept after the board arrived", match(4), match(5, gift), 5, false, arrived.Add(2 * day)},
		{"a gift kept only after the board arrived", nil, match(5, gift), 5, false, arrived.Add(2 * day)},
		{"the next turn", match(4), match(5, reply), 5, true, moved.Add(day)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newSnapshotCache(storage.Changes{})
			if tc.before != nil {
				c.put(newSnapshot(tc.before, nil))
			}
			c.started(board, arrived)
			if tc.after != nil {
				if kept := c.put(newSnapshot(tc.after, nil)); kept.m.Version != tc.wantVersion {
					t.Errorf("put answered version %d, want %d", kept.m.Version, tc.wantVersion)
				}
			}
			got, ok := c.get(7, tc.wantVersion)
			if !ok {
				t.Fatalf("no snapshot of version %d kept", tc.wantVersion)
			}
			if got.m.ClockPending != tc.wantPending || !got.m.Deadline.Equal(tc.wantDue) {
				t.Errorf("kept: clock pending %v, deadline %v after the move; want %v and %v", got.m.ClockPending, got.m.Deadline.Sub(moved), tc.wantPending, tc.wantDue.Sub(moved))
			}
		})
	}
}
