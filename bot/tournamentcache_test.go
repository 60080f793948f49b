package bot

import (
	"testing"

	"github.com/strategobot/strategobot/storage"
)

// TestTournamentCacheKeepsTheNewest: the cache keeps the newest version it
// was given, and not a read that began before a change whose outcome was
// unknown (forget): that read may be older than what the store holds.
func TestTournamentCacheKeepsTheNewest(t *testing.T) {
	version := func(v uint64) *storage.Tournament { return &storage.Tournament{ID: 1, Version: v} }
	tests := []struct {
		name string
		run  func(c *tournamentCache)
		want uint64 // the version kept; 0: none
	}{
		{"a change, then an older read", func(c *tournamentCache) {
			began := c.readBegins()
			c.put(version(3))
			c.putRead(version(2), began)
		}, 3},
		{"a read", func(c *tournamentCache) {
			c.putRead(version(2), c.readBegins())
		}, 2},
		{"a read that began before a change of unknown outcome", func(c *tournamentCache) {
			began := c.readBegins()
			c.put(version(2))
			c.forget(1) // version 3 written, or not: unknown
			c.putRead(version(2), began)
		}, 0},
		{"a read that began after it", func(c *tournamentCache) {
			c.forget(1)
			c.putRead(version(3), c.readBegins())
		}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTournamentCache()
			tc.run(c)
			got, ok := c.get(1)
			switch {
			case tc.want == 0 && ok:
				t.Errorf("kept version %d, want none", got.Version)
			case tc.want != 0 && (!ok || got.Version != tc.want):
				t.Errorf("kept %v (%v), want version %d", got, ok, tc.want)
			}
		})
	}
}
