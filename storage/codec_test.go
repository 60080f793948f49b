package storage

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

func TestLogRoundTrip(t *testing.T) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	log := []Action{
		{Kind: ActMove, Side: game.Red, Move: game.Move{From: 31, To: 41}, At: base.Add(40 * time.Second)},
		{Kind: ActOfferDraw, Side: game.Red, At: base.Add(50 * time.Second)},
		{Kind: ActMove, Side: game.Blue, Move: game.Move{From: 96, To: 56}, At: base.Add(time.Hour)},
		{Kind: ActDeclineDraw, Side: game.Blue, At: base.Add(time.Hour)},
		{Kind: ActMove, Side: game.Red, Move: game.Move{From: 74, To: 84, Guess: game.Flag}, At: base.Add(time.Hour - 5*time.Second)}, // a clock that went back
		{Kind: ActAway, Side: game.Blue, Away: 90 * time.Minute, At: base.Add(2 * time.Hour)},
		{Kind: ActResign, Side: game.Blue, At: base.Add(2 * time.Hour)},
		{Kind: ActTimeOut, Side: game.Red, At: base.Add(3 * time.Hour)},
	}
	text := encodeLog(base, log)
	if want := "B4B5+40 offer:R+10 G10G6+3550 decline:B+0 E8~E9=F+-5 away:B:5400+3605 resign:B+0 timeout:R+3600"; text != want {
		t.Errorf("encoded %q\nwant    %q", text, want)
	}
	got, err := decodeLog(base, text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, log) {
		t.Errorf("decoded %+v\nwant %+v", got, log)
	}
	for _, bad := range []string{"B4B5", "B4B5+x", "Z4B5+1", "offer:X+1", "jump:R+1", "away:R+1", "away:R:0+1", "away:R:x+1"} {
		if _, err := decodeLog(base, bad); err == nil {
			t.Errorf("decodeLog(%q) accepted it", bad)
		}
	}
}

func TestSetupRoundTrip(t *testing.T) {
	for _, v := range game.Variants[:4] {
		s := game.RandomSetup(game.DefaultRules(v), uint64(v))
		text := encodeSetup(&s)
		if len(text) != 40 {
			t.Fatalf("%s: %d characters", v, len(text))
		}
		got, err := decodeSetup(text)
		if err != nil || got != s {
			t.Errorf("%s: %q decoded to a different set-up (%v)", v, text, err)
		}
	}
	for _, bad := range []string{"short", strings.Repeat("Z", 40)} {
		if _, err := decodeSetup(bad); err == nil {
			t.Errorf("decodeSetup(%q) accepted it", bad)
		}
	}
}

func TestResultRoundTrip(t *testing.T) {
	for o := game.RedWon; o <= game.Drawn; o++ {
		for m := game.FlagCaptured; m <= game.MoveLimit; m++ {
			r := game.Result{Outcome: o, Method: m}
			got, err := decodeResult(encodeResult(r))
			if err != nil || got != r {
				t.Errorf("%v: got %v, %v", r, got, err)
			}
		}
	}
}

// TestMatchRecordIsReadable pins the shape of a stored match: JSON a person can read.
func TestMatchRecordIsReadable(t *testing.T) {
	m := &Match{ID: 7, Version: 3, GuildID: "g", ChannelID: "c", Rules: game.DefaultRules(game.VariantBarrage), MoveTime: time.Hour,
		Phase: PhasePlaying, Created: time.Unix(1700000000, 0).UTC()}
	m.Players = [2]Player{{"1", "Ann"}, {"2", "Bob"}}
	m.Log = []Action{{Kind: ActMove, Side: game.Red, Move: game.Move{From: 31, To: 41}, At: m.Created.Add(time.Minute)}}
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"v": 2.0, "phase": "playing", "log": "B4B5+60", "move_time": 3600.0, "secret": strings.Repeat("00", 32)} {
		if fields[k] != want {
			t.Errorf("%s = %v, want %v (record %s)", k, fields[k], want, data)
		}
	}
	// Unknown fields (from a newer minor version) are ignored.
	data = append(data[:len(data)-1], `,"from_the_future":1}`...)
	got, err := decodeMatch(data)
	if err != nil || got.ID != 7 || len(got.Log) != 1 {
		t.Errorf("with an unknown field: %+v, %v", got, err)
	}
	// A newer record version is refused.
	if _, err := decodeMatch([]byte(`{"v":99}`)); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("a newer record: %v", err)
	}
}

