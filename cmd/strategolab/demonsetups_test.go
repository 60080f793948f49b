package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lab/published"
)

// readDemonSetups decodes Demon's set-up file as Demon places the pieces
// playing Red: piece i of its tray on column b[2i], row 3-b[2i+1] of ours.
func readDemonSetups(t *testing.T, b []byte) []game.Setup {
	t.Helper()
	if len(b)%demonSetupSize != 0 {
		t.Fatalf("the file has %d bytes, not a multiple of %d", len(b), demonSetupSize)
	}
	var tray []game.Rank
	army := game.DefaultRules(game.VariantClassic).Army
	for _, r := range demonTray {
		for range army[r] {
			tray = append(tray, r)
		}
	}
	var list []game.Setup
	for len(b) > 0 {
		var s game.Setup
		for i, r := range tray {
			col, row := int(b[2*i]), int(b[2*i+1])
			if col > 9 || row > 3 || s[3-row][col] != game.NoRank {
				t.Fatalf("piece %d (%v) on column %d, row %d: off the zone or on another piece", i, r, col, row)
			}
			s[3-row][col] = r
		}
		list = append(list, s)
		b = b[demonSetupSize:]
	}
	return list
}

// TestDemonSetups: the file holds the set-ups that are not published, each
// once (its mirror image counts as the same), in the order of the records,
// Red's before Blue's, and Demon reads back exactly those set-ups.
func TestDemonSetups(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	published, err := game.PublishedSetups(game.VariantClassic)
	if err != nil {
		t.Fatal(err)
	}
	own1, own2, own3 := game.RandomSetup(rules, 1), game.RandomSetup(rules, 2), game.RandomSetup(rules, 3)
	dir := t.TempDir()
	var files []string
	for i, pair := range [][2]game.Setup{
		{own1, published[0]},          // a published one is left out
		{published[1].Mirror(), own2}, // and so is a published one's mirror image
		{own1.Mirror(), own3},         // a set-up seen before, mirrored
		{own2, own1},                  // both seen before
	} {
		g, err := game.NewGame(rules, pair[game.Red], pair[game.Blue])
		if err != nil {
			t.Fatal(err)
		}
		saveTestRecord(t, dir, i+1, game.Red, g)
		files = append(files, filepath.Join(dir, "game-000"+string(rune('1'+i))+".xml"))
	}
	out := filepath.Join(t.TempDir(), "list.stg")
	var stdout, stderr bytes.Buffer
	code := program().Dispatch(context.Background(), append([]string{"demon-setups", "-o", out}, files...), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "wrote 3 set-ups to " + out + " (left out: 2 published, 3 seen before, 0 not a full Classic army)\n"; stdout.String() != want {
		t.Errorf("stdout = %q, want %q", stdout.String(), want)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := readDemonSetups(t, b)
	want := []game.Setup{own1, own2, own3}
	if len(got) != len(want) {
		t.Fatalf("read %d set-ups, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("set-up %d reads back as\n%v\nwant\n%v", i+1, got[i], want[i])
		}
	}
}

// TestDemonSetupsFar: with -far, a set-up a few squares from a published one
// is left out as near, and one far from all of them is kept.
func TestDemonSetupsFar(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	sets, err := game.PublishedSetups(game.VariantClassic)
	if err != nil {
		t.Fatal(err)
	}
	near := sets[0]
	near[3][0], near[3][1] = near[3][1], near[3][0] // two squares changed, if they differ
	if near == sets[0] {
		near[3][0], near[2][0] = near[2][0], near[3][0]
	}
	far := game.RandomSetup(rules, 1)
	if d, _, err := published.NewIndex().Nearest(game.VariantClassic, far); err != nil || d < published.FarFrom {
		t.Fatalf("the random set-up is %d squares from a published one (%v); the test needs a far one", d, err)
	}
	g, err := game.NewGame(rules, near, far)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	saveTestRecord(t, dir, 1, game.Red, g)
	out := filepath.Join(t.TempDir(), "far.stg")
	var stdout, stderr bytes.Buffer
	args := []string{"demon-setups", "-far", "-o", out, filepath.Join(dir, "game-0001.xml")}
	if code := program().Dispatch(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "wrote 1 set-ups to " + out + " (left out: 0 published, 1 near a published one, 0 seen before, 0 not a full Classic army)\n"; stdout.String() != want {
		t.Errorf("stdout = %q, want %q", stdout.String(), want)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := readDemonSetups(t, b); len(got) != 1 || got[0] != far {
		t.Errorf("the file holds %v, want only the far set-up", got)
	}
}

func TestDemonSetupsRefuses(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file to write", []string{"demon-setups", "records.zip"}, "name the file to write with -o FILE"},
		{"no records", []string{"demon-setups", "-o", "list.stg"}, "name one or more Gravon records"},
		{"a record that is not there", []string{"demon-setups", "-o", filepath.Join(t.TempDir(), "x.stg"), "no-such-file.zip"}, "no-such-file.zip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := program().Dispatch(context.Background(), tt.args, &stdout, &stderr); code == 0 {
				t.Fatalf("exit 0, want a failure; stdout %q", stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr = %q, want it to say %q", stderr.String(), tt.want)
			}
		})
	}
}

// TestDemonSetupsRandom: -random N writes the Random button's set-ups with
// seeds 1 to N, which Demon reads back; it takes no records, and a count
// of at least one.
func TestDemonSetupsRandom(t *testing.T) {
	rules := game.DefaultRules(game.VariantClassic)
	out := filepath.Join(t.TempDir(), "random.bin")
	var stdout, stderr bytes.Buffer
	if code := runDemonSetups(context.Background(), []string{"-o", out, "-random", "5"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := readDemonSetups(t, b)
	if len(got) != 5 {
		t.Fatalf("%d set-ups written, want 5", len(got))
	}
	for i, s := range got {
		if want := game.RandomSetup(rules, uint64(i+1)); s != want {
			t.Errorf("set-up %d:\n%v\nwant the Random button's with seed %d:\n%v", i+1, s, i+1, want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", out, "-random", "3", "records.zip"}, "give it no records"},
		{[]string{"-o", out, "-random", "3", "-far"}, "give it no records and no -far"},
		{[]string{"-o", out, "-random", "-1"}, "1 or more"},
		{[]string{"-random", "3"}, "name the file to write with -o FILE"},
		{[]string{"-o", out}, "name one or more Gravon records"},
	} {
		stderr.Reset()
		if code := runDemonSetups(context.Background(), tc.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
