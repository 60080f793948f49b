package main

import (
	"bytes"
	"context"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoWritesEveryPicture(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"classic", []string{"-seed", "3", "-moves", "40"}},
		{"barrage in classic numbering", []string{"-variant", "barrage", "-numbering", "classic", "-moves", "30"}},
		{"custom with odd names", []string{"-variant", "custom", "-red", "🐉", "-blue", strings.Repeat("long name ", 20), "-moves", "20"}},
		{"a game of one move", []string{"-variant", "duel", "-moves", "1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "pictures")
			var out, errOut bytes.Buffer
			code := runDemo(context.Background(), append([]string{"-out", dir}, tc.args...), &out, &errOut)
			if code != 0 {
				t.Fatalf("exit code %d, stderr %q", code, errOut.String())
			}
			for _, name := range []string{"setup-red.png", "board-red.png", "board-blue.png", "board-public.png", "reveal.png", "replay.gif", "key.png"} {
				f, err := os.Open(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(name, ".gif") {
					_, err = gif.DecodeAll(f)
				} else {
					_, err = png.Decode(f)
				}
				f.Close()
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if !strings.Contains(out.String(), name) {
					t.Errorf("the output does not list %s: %q", name, out.String())
				}
			}
		})
	}
}

func TestDemoIsReproducible(t *testing.T) {
	t.Parallel()
	var pics [2][]byte
	for i := range pics {
		dir := t.TempDir()
		var out, errOut bytes.Buffer
		if code := runDemo(context.Background(), []string{"-out", dir, "-seed", "9", "-moves", "35"}, &out, &errOut); code != 0 {
			t.Fatalf("exit code %d, stderr %q", code, errOut.String())
		}
		var err error
		if pics[i], err = os.ReadFile(filepath.Join(dir, "board-public.png")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(pics[0], pics[1]) {
		t.Error("the same seed gave different pictures")
	}
}

func TestDemoUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no -out", nil, 2, "-out DIR is required"},
		{"unknown variant", []string{"-out", "x", "-variant", "chess"}, 2, "not a variant"},
		{"unknown numbering", []string{"-out", "x", "-numbering", "roman"}, 2, "not a numbering"},
		{"stray argument", []string{"-out", "x", "extra"}, 2, `unexpected argument "extra"`},
		{"no moves", []string{"-out", "x", "-moves", "0"}, 2, "-moves must be at least 1"},
		{"unknown flag", []string{"-frobnicate"}, 2, "flag provided but not defined"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := runDemo(context.Background(), tc.args, &out, &errOut); code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
			if !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr %q, want it to contain %q", errOut.String(), tc.stderr)
			}
		})
	}
	var out, errOut bytes.Buffer
	if code := runDemo(context.Background(), []string{"-h"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage: strategobot demo") || errOut.Len() > 0 {
		t.Errorf("-h: exit code %d, stdout %q, stderr %q; want 0 and the usage on stdout", code, out.String(), errOut.String())
	}
}

func TestDemoStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	if code := runDemo(ctx, []string{"-out", t.TempDir()}, &out, &errOut); code != 1 {
		t.Errorf("exit code %d, want 1 (stderr %q)", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "context canceled") {
		t.Errorf("stderr %q, want the cancellation", errOut.String())
	}
}

func TestDemoUnwritableDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	dir := filepath.Join(file, "sub")
	if code := runDemo(context.Background(), []string{"-out", dir, "-moves", "1"}, &out, &errOut); code != 1 {
		t.Errorf("exit code %d, want 1 (stderr %q)", code, errOut.String())
	}
	// The folder is named once, with what to fix: not "creating DIR: mkdir DIR: …".
	if got := errOut.String(); !strings.HasPrefix(got, "strategobot demo: cannot create the folder "+dir+": ") || strings.Count(got, dir) != 1 {
		t.Errorf("stderr %q, want the folder named once", got)
	}
}

// TestDemoDocsImages fails when docs/images are not what the command that
// makes them writes now: after a change of the pictures or of the demo game.
func TestDemoDocsImages(t *testing.T) {
	src, err := os.ReadFile("demo.go")
	if err != nil {
		t.Fatal(err)
	}
	// The go:generate line is the command the failure message names: it
	// must be the one tested.
	generate := "//go:generate go run . demo " + docsFlags + " -out ../../docs/images\n"
	if !bytes.Contains(src, []byte(generate)) {
		t.Fatalf("demo.go lacks the line %q", generate)
	}
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := runDemo(context.Background(), append(strings.Fields(docsFlags), "-out", dir), &out, &errOut); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	const docs = "../../docs/images"
	for _, d := range []struct{ have, want string }{{docs, dir}, {dir, docs}} {
		entries, err := os.ReadDir(d.have)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(d.want, e.Name())); err != nil {
				t.Errorf("%s is in %s, not in %s: remake docs/images with `go generate ./cmd/strategobot`", e.Name(), d.have, d.want)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		got, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if want, err := os.ReadFile(filepath.Join(docs, e.Name())); err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs/images/%s is stale: remake docs/images with `go generate ./cmd/strategobot`", e.Name())
		}
	}
}