// TestComputerLevel reads the computer's level of a practice match from its
// field, and from "msgs"/"extra", where records before the field kept it.
// Storage keeps the level's name as it was written: what a name means is
// the computer's business (game/ai reads it, and "medium" there is normal).
func TestComputerLevel(t *testing.T) {
	m := &Match{ID: 3, Version: 1, ChannelID: "c", Rules: game.DefaultRules(game.VariantDuel), MoveTime: time.Hour,
		Casual: true, Computer: "hard", Created: time.Unix(1700000000, 0).UTC()}
	m.Players = [2]Player{{"1", "Ann"}, {"99", "Computer (hard)"}}
	data, err := encodeMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"computer":"hard"`) || strings.Contains(string(data), "msgs") {
		t.Errorf("record %s", data)
	}
	tests := []struct {
		name, record string
		want         string
		ok           bool
	}{
		{"the field", string(data), "hard", true},
		{"a match between people", `{"v":1,"id":4,"channel":"c","rules":{"variant":"classic"},"phase":"setup","msgs":{"challenge":"55"}}`, "", true},
		{"an older record", `{"v":1,"id":5,"channel":"c","rules":{"variant":"duel"},"phase":"setup","msgs":{"extra":{"computer":"Easy"}}}`, "easy", true},
		{"an older name", `{"v":1,"id":6,"channel":"c","rules":{"variant":"duel"},"phase":"setup","msgs":{"extra":{"computer":"medium"}}}`, "medium", true},
	}
	for _, tc := range tests {
		got, err := decodeMatch([]byte(tc.record))
		if (err == nil) != tc.ok {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if err == nil && got.Computer != tc.want {
			t.Errorf("%s: computer %v, want %v", tc.name, got.Computer, tc.want)
		}
	}
}

func TestRandomLogsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	rules := game.DefaultRules(game.VariantInfiltrator)
	g, err := game.NewGame(rules, game.RandomSetup(rules, 1), game.RandomSetup(rules, 2))
	if err != nil {
		t.Fatal(err)
	}
	base := time.Unix(1700000000, 0).UTC()
	var log []Action
	at := base
	for i := 0; i < 500 && !g.Result().Over(); i++ {
		moves := g.LegalMoves()
		mv := moves[r.IntN(len(moves))]
		side := g.ToMove()
		if _, err := g.Apply(mv); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Duration(r.IntN(100000)) * time.Second)
		log = append(log, Action{Kind: ActMove, Side: side, Move: mv, At: at})
	}
	got, err := decodeLog(base, encodeLog(base, log))
	if err != nil || !reflect.DeepEqual(got, log) {
		t.Fatalf("random log does not round-trip: %v", err)
	}
}

// TestUpgradeRecord: an older record is rewritten in the format asked for,
// every other field kept; a record at that format or later is left alone
// (nil); a newer record than this program reads, or no record, is refused.
func TestUpgradeRecord(t *testing.T) {
	got, err := UpgradeRecord("player", []byte(`{"v":1,"id":"7","ver":3,"classic":true,"locale":"nl"}`), 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := decodePlayer(got)
	if err != nil {
		t.Fatal(err)
	}
	if p.UserID != "7" || p.Version != 3 || p.Numbering != game.NumberingClassic || p.Locale != "nl" || strings.Contains(string(got), "classic\":true") {
		t.Errorf("upgraded to %s: %+v", got, p)
	}
	m, err := UpgradeRecord("match", []byte(`{"v":1,"id":1,"channel":"c"}`), 2)
	if err != nil || !strings.Contains(string(m), `"v":2`) || !strings.Contains(string(m), `"secret":"`) {
		t.Errorf("a v1 match upgraded to %s, %v; want v2 with a secret", m, err)
	}
	if got, err := UpgradeRecord("player", got, 2); got != nil || err != nil {
		t.Errorf("a current record: %s, %v; want nil, nil", got, err)
	}
	if _, err := UpgradeRecord("player", []byte(`{"v":99}`), 2); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("a newer record: %v, want ErrNewerSchema", err)
	}
	if _, err := UpgradeRecord("player", []byte(`not json`), 2); !errors.Is(err, ErrCorrupt) {
		t.Errorf("no record: %v, want ErrCorrupt", err)
	}
	if _, err := UpgradeRecord("match", []byte(`{"v":1}`), 7); !errors.Is(err, ErrInvalid) {
		t.Errorf("a format that does not exist: %v, want ErrInvalid", err)
	}
}

// TestServerVacationDaysRecord: records written before vacations could be
// turned off keep their meaning (no field: the default; a number: that
// allowance), and zero, now "off", is written and read back.
func TestServerVacationDaysRecord(t *testing.T) {
	for _, tc := range []struct {
		name, record string
		allowance    int
		chosen       bool
	}{
		{"older record, no choice", `{"v":1,"id":"7","ver":3}`, DefaultVacationDays, false},
		{"older record, ten days", `{"v":1,"id":"7","ver":3,"vacation_days":10}`, 10, true},
		{"vacations off", `{"v":1,"id":"7","ver":3,"vacation_days":0}`, 0, true},
	} {
		s, err := decodeServer([]byte(tc.record))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s.VacationAllowance() != tc.allowance || (s.VacationDays != nil) != tc.chosen {
			t.Errorf("%s: allowance %d (chosen %v), want %d (%v)", tc.name, s.VacationAllowance(), s.VacationDays != nil, tc.allowance, tc.chosen)
		}
		data, err := encodeServer(s)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeServer(data)
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Errorf("%s: %s read back as %+v (%v), want %+v", tc.name, data, again, err, s)
		}
	}
}
