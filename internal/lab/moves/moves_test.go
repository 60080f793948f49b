package moves

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// classicFiles are Classic records of the beliefs lab's testdata.
var classicFiles = []string{
	"../beliefs/testdata/classic-2013.10-11.xml",
	"../beliefs/testdata/classic-2013.10-3012.xml",
	"../beliefs/testdata/classic-2014.0-346.xml",
}

// TestFitLearns: where a feature marks the move played in every position of
// two moves, the fit gives it a positive weight and the loss falls from
// log 2 towards 0; a feature both moves share learns nothing.
func TestFitLearns(t *testing.T) {
	var p positions
	for i := range 200 {
		var a, b [numFeatures]float64
		a[0], a[1], b[1] = 1, 1, 1
		fs := [][numFeatures]float64{a, b}
		played := 0
		if i%2 == 1 {
			fs[0], fs[1], played = b, a, 1
		}
		p.add(fs, played)
	}
	var even Weights
	before, _, _ := p.loss(&even, 2)
	w := p.fit(200, 0, 2, nil)
	after, top, _ := p.loss(&w, 2)
	if math.Abs(before-math.Log(2)) > 1e-9 || after > 0.1 {
		t.Errorf("loss before %.4f (want log 2), after %.4f (want below 0.1)", before, after)
	}
	if w[0] <= 1 || math.Abs(w[1]) > 1e-6 || top != 1 {
		t.Errorf("weights %.3f and %.3f, likeliest move played %.2f; want above 1, 0 and 1", w[0], w[1], top)
	}
}

// TestFit: the command fits on records, scores the fit on test records,
// writes a table that parses with a row per feature, and refuses to fit on
// the held-out months.
func TestFit(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "people_weights.go")
	var stdout, stderr bytes.Buffer
	args := slices.Concat([]string{"-iters", "40", "-every", "3", "-o", out, "-test", "../beliefs/testdata/classic-2014.3-330.xml"}, classicFiles)
	if code := Fit(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr.String())
	}
	report := stdout.String()
	for _, want := range []string{"fitting: 3 Classic records", "test: 1 Classic records", "test positions: mean log-likelihood", "wrote " + out} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), out, src, 0)
	if err != nil {
		t.Fatalf("the table does not parse: %v\n%s", err, src)
	}
	if f.Name.Name != "ai" || !bytes.Contains(src, []byte("var peopleMoveWeights")) {
		t.Errorf("the table lacks its package or name:\n%s", src)
	}
	if rows := len(regexp.MustCompile(`(?m)^\t-?[0-9]+\.[0-9]{4}, +// `).FindAll(src, -1)); rows != numFeatures {
		t.Errorf("the table has %d rows, want %d", rows, numFeatures)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Fit(context.Background(), []string{filepath.Join(dir, "strados2014-2.zip")}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "held out") {
		t.Errorf("fitting on a held-out month: exit %d, stderr %q; want 2 and a refusal", code, stderr.String())
	}
}

// TestFitReadsPeople: fitted on real games, the model makes the moves
// people played likelier than every legal move alike, on games it did not
// fit on.
func TestFitReadsPeople(t *testing.T) {
	fit, err := read(context.Background(), classicFiles, 2, &bytes.Buffer{}, "fitting")
	if err != nil {
		t.Fatal(err)
	}
	test, err := read(context.Background(), []string{"../beliefs/testdata/classic-2014.3-330.xml"}, 2, &bytes.Buffer{}, "test")
	if err != nil {
		t.Fatal(err)
	}
	w := fit.fit(100, 1e-3, 2, nil)
	var even Weights
	alike, _, _ := test.loss(&even, 2)
	fitted, _, _ := test.loss(&w, 2)
	if fitted >= alike-0.3 {
		t.Errorf("on a game not fitted on: loss %.3f fitted, %.3f with every move alike; want at least 0.3 less", fitted, alike)
	}
}
