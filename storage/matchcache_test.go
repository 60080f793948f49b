package storage

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
)

// TestMatchCache: a cached match is what decoding its bytes gives, a record
// that changed is decoded again, every reader gets its own copy, a damaged
// record is refused and never cached, and the cache stays within its size.
func TestMatchCache(t *testing.T) {
	hard := ai.Hard
	record := func(t *testing.T, id MatchID, version uint64, moves int) []byte {
		t.Helper()
		m := &Match{ID: id, Version: version, ChannelID: "c", Rules: game.DefaultRules(game.VariantBarrage), MoveTime: time.Hour,
			Phase: PhasePlaying, Created: time.Unix(1700000000, 0).UTC(), Computer: &hard}
		m.Players = [2]Player{{"1", "Ann"}, {"2", "Bob"}}
		for i := range moves {
			m.Log = append(m.Log, Action{Kind: ActMove, Side: game.Side(i % 2), Move: game.Move{From: 31, To: 41}, At: m.Created})
		}
		data, err := encodeMatch(m)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	decode := func(t *testing.T, c *MatchCache, id MatchID, data []byte) *Match {
		t.Helper()
		got, err := c.Decode(id, data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := decodeMatch(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("from the cache %+v\nwant %+v", got, want)
		}
		return got
	}
	tests := []struct {
		name string
		run  func(t *testing.T, c *MatchCache)
	}{
		{"read twice", func(t *testing.T, c *MatchCache) {
			data := record(t, 1, 1, 2)
			decode(t, c, 1, data)
			decode(t, c, 1, data)
		}},
		{"the record changed", func(t *testing.T, c *MatchCache) {
			decode(t, c, 1, record(t, 1, 1, 2))
			if m := decode(t, c, 1, record(t, 1, 2, 3)); m.Version != 2 || len(m.Log) != 3 {
				t.Errorf("version %d with %d actions, want the new record's 2 and 3", m.Version, len(m.Log))
			}
		}},
		{"a written record is read back", func(t *testing.T, c *MatchCache) {
			data := record(t, 1, 5, 4)
			m, _ := decodeMatch(data)
			c.Put(1, data, m)
			m.Log, m.Version = nil, 99 // the writer goes on changing its match
			if got := decode(t, c, 1, data); got.Version != 5 || len(got.Log) != 4 {
				t.Errorf("version %d with %d actions, want 5 and 4", got.Version, len(got.Log))
			}
		}},
		{"a written record that was rolled back", func(t *testing.T, c *MatchCache) {
			stored, rolledBack := record(t, 1, 1, 2), record(t, 1, 2, 3)
			m, _ := decodeMatch(rolledBack)
			c.Put(1, rolledBack, m)
			if got := decode(t, c, 1, stored); got.Version != 1 {
				t.Errorf("version %d, want the stored 1", got.Version)
			}
		}},
		{"each reader has its own copy", func(t *testing.T, c *MatchCache) {
			data := record(t, 1, 1, 2)
			decode(t, c, 1, data)
			first := decode(t, c, 1, data) // from the cache
			first.Log[0].Move.To = 51
			*first.Computer = ai.Easy
			first.Players[0].Name = "Eve"
			decode(t, c, 1, data)
		}},
		{"a damaged record", func(t *testing.T, c *MatchCache) {
			data := record(t, 1, 1, 2)
			bad := data[:len(data)-3]
			for range 2 {
				if _, err := c.Decode(1, bad); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("a damaged record: %v, want ErrCorrupt", err)
				}
			}
			decode(t, c, 1, data)
		}},
		{"size", func(t *testing.T, c *MatchCache) {
			for id := MatchID(1); id <= 10; id++ {
				decode(t, c, id, record(t, id, 1, int(id)))
			}
			if n := len(c.entries); n != 4 {
				t.Errorf("%d entries, want at most 4", n)
			}
			for id := MatchID(1); id <= 10; id++ {
				decode(t, c, id, record(t, id, 1, int(id)))
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, NewMatchCache(4)) })
	}
}
