package bot

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// TestTimeNotesVacationReturns: the history lists a vacation's end under
// the move it followed: one that ran out as such, and an early one (by a
// move of the player's, or by command) with when it was.
func TestTimeNotesVacationReturns(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	mark := func(at time.Time) string { return "<t:" + strconv.FormatInt(at.Unix(), 10) + ":f>" }
	move := func(side game.Side, at time.Time) storage.Action {
		return storage.Action{Kind: storage.ActMove, Side: side, At: at}
	}
	away := func(side game.Side, days int, at time.Time) storage.Action {
		return storage.Action{Kind: storage.ActVacation, Side: side, Days: days, At: at}
	}
	end := func(side game.Side, at time.Time) storage.Action {
		return storage.Action{Kind: storage.ActVacationEnd, Side: side, At: at}
	}
	tests := []struct {
		name string
		log  []storage.Action
		want map[int][]string
	}{
		{"ran out", []storage.Action{move(game.Red, t0), away(game.Blue, 3, t0.Add(time.Hour)), end(game.Blue, t0.Add(time.Hour+3*day)), move(game.Blue, t0.Add(4*day))},
			map[int][]string{1: {"bob went on vacation for 3 days.", "bob came back from vacation."}}},
		{"ended by command", []storage.Action{move(game.Red, t0), away(game.Blue, 3, t0.Add(time.Hour)), end(game.Blue, t0.Add(day))},
			map[int][]string{1: {"bob went on vacation for 3 days.", "bob came back from vacation early, " + mark(t0.Add(day)) + "."}}},
		{"ended by a move", []storage.Action{away(game.Red, 5, t0), move(game.Red, t0.Add(2*day)), move(game.Blue, t0.Add(3*day))},
			map[int][]string{0: {"alice went on vacation for 5 days.", "alice came back from vacation early, " + mark(t0.Add(2*day)) + "."}}},
		{"ran out, then a move before its end was logged", []storage.Action{away(game.Red, 2, t0), move(game.Red, t0.Add(3*day))},
			map[int][]string{0: {"alice went on vacation for 2 days.", "alice came back from vacation."}}},
		{"one day, said in the singular", []storage.Action{move(game.Red, t0), away(game.Blue, 1, t0.Add(time.Hour)), end(game.Blue, t0.Add(time.Hour+day))},
			map[int][]string{1: {"bob went on vacation for 1 day.", "bob came back from vacation."}}},
		{"the opponent's move ends nothing", []storage.Action{move(game.Red, t0), away(game.Red, 5, t0.Add(time.Hour)), move(game.Blue, t0.Add(day))},
			map[int][]string{1: {"alice went on vacation for 5 days."}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &storage.Match{Log: tc.log}
			got := timeNotes(m, narrator{names: [2]string{"alice", "bob"}, p: lang.For("en")})
			if len(got) != len(tc.want) {
				t.Fatalf("notes %v, want %v", got, tc.want)
			}
			for k, want := range tc.want {
				if !slices.Equal(got[k], want) {
					t.Errorf("notes after %d moves: %q, want %q", k, got[k], want)
				}
			}
		})
	}
}

