package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// eventsFromBytes turns fuzz input into a log: mostly events a real
// tournament could see (pairings from NextRound included), with bad ones
// mixed in. It applies them as it goes to find the pairings.
func eventsFromBytes(rules Rules, data []byte) []Event {
	tour, err := New(rules)
	if err != nil {
		return nil
	}
	var log []Event
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	ids := []string{"a", "b", "c", "d", "e", "f", "g", ""}
	for len(data) > 0 {
		op, x, y := next(), next(), next()
		var e Event
		switch op % 9 {
		case 0, 1:
			e = Join(ids[x%len(ids)], y*7)
		case 2:
			e = Withdraw(ids[x%len(ids)], WithdrawReason(y%4))
		case 3, 4:
			var err error
			if e, err = tour.NextRound(); err != nil {
				e = Event{Kind: Paired, Round: x % 5, Games: []Pairing{{Red: ids[x%len(ids)], Blue: ids[y%len(ids)]}}}
			}
		case 5:
			e = Record(x%5, y%7-1, Result(next()%11))
		case 6:
			e = CloseRound(x % 5)
		case 7:
			if x%8 == 0 {
				e = Cancel()
			} else {
				e = Record(len(tour.Rounds()), 1+y%4, Result(1+x%7))
			}
		default:
			e = Event{Kind: EventKind(x % 9), Player: ids[y%len(ids)], Round: y % 4, Board: x % 4, Result: Result(y % 10)}
		}
		_ = tour.Apply(e)
		log = append(log, e)
	}
	return log
}

func checkReplay(t *testing.T, rules Rules, log []Event) {
	tour, err := Replay(rules, log)
	if err != nil {
		var le *LogError
		if !errors.As(err, &le) || le.Index < 0 || le.Index >= len(log) || err.Error() == "" {
			t.Fatalf("refusal %v is not a *LogError within the log", err)
		}
		// The log up to the bad event replays.
		if _, err := Replay(rules, log[:le.Index]); err != nil {
			t.Fatalf("the log before the refused event: %v", err)
		}
		return
	}
	again, err := Replay(rules, tour.Log())
	if err != nil {
		t.Fatalf("replaying an accepted log: %v", err)
	}
	if !reflect.DeepEqual(again.Rounds(), tour.Rounds()) || !reflect.DeepEqual(again.Players(), tour.Players()) ||
		!reflect.DeepEqual(again.Standings(), tour.Standings()) || again.Status() != tour.Status() {
		t.Fatal("the same log gave two tournaments")
	}
	seen := map[string]bool{}
	for _, p := range tour.Players() {
		if seen[p.ID] {
			t.Fatalf("%s listed twice", p.ID)
		}
		seen[p.ID] = true
	}
	for _, r := range tour.Rounds() {
		in := map[string]bool{}
		for _, g := range r.Games {
			for _, id := range []string{g.Red, g.Blue} {
				if id != "" && in[id] {
					t.Fatalf("round %d pairs %s twice", r.Number, id)
				}
				in[id] = true
			}
		}
	}
	_, _ = tour.NextRound()
	_ = tour.SwissPlayers()
}

// FuzzReplay: any log replays to a tournament or is refused with an error
// naming the first bad event; never a panic; an accepted log gives the same
// tournament every time.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{0, 1, 10, 0, 2, 20, 0, 3, 30, 3, 0, 0, 5, 1, 2, 1, 7, 1, 1, 3, 0, 0})
	f.Add([]byte{0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 1, 0, 4, 0, 0, 6, 1, 0, 4, 0, 0, 2, 2, 1, 4, 0, 0})
	f.Add([]byte{1, 0, 0, 1, 1, 0, 1, 2, 0, 1, 3, 0, 1, 4, 0, 3, 0, 0, 8, 3, 0, 7, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 600 {
			return
		}
		for _, rules := range []Rules{DefaultRules(Swiss, 3), func() Rules { r := DefaultRules(RoundRobin, 0); r.Double = true; return r }()} {
			checkReplay(t, rules, eventsFromBytes(rules, data))
		}
	})
}

// FuzzReplayJSON: a log as storage would keep it, in JSON, with anything in
// its fields.
func FuzzReplayJSON(f *testing.F) {
	rules := DefaultRules(Swiss, 2)
	tour, _ := New(rules)
	for i := range 5 {
		_ = tour.Apply(Join(fmt.Sprint("p", i), 1000-i))
	}
	e, _ := tour.NextRound()
	_ = tour.Apply(e)
	_ = tour.Apply(Record(1, 1, RedWon))
	_ = tour.Apply(Withdraw("p3", LeftServer))
	_ = tour.Apply(CloseRound(1))
	seed, _ := json.Marshal(tour.Log())
	f.Add(seed)
	f.Add([]byte(`[{"kind":3,"round":1,"games":[{"red":"x"}]}]`))
	f.Add([]byte(`[{"kind":1,"player":"a"},{"kind":1,"player":"b"},{"kind":3,"round":1,"games":[{"red":"a","blue":"b"}]},{"kind":4,"round":1,"board":1,"result":3}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var log []Event
		if json.Unmarshal(data, &log) != nil || len(log) > 200 {
			return
		}
		checkReplay(t, rules, log)
	})
}
