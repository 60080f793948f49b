package bot

import (
	"testing"
	"time"

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
			c := newSnapshotCache()
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