// TestPlainTimes: a history sent as a file shows its times in UTC, not
// Discord's markup, which only a message turns into a time.
func TestPlainTimes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"alice came back from vacation early, <t:1772366400:f>.", "alice came back from vacation early, 2026-03-01 12:00 UTC."},
		{"until <t:1772366400:R> (<t:1772370000>)", "until 2026-03-01 12:00 UTC (2026-03-01 13:00 UTC)"},
		{"1. B4-B5 <t:x:f>", "1. B4-B5 <t:x:f>"},
		{"no time here", "no time here"},
	}
	for _, tc := range tests {
		if got := plainTimes(tc.in); got != tc.want {
			t.Errorf("plainTimes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestHistorySaysFlagCaptured: the history words a Flag's capture as the
// DMs and the pictures do, "captures the Flag", in every language, and any
// other battle won as "beats".
func TestHistorySaysFlagCaptured(t *testing.T) {
	t.Parallel()
	m := &storage.Match{ID: 1}
	m.Players[game.Red], m.Players[game.Blue] = storage.Player{UserID: "1", Name: "alice"}, storage.Player{UserID: "2", Name: "bob"}
	mv := func(text string) game.Move {
		t.Helper()
		m, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	v := &game.View{History: []game.MoveRecord{
		{Side: game.Red, Move: mv("A4-A7"), Outcome: game.AttackerWon, Attacker: game.Scout, Defender: game.Sergeant},
		{Side: game.Blue, Move: mv("J7-J6")},
		{Side: game.Red, Move: mv("E4-E7"), Outcome: game.AttackerWon, Attacker: game.Scout, Defender: game.Flag},
	}}
	for _, tc := range []struct{ locale, beats, captures string }{
		{"en", "1. Red A4xA7 Scout (2) beats Sergeant (4)", "3. Red E4xE7 Scout (2) captures the Flag"},
		{"nl", "1. Rood A4xA7 Verkenner (2) verslaat Sergeant (4)", "3. Rood E4xE7 Verkenner (2) verovert de Vlag"},
		{"de", "1. Rot A4xA7 Aufklärer (2) schlägt Unteroffizier (4)", "3. Rot E4xE7 Aufklärer (2) erobert die Fahne"},
		{"fr", "1. Rouge A4xA7 Éclaireur (2) bat Sergent (4)", "3. Rouge E4xE7 Éclaireur (2) prend le Drapeau"},
	} {
		p := lang.For(tc.locale)
		b := &Bot{}
		got := b.historyText(m, v, narrator{viewer: game.ViewerOf(game.Red), names: b.names(p, m), numbering: game.NumberingModern, p: p})
		lines := strings.Split(got, "\n")
		if len(lines) < 4 || lines[1] != tc.beats || lines[3] != tc.captures {
			t.Errorf("%s: the history reads\n%s\nwant its battles %q and %q", tc.locale, got, tc.beats, tc.captures)
		}
	}
}

// TestTimeNotesDrawOffers: the history lists a draw offered, and its
// refusal or its taking back, under the move it followed; an offer
// accepted is the result's to say.
func TestTimeNotesDrawOffers(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	act := func(kind storage.ActionKind, side game.Side) storage.Action {
		return storage.Action{Kind: kind, Side: side, At: t0}
	}
	move := func(side game.Side) storage.Action { return act(storage.ActMove, side) }
	tests := []struct {
		name string
		log  []storage.Action
		want map[int][]string
	}{
		{"declined", []storage.Action{move(game.Red), act(storage.ActOfferDraw, game.Blue), act(storage.ActDeclineDraw, game.Red), move(game.Blue)},
			map[int][]string{1: {"bob offered a draw.", "alice declined the draw."}}},
		{"taken back", []storage.Action{act(storage.ActOfferDraw, game.Red), move(game.Red), act(storage.ActDeclineDraw, game.Red)},
			map[int][]string{0: {"alice offered a draw."}, 1: {"alice took back the draw offer."}}},
		{"accepted", []storage.Action{move(game.Red), act(storage.ActOfferDraw, game.Red), act(storage.ActAcceptDraw, game.Blue)},
			map[int][]string{1: {"alice offered a draw."}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := timeNotes(&storage.Match{Log: tc.log}, narrator{names: [2]string{"alice", "bob"}, p: lang.For("en")})
			if len(got) != len(tc.want) {
				t.Fatalf("notes %v, want %v", got, tc.want)
			}
			for k, want := range tc.want {
				if !slices.Equal(got[k], want) {
					t.Errorf("notes after %d moves: %q, want %q", k, got[k], want)
				}
			}
		})
	}
}
