package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestHabits: at each of plies 50, 100 and 200 that a game reaches, both of
// its sides are counted: moved pieces the other has not seen fight, pieces
// that can move but never did (not the Flag), and attacks made so far.
func TestHabits(t *testing.T) {
	rules := gametest.CustomRules(t, "9 4 3 2 2 F")
	red := map[string]game.Rank{"A1": game.Flag, "B1": game.General, "E4": game.Sergeant, "F4": game.Scout, "J1": game.Scout, "H1": game.Miner}
	blue := map[string]game.Rank{"A10": game.Flag, "E7": game.General, "J10": game.Scout, "H10": game.Miner, "C10": game.Sergeant, "B10": game.Scout}
	// Red's Sergeant and Scout move; Blue's General takes the Sergeant and
	// is seen; then a Scout of each side walks round a square. Red: 2 moved
	// unseen (Scouts F4 and J1), 2 never moved (General, Miner), 0 attacks;
	// Blue: 1 moved unseen (Scout J10), 3 never moved, 1 attack.
	opening := []string{"E4-E5", "E7-E6", "F4-F5", "E6xE5"}
	var rounds []string
	for range 25 {
		rounds = append(rounds, "J1-J2", "J10-J9", "J2-I2", "J9-I9", "I2-I1", "I9-I10", "I1-J1", "I10-J10")
	}
	moves := append(opening, rounds...)
	record := func(plies int) string {
		g := gametest.Scripted(t, rules, red, blue, moves[:plies]...)
		dir := t.TempDir()
		saveTestRecord(t, dir, 1, game.Red, g)
		return filepath.Join(dir, "game-0001.xml")
	}
	tests := []struct {
		name   string
		plies  []int // one game a length
		code   int
		stdout []string
		stderr string
	}{
		{"past ply 200", []int{204}, 0, []string{"1 Custom games, a side:", "50         2                   1.50                   2.50             0.50",
			"100        2                   1.50                   2.50             0.50", "200        2                   1.50                   2.50             0.50"}, ""},
		{"one game to ply 84, one past 200", []int{84, 204}, 0, []string{"2 Custom games, a side:", "50         4                   1.50                   2.50             0.50",
			"100        2", "200        2"}, ""},
		{"no game reaches ply 50", []int{44}, 1, nil, "no game of 1 reached ply 50"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"-variant", "custom"}
			for _, n := range tc.plies {
				args = append(args, record(n))
			}
			var out, errOut bytes.Buffer
			code := runHabits(context.Background(), args, &out, &errOut)
			if code != tc.code || !strings.Contains(errOut.String(), tc.stderr) {
				t.Fatalf("exit %d, stderr %q; want %d, %q", code, errOut.String(), tc.code, tc.stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			if tc.code == 0 && strings.Count(out.String(), "\n") != 2+len(tc.stdout)-1 {
				t.Errorf("output has %d lines, want %d:\n%s", strings.Count(out.String(), "\n"), 2+len(tc.stdout)-1, out.String())
			}
		})
	}
}

// TestHabitsRefuses: no record, or a variant it does not know.
func TestHabitsRefuses(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{nil, "name one or more Gravon records"},
		{[]string{"-variant", "chess", "x.xml"}, "chess"},
	} {
		var out, errOut bytes.Buffer
		if code := runHabits(context.Background(), tc.args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.stderr)
		}
	}
}
