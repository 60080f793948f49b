package bolt

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// TestDecodedMatches: a cached match is what decoding its bytes gives, a record
// that changed is decoded again, every reader gets its own copy, a damaged
// record is refused and never cached, and the cache stays within its size.
func TestDecodedMatches(t *testing.T) {
	record := func(t *testing.T, id storage.MatchID, version uint64, moves int) []byte {
		t.Helper()
		m := &storage.Match{ID: id, Version: version, ChannelID: "c", Rules: game.DefaultRules(game.VariantBarrage), MoveTime: time.Hour,
			Phase: storage.PhasePlaying, Created: time.Unix(1700000000, 0).UTC(), Computer: "hard"}
		m.Players = [2]storage.Player{{UserID: "1", Name: "Ann"}, {UserID: "2", Name: "Bob"}}
		for i := range moves {
			m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: game.Side(i % 2), Move: game.Move{From: 31, To: 41}, At: m.Created})
		}
		data, err := storage.EncodeMatch(m)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	decode := func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match], id storage.MatchID, data []byte) *storage.Match {
		t.Helper()
		got, err := c.get(id, data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := storage.DecodeMatch(data)
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
		run  func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match])
	}{
		{"read twice", func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match]) {
			data := record(t, 1, 1, 2)
			decode(t, c, 1, data)
			decode(t, c, 1, data)
		}},
		{"the record changed", func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match]) {
			decode(t, c, 1, record(t, 1, 1, 2))
			if m := decode(t, c, 1, record(t, 1, 2, 3)); m.Version != 2 || len(m.Log) != 3 {
				t.Errorf("version %d with %d actions, want the new record's 2 and 3", m.Version, len(m.Log))
			}
		}},
		{"the record changed back", func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match]) {
			first, second := record(t, 1, 1, 2), record(t, 1, 2, 3)
			decode(t, c, 1, first)
			decode(t, c, 1, second)
			if m := decode(t, c, 1, first); m.Version != 1 {
				t.Errorf("version %d, want the first record's 1", m.Version)
			}
		}},
		{"each reader has its own copy", func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match]) {
			data := record(t, 1, 1, 2)
			decode(t, c, 1, data)
			first := decode(t, c, 1, data) // from the cache
			first.Log[0].Move.To = 51
			first.Computer = "easy"
			first.Players[0].Name = "Eve"
			decode(t, c, 1, data)
		}},
		{"a damaged record", func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match]) {
			data := record(t, 1, 1, 2)
			bad := data[:len(data)-3]
			for range 2 {
				if _, err := c.get(1, bad); !errors.Is(err, storage.ErrCorrupt) {
					t.Fatalf("a damaged record: %v, want ErrCorrupt", err)
				}
			}
			decode(t, c, 1, data)
		}},
		{"size", func(t *testing.T, c *decodedCache[storage.MatchID, *storage.Match]) {
			for id := storage.MatchID(1); id <= 10; id++ {
				decode(t, c, id, record(t, id, 1, int(id)))
			}
			if n := len(c.entries); n != 4 {
				t.Errorf("%d entries, want at most 4", n)
			}
			for id := storage.MatchID(1); id <= 10; id++ {
				decode(t, c, id, record(t, id, 1, int(id)))
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, newDecodedCache[storage.MatchID](4, storage.DecodeMatch, (*storage.Match).Clone))
		})
	}
}

// TestDecodedPlayers: each reader of a player's cached settings gets its own
// saved set-ups and defaults to change, and a changed record is decoded again.
func TestDecodedPlayers(t *testing.T) {
	c := newDecodedCache[string](4, storage.DecodePlayer, (*storage.PlayerSettings).Clone)
	p := &storage.PlayerSettings{UserID: "1", Version: 1, Locale: "nl",
		Setups:   []storage.SavedSetup{{Name: "wall", Variant: game.VariantBarrage, Setup: game.RandomSetup(game.DefaultRules(game.VariantBarrage), 1)}},
		Defaults: map[game.Variant]string{game.VariantBarrage: "wall"}}
	data, err := storage.EncodePlayer(p)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		got, err := c.get("1", data)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := storage.DecodePlayer(data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("from the cache %+v\nwant %+v", got, want)
		}
		got.Setups[0].Name, got.Defaults[game.VariantBarrage] = "changed by a reader", "changed by a reader"
	}
	p.Version, p.Locale = 2, "de"
	data2, _ := storage.EncodePlayer(p)
	if got, _ := c.get("1", data2); got.Locale != "de" {
		t.Errorf("locale %q after the record changed, want de", got.Locale)
	}
}

// TestDecodedNotices: each reader of a cached notice gets its own copy, its
// challenge included, and a notice whose delivery moved on (a part sent) is
// decoded again.
func TestDecodedNotices(t *testing.T) {
	c := newDecodedCache[uint64](4, storage.DecodeNotice, (*storage.Notice).Clone)
	at := time.Unix(1700000000, 0).UTC()
	n := &storage.Notice{ID: 7, Event: storage.EventChallengeExpired, To: storage.AudiencePublic, At: at, NextTry: at,
		Challenge: &storage.Challenge{ID: 3, ChannelID: "c", Challenger: storage.Player{UserID: "1", Name: "Ann"}, Rules: game.DefaultRules(game.VariantClassic),
			MoveTime: time.Hour, Created: at, Expires: at.Add(time.Hour)}}
	data, err := storage.EncodeNotice(n)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		got, err := c.get(7, data)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := storage.DecodeNotice(data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("from the cache %+v\nwant %+v", got, want)
		}
		got.Sent, got.Challenge.ChannelID = 9, "changed by a reader"
	}
	n.Sent = 1
	data2, _ := storage.EncodeNotice(n)
	if got, _ := c.get(7, data2); got.Sent != 1 {
		t.Errorf("%d parts sent after the record changed, want 1", got.Sent)
	}
}
