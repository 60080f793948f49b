package storage_test

import (
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

func TestParseMatchID(t *testing.T) {
	tests := []struct {
		text string
		want storage.MatchID
		ok   bool
	}{
		{"42", 42, true},
		{" #7 ", 7, true},
		{"#12 Ada vs Bob", 12, true},
		{"12\tAda", 12, true},
		{"# 12", 0, false},
		{"0", 0, false},
		{"", 0, false},
		{"x1", 0, false},
		{"-3", 0, false},
	}
	for _, tc := range tests {
		got, err := storage.ParseMatchID(tc.text)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseMatchID(%q) = %d, %v", tc.text, got, err)
		}
		if tc.ok && got.String() != storage.MatchID(tc.want).String() {
			t.Errorf("String() = %q", got.String())
		}
	}
}

func TestMatchHelpers(t *testing.T) {
	m := storagetest.NewMatch(game.VariantClassic)
	tests := []struct {
		user string
		side game.Side
		ok   bool
	}{
		{"1001", game.Red, true},
		{"1002", game.Blue, true},
		{"1003", game.Red, false},
	}
	for _, tc := range tests {
		if side, ok := m.SideOf(tc.user); side != tc.side || ok != tc.ok {
			t.Errorf("SideOf(%s) = %v, %v", tc.user, side, ok)
		}
	}
	if m.Where() != "c1" {
		t.Errorf("Where() = %q without a thread", m.Where())
	}
	m.ThreadID = "t1"
	if m.Where() != "t1" {
		t.Errorf("Where() = %q with a thread", m.Where())
	}
	for p, want := range map[storage.Phase]string{storage.PhaseSetup: "setup", storage.PhasePlaying: "playing", storage.PhaseFinished: "finished", storage.PhaseAbandoned: "abandoned"} {
		if p.String() != want || p.Active() != (p <= storage.PhasePlaying) {
			t.Errorf("phase %d: %q active %v", p, p.String(), p.Active())
		}
	}
}

// TestSameTurn: a turn lasts until the next move or the end of the game;
// what happens within it (a draw offer, a gift of time) leaves it on.
func TestSameTurn(t *testing.T) {
	move := storage.Action{Kind: storage.ActMove}
	offer := storage.Action{Kind: storage.ActOfferDraw}
	gift := storage.Action{Kind: storage.ActGiveTime}
	tests := []struct {
		name  string
		phase storage.Phase
		log   []storage.Action
		from  int
		want  bool
	}{
		{"nothing since", storage.PhasePlaying, []storage.Action{move}, 1, true},
		{"a draw offer and a gift since", storage.PhasePlaying, []storage.Action{move, offer, gift}, 1, true},
		{"a move since", storage.PhasePlaying, []storage.Action{move, gift, move}, 1, false},
		{"the game is over", storage.PhaseFinished, []storage.Action{move}, 1, false},
		{"a log it never had", storage.PhasePlaying, []storage.Action{move}, 2, false},
	}
	for _, tc := range tests {
		m := &storage.Match{Phase: tc.phase, Log: tc.log}
		if got := m.SameTurn(tc.from); got != tc.want {
			t.Errorf("%s: SameTurn(%d) = %v, want %v", tc.name, tc.from, got, tc.want)
		}
	}
}
