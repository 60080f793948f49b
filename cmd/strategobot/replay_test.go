package main

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

const sampleDir = "../../game/testdata/gravon"

// writeZip writes a zip archive of the given entries to dir and returns its path.
func writeZip(t *testing.T, dir string, entries map[string][]byte, order []string) string {
	t.Helper()
	path := filepath.Join(dir, "games.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, name := range order {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(entries[name]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sampleDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func runReplayArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runReplay(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	order := []string{
		"barrage-2013.10-1649.xml", // a 4th move between the same two squares
		"duell-2014.3-51.xml",
		"classicfree-2004.11-15.xml",
		"broken.xml",
		"notes.txt", // not a record: ignored
		"classic-2014.0-1937.xml",
	}
	entries := map[string][]byte{
		"broken.xml": []byte("<stratego><game type="),
		"notes.txt":  []byte("hello"),
	}
	for _, name := range order {
		if entries[name] == nil {
			entries[name] = readSample(t, name)
		}
	}
	zipPath := writeZip(t, dir, entries, order)
	xmlPath := filepath.Join(sampleDir, "classic-2005.1-38.xml")

	code, stdout, stderr := runReplayArgs(t, zipPath, xmlPath)
	want := zipPath + "/barrage-2013.10-1649.xml: move 188 I9-I8: the Two-Squares rule forbids a 4th move between I8 and I9\n" +
		"6 games, 3 agree, 1 disagree, 2 skipped\n" +
		"  skipped 1: game type \"classicfree\"\n" +
		"  skipped 1: unreadable record\n"
	if code != 1 || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1, stdout:\n%s", code, stdout, want)
	}
	if !strings.HasPrefix(stderr, zipPath+"/broken.xml: gravon: reading XML") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr: %q", stderr)
	}

	// Two-Squares 5, given after the files: no disagreement.
	code, stdout, _ = runReplayArgs(t, zipPath, xmlPath, "--two-squares", "5")
	if code != 0 || !strings.HasPrefix(stdout, "6 games, 4 agree, 0 disagree, 2 skipped\n") {
		t.Errorf("--two-squares 5: exit %d, stdout:\n%s", code, stdout)
	}
	code, stdout, _ = runReplayArgs(t, "--more-squares", "off", "--two-squares=off", xmlPath)
	if code != 0 || stdout != "1 games, 1 agree, 0 disagree, 0 skipped\n" {
		t.Errorf("one XML file: exit %d, stdout:\n%s", code, stdout)
	}
}

// TestReplayStatedRules replays a record written by this project with the rules
// it states, unless a flag overrides them.
func TestReplayStatedRules(t *testing.T) {
	rules := game.DefaultRules(game.VariantBarrage)
	rules.TwoSquares = 0
	var setup game.Setup
	copy(setup[0][:], []game.Rank{game.Marshal, game.General, game.Miner, game.Scout, game.Scout, game.Spy, game.Bomb, game.Flag})
	g, err := game.NewGame(rules, setup, setup)
	if err != nil {
		t.Fatal(err)
	}
	// Red's Marshal goes A4-A5 and back four times in a row, Blue's J7-J6 three times.
	for _, text := range []string{"A4-A5", "J7-J6", "A5-A4", "J6-J7", "A4-A5", "J7-J6", "A5-A4"} {
		m, err := game.ParseMove(text, game.NumberingModern)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Apply(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	var buf bytes.Buffer
	if err := game.NewRecord(g, "red", "blue").WriteGravon(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "own.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runReplayArgs(t, path)
	if code != 0 || stdout != "1 games, 1 agree, 0 disagree, 0 skipped\n" {
		t.Errorf("stated rules: exit %d, stdout:\n%s", code, stdout)
	}
	code, stdout, _ = runReplayArgs(t, "--two-squares", "3", path)
	want := path + ": move 7 A5-A4: the Two-Squares rule forbids a 4th move between A4 and A5\n1 games, 0 agree, 1 disagree, 0 skipped\n"
	if code != 1 || stdout != want {
		t.Errorf("--two-squares 3: exit %d, stdout:\n%s\nwant:\n%s", code, stdout, want)
	}
}

func TestReplayUsage(t *testing.T) {
	xmlPath := filepath.Join(sampleDir, "classic-2005.1-38.xml")
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	svg := filepath.Join(dir, "board.xml")
	quoting := filepath.Join(dir, "FORMAT.md")
	for path, text := range map[string]string{
		readme:  "# Games\nThe zips hold Gravon records.\n",
		svg:     `<?xml version="1.0"?><svg></svg>`,
		quoting: "# Format\n```xml\n<stratego>\n <game type=\"classic\">\n```\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	emptyZip := writeZip(t, t.TempDir(), nil, nil)
	otherZip := writeZip(t, t.TempDir(), map[string][]byte{"README.md": []byte("hello")}, []string{"README.md"})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no files", nil, "no files given"},
		{"two-squares 4", []string{"--two-squares", "4", xmlPath}, "replay: -two-squares is 3, 5 or off"},
		{"more-squares maybe", []string{"--more-squares=maybe", xmlPath}, "replay: -more-squares is on or off"},
		{"unknown flag", []string{"--fast", xmlPath}, "flag provided but not defined"},
		{"flag without value", []string{xmlPath, "--two-squares"}, "flag needs an argument"},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.zip")}, "no such file"},
		{"a README", []string{xmlPath, readme}, readme + " is not a Gravon record (it is text, not an XML document with a <stratego> root)"},
		{"a README quoting a record", []string{quoting}, quoting + " is not a Gravon record (it is text"},
		{"another XML document", []string{svg}, svg + " is not a Gravon record (its root element is <svg>, not <stratego>)"},
		{"an empty zip", []string{emptyZip, xmlPath}, emptyZip + " holds no Gravon records (no .xml file in the archive)"},
		{"a zip of other files", []string{otherZip}, otherZip + " holds no Gravon records"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runReplayArgs(t, tc.args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
	code, stdout, _ := runReplayArgs(t, "--help")
	if code != 0 || !strings.Contains(stdout, "usage: strategobot replay") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
	if code := program().Dispatch(context.Background(), []string{"replay"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
		t.Errorf("dispatch replay without files: exit %d, want 2", code)
	}
}

func TestReplayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := runReplay(ctx, []string{filepath.Join(sampleDir, "classic-2005.1-38.xml")}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "context canceled") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestReplayFolder: a folder is no record: replay says to give its files,
// as the pattern of those it holds, and exits 2.
func TestReplayFolder(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, files ...string) string {
		d := filepath.Join(dir, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	records, archives, both, none := mk("records", "a.xml", "b.XML"), mk("archives", "2014.zip"), mk("both", "a.xml", "b.zip"), mk("none", "notes.txt")
	tests := []struct{ dir, want string }{
		{records, "strategobot replay: " + records + " is a folder: give the files in it instead, as " + records + "/*.xml\n"},
		{archives, "strategobot replay: " + archives + " is a folder: give the files in it instead, as " + archives + "/*.zip\n"},
		{both, "strategobot replay: " + both + " is a folder: give the files in it instead, as " + both + "/*.zip " + both + "/*.xml\n"},
		{none, "strategobot replay: " + none + " is a folder, and holds no .zip or .xml file: give zip archives of Gravon games or their XML files\n"},
	}
	for _, tc := range tests {
		code, stdout, stderr := runReplayArgs(t, tc.dir)
		if code != 2 || stdout != "" || stderr != tc.want {
			t.Errorf("replay %s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.dir, code, stdout, stderr, tc.want)
		}
	}
}
