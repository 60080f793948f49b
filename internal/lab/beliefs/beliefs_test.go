package beliefs

import (
	"archive/zip"
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/lab/published"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// classicFiles are the Classic records of testdata.
var classicFiles = []string{
	"testdata/classic-2013.10-11.xml",
	"testdata/classic-2013.10-3012.xml",
	"testdata/classic-2014.0-346.xml",
	"testdata/classic-2014.3-330.xml",
}

func readTestRecord(t *testing.T, path string) *game.Record {
	t.Helper()
	recs, _, err := records.Read([]string{path}, game.VariantClassic)
	if err != nil || len(recs) != 1 {
		t.Fatalf("reading %s: %d records, %v", path, len(recs), err)
	}
	return recs[0].Record
}

func TestLogProb(t *testing.T) {
	tests := []struct {
		p    float64
		want float64
		ok   bool
	}{
		{1, 0, true},
		{0.5, math.Log(0.5), true},
		{minProb, math.Log(minProb), true},
		{minProb / 2, math.Log(minProb), false},
		{0, math.Log(minProb), false},
	}
	for _, tc := range tests {
		got, ok := logProb(tc.p)
		if math.Abs(got-tc.want) > 1e-12 || ok != tc.ok {
			t.Errorf("logProb(%g) = %g, %v; want %g, %v", tc.p, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParsePlies(t *testing.T) {
	tests := []struct {
		text    string
		want    []int
		wantErr bool
	}{
		{"50,100,200", []int{50, 100, 200}, false},
		{" 0 , 7", []int{0, 7}, false},
		{"100,50", nil, true},
		{"50,50", nil, true},
		{"x", nil, true},
		{"-1", nil, true},
	}
	for _, tc := range tests {
		got, err := parsePlies(tc.text)
		if (err != nil) != tc.wantErr || (err == nil && !equalInts(got, tc.want)) {
			t.Errorf("parsePlies(%q) = %v, %v; want %v, error %v", tc.text, got, err, tc.want, tc.wantErr)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCountsAtStart: before any move, the counts alone give every hidden
// piece its rank's share of the army, so the mean log-probability of the
// true ranks is the army's entropy with a minus sign, from either view.
func TestCountsAtStart(t *testing.T) {
	army := game.DefaultRules(game.VariantClassic).Army
	want := 0.0
	for _, c := range army {
		if c > 0 {
			p := float64(c) / 40
			want += p * math.Log(p)
		}
	}
	for _, path := range classicFiles {
		rec := readTestRecord(t, path)
		tallies, err := ScoreRecord(rec, []int{0}, []Model{{"counts", ai.BeliefOptions{}}})
		if err != nil {
			t.Fatal(err)
		}
		got := tallies[0][0]
		if got.Pieces != 80 || math.Abs(got.Mean()-want) > 1e-9 {
			t.Errorf("%s: %d pieces, mean %.6f; want 80 and %.6f", path, got.Pieces, got.Mean(), want)
		}
	}
}

// TestScoreRecord checks, on real games, which plies are scored, that every
// model scores the same pieces, and that what people's set-ups and
// recognising published ones add makes the true ranks likelier over the
// sample.
func TestScoreRecord(t *testing.T) {
	plies := DefaultPlies
	var sum [][]Tally
	for _, path := range classicFiles {
		rec := readTestRecord(t, path)
		tallies, err := ScoreRecord(rec, plies, Models)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if sum == nil {
			sum = make([][]Tally, len(Models))
			for i := range sum {
				sum[i] = make([]Tally, len(plies))
			}
		}
		for j, p := range plies {
			reached := len(rec.Moves) >= p
			n := tallies[0][j].Pieces
			if reached != (n > 0) {
				t.Errorf("%s (%d plies): %d pieces scored at ply %d", path, len(rec.Moves), n, p)
			}
			for i, m := range Models {
				if tallies[i][j].Pieces != n {
					t.Errorf("%s ply %d: %s scored %d pieces, counts %d", path, p, m.Name, tallies[i][j].Pieces, n)
				}
				if m.Name == "counts" || m.Name == "prior" {
					if tallies[i][j].Misses > 0 {
						t.Errorf("%s ply %d: %s missed %d true ranks", path, p, m.Name, tallies[i][j].Misses)
					}
				}
				sum[i][j].add(tallies[i][j])
			}
		}
	}
	mean := func(name string) float64 {
		for i, m := range Models {
			if m.Name == name {
				var t Tally
				for j := range plies {
					t.add(sum[i][j])
				}
				return t.Mean()
			}
		}
		t.Fatalf("no model %s", name)
		return 0
	}
	if c, p := mean("counts"), mean("prior"); p <= c {
		t.Errorf("the prior's mean log-probability %.4f is no better than the counts' %.4f", p, c)
	}
	if p, r := mean("prior+hand"), mean("recog+hand"); r <= p {
		t.Errorf("recognition's mean log-probability %.4f is no better than the prior's %.4f", r, p)
	}
}

// TestSureTally: every hidden piece whose likeliest rank has a chance of
// 0.5 or more is counted once, in the band of that chance, and as right
// when it is that rank.
func TestSureTally(t *testing.T) {
	tests := []struct {
		p    float64
		band int
	}{
		{0.49, -1}, {0.5, 0}, {0.69, 0}, {0.7, 1}, {0.9, 2}, {0.949, 2}, {0.95, 3}, {0.99, 4}, {1, 4},
	}
	for _, tc := range tests {
		if got := sureBand(tc.p); got != tc.band {
			t.Errorf("a chance of %.3f is in band %d, want %d", tc.p, got, tc.band)
		}
	}
	g := gameAt(t, classicFiles[0], 100)
	opt := ai.BeliefOptions{Prior: true, Recognition: true, Behaviour: ai.FittedBehaviour}
	tally, err := ScorePosition(g, game.Red, opt)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ai.Beliefs(g.View(game.ViewerOf(game.Red)), opt)
	if err != nil {
		t.Fatal(err)
	}
	var sure, right [len(sureBands)]int
	for _, b := range bs {
		best := slices.Max(b.P[:])
		band := sureBand(best)
		if band < 0 {
			continue
		}
		sure[band]++
		if game.Rank(slices.Index(b.P[:], best)) == trueRank(g, b.Start) {
			right[band]++
		}
	}
	if tally.Sure != sure || tally.Right != right {
		t.Errorf("tallied %v sure and %v right, the beliefs give %v and %v", tally.Sure, tally.Right, sure, right)
	}
	if sure == [len(sureBands)]int{} {
		t.Error("no piece's likeliest rank had a chance of 0.5 or more: the test checks nothing")
	}
}

// gameAt returns the game of the record in file after its first ply plies.
func gameAt(t *testing.T, file string, ply int) *game.Game {
	t.Helper()
	rec := readTestRecord(t, file)
	g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rec.Moves[:ply] {
		if _, err := g.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestFlagRanking places the Flag among other hidden pieces by the chances
// the beliefs give them of being the Flag.
func TestFlagRanking(t *testing.T) {
	g := gameAt(t, classicFiles[0], 0)
	// Blue's Flag and four other pieces of Blue's, by their start squares.
	var flag game.Square
	var others []game.Square
	for sq := game.Square(0); sq < game.NumSquares; sq++ {
		_, _, blue := game.SetupCell(game.Blue, sq)
		switch r := trueRank(g, sq); {
		case r == game.NoRank, !blue:
		case r == game.Flag:
			flag = sq
		case len(others) < 4:
			others = append(others, sq)
		}
	}
	tests := []struct {
		name        string
		flagChance  float64
		otherChance []float64
		first, top3 int
		candidates  int
	}{
		{"the likeliest", 0.6, []float64{0.2, 0.1, 0.05, 0}, 1, 1, 4},
		{"second", 0.3, []float64{0.4, 0.2, 0.1, 0}, 0, 1, 4},
		{"third, a tie above counting as below", 0.2, []float64{0.4, 0.3, 0.2, 0.005}, 0, 1, 4},
		{"fourth", 0.1, []float64{0.4, 0.3, 0.2, 0}, 0, 0, 4},
		{"not a candidate", 0.005, []float64{0.4, 0.3, 0.2, 0.095}, 0, 0, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bs := []ai.PieceBelief{{Start: flag}}
			bs[0].P[game.Flag] = tc.flagChance
			for i, sq := range others {
				b := ai.PieceBelief{Start: sq}
				b.P[game.Flag] = tc.otherChance[i]
				bs = append(bs, b)
			}
			var got Tally
			got.tallyFlag(g, bs)
			want := Tally{Flags: 1, FlagFirst: tc.first, FlagTop3: tc.top3, FlagCandidates: tc.candidates, FlagChance: tc.flagChance}
			if got != want {
				t.Errorf("tallied %+v, want %+v", got, want)
			}
		})
	}
	var none Tally
	none.tallyFlag(g, []ai.PieceBelief{{Start: others[0]}})
	if none != (Tally{}) {
		t.Errorf("with the Flag not among the hidden pieces, tallied %+v, want nothing", none)
	}
}

func TestFlagTally(t *testing.T) {
	g := gameAt(t, classicFiles[0], 100)
	for _, side := range []game.Side{game.Red, game.Blue} {
		opt := ai.BeliefOptions{Prior: true, Behaviour: ai.FittedBehaviour}
		tally, err := ScorePosition(g, side, opt)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := ai.Beliefs(g.View(game.ViewerOf(side)), opt)
		if err != nil {
			t.Fatal(err)
		}
		// The Flag's chance, and the chances of the other hidden pieces.
		var flag float64
		var others []float64
		for _, b := range bs {
			if trueRank(g, b.Start) == game.Flag {
				flag = b.P[game.Flag]
			} else {
				others = append(others, b.P[game.Flag])
			}
		}
		above, candidates := 0, 0
		for _, p := range others {
			if p > flag {
				above++
			}
			if p >= flagCandidate {
				candidates++
			}
		}
		if flag >= flagCandidate {
			candidates++
		}
		want := Tally{Flags: 1, FlagChance: flag, FlagCandidates: candidates}
		if above == 0 {
			want.FlagFirst = 1
		}
		if above < 3 {
			want.FlagTop3 = 1
		}
		got := Tally{Flags: tally.Flags, FlagFirst: tally.FlagFirst, FlagTop3: tally.FlagTop3, FlagChance: tally.FlagChance, FlagCandidates: tally.FlagCandidates}
		if got != want {
			t.Errorf("%s's view: tallied %+v, the beliefs give %+v", side, got, want)
		}
		if candidates < 2 {
			t.Errorf("%s's view: %d candidates for the Flag at ply 100: the test checks little", side, candidates)
		}
	}
}

// zipOf writes the files into a zip archive in dir and returns its path.
func zipOf(t *testing.T, dir, name string, files []string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(filepath.Base(f))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSetupFilter: -setups keeps the set-ups it names, a mirror image
// counting as its set-up; near and far split the unpublished ones at
// published.FarFrom squares from the nearest published one.
func TestSetupFilter(t *testing.T) {
	list, err := game.PublishedSetups(game.VariantClassic)
	if err != nil || len(list) == 0 {
		t.Fatalf("published Classic set-ups: %d, %v", len(list), err)
	}
	idx := published.NewIndex()
	listed := list[0]
	// A swap of two unlike pieces in the front row: 2 squares from it.
	near := listed
	for col := 1; col < 10; col++ {
		if near[0][col] != near[0][0] {
			near[0][0], near[0][col] = near[0][col], near[0][0]
			break
		}
	}
	if d, _, _ := idx.Nearest(game.VariantClassic, near); d == 0 || d >= published.FarFrom {
		t.Fatalf("the swapped set-up is %d squares from a published one, want 1 to %d", d, published.FarFrom-1)
	}
	// A set-up of the test's own, unlike any person's: the Flag in the
	// middle of the front row among Bombs, the Scouts at the back.
	own := game.Setup{
		{game.Marshal, game.General, game.Bomb, game.Bomb, game.Flag, game.Bomb, game.Bomb, game.Spy, game.Colonel, game.Colonel},
		{game.Major, game.Major, game.Major, game.Bomb, game.Captain, game.Bomb, game.Captain, game.Captain, game.Captain, game.Lieutenant},
		{game.Lieutenant, game.Lieutenant, game.Lieutenant, game.Sergeant, game.Sergeant, game.Sergeant, game.Sergeant, game.Miner, game.Miner, game.Miner},
		{game.Miner, game.Miner, game.Scout, game.Scout, game.Scout, game.Scout, game.Scout, game.Scout, game.Scout, game.Scout},
	}
	if d, _, _ := idx.Nearest(game.VariantClassic, own); d < published.FarFrom {
		t.Fatalf("the test's own set-up is %d squares from a published one, want %d or more", d, published.FarFrom)
	}
	tests := []struct {
		name   string
		filter setupFilter
		setup  game.Setup
		want   bool
	}{
		{"all keeps a published one", allSetups, listed, true},
		{"published keeps a published one", publishedSetups, listed, true},
		{"published keeps its mirror image", publishedSetups, listed.Mirror(), true},
		{"published leaves out a near one", publishedSetups, near, false},
		{"unpublished leaves out a published one", unpublishedSetups, listed, false},
		{"unpublished keeps a near one", unpublishedSetups, near, true},
		{"unpublished keeps a far one", unpublishedSetups, own, true},
		{"near leaves out a published one", nearSetups, listed, false},
		{"near keeps a near one", nearSetups, near, true},
		{"near keeps a near one's mirror image", nearSetups, near.Mirror(), true},
		{"near leaves out a far one", nearSetups, own, false},
		{"far leaves out a near one", farSetups, near, false},
		{"far keeps a far one", farSetups, own, true},
		{"far leaves out a published one", farSetups, listed, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.filter.wanted(idx, game.VariantClassic, tc.setup); got != tc.want {
				t.Errorf("wanted = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	archive := zipOf(t, dir, "sample.zip", slices.Concat(classicFiles[2:], []string{"testdata/barrage-2014.2-744.xml"}))
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string // each must appear
		stderrIn string
	}{
		{"xml and zip", slices.Concat([]string{"-j", "2"}, classicFiles[:2], []string{archive}), 0,
			[]string{"4 Classic records, 4 scored", "skipped: not Classic 1;", "ply 50", "recog+fitted", "pieces"}, ""},
		{"some models", []string{"-models", "counts,prior", "-plies", "10,20", classicFiles[0]}, 0,
			[]string{"1 Classic records, 1 scored", "ply 10", "ply 20", "counts", "prior"}, ""},
		{"unpublished", []string{"-setups", "unpublished", classicFiles[0]}, 0, []string{"unpublished set-ups"}, ""},
		{"far", []string{"-setups", "far", classicFiles[0]}, 0, []string{"far set-ups"}, ""},
		{"barrage", []string{"-variant", "barrage", "-plies", "10,20", archive}, 0,
			[]string{"1 Barrage records, 1 scored", "skipped: not Barrage 2;", "recog+fitted"}, ""},
		{"bad variant", []string{"-variant", "duel", classicFiles[0]}, 2, nil, "-variant"},
		{"moved", []string{"-pieces", "moved", classicFiles[0]}, 0, []string{"(moved)"}, ""},
		{"attacks", []string{"-attacks", "-models", "prior,layouts+fitted", classicFiles[0]}, 0,
			[]string{"at each attack on a hidden piece that never moved", "prior: ", "layouts+fitted: ", "P(Bomb)"}, ""},
		{"attacks on moved pieces", []string{"-attacks", "-pieces", "moved", "-models", "prior,recog+fitted", classicFiles[0]}, 0,
			[]string{"the attacker's chance of winning at each attack on a hidden piece that moved", "prior: ", "recog+fitted: ", "won expected", "P(win)"}, ""},
		{"sure", []string{"-sure", "-models", "prior,recog+fitted", classicFiles[0]}, 0,
			[]string{"how often the likeliest rank was right", "0.95-0.99", "0.99-1.00", "prior ", "recog+fitted "}, ""},
		{"sure and attacks", []string{"-sure", "-attacks", classicFiles[0]}, 2, nil, "ask one"},
		{"flag", []string{"-flag", "-models", "prior,recog+fitted", "-plies", "50,100", classicFiles[0]}, 0,
			[]string{"where the Flag stands among the hidden pieces", "likeliest", "top three", "prior ", "recog+fitted ", "at ply 100"}, ""},
		{"flag and sure", []string{"-flag", "-sure", classicFiles[0]}, 2, nil, "ask one"},
		{"flag and pieces", []string{"-flag", "-pieces", "still", classicFiles[0]}, 2, nil, "leave -pieces out"},
		{"bad pieces", []string{"-pieces", "some", classicFiles[0]}, 2, nil, "-pieces"},
		{"no files", nil, 2, nil, "usage: strategolab beliefs"},
		{"bad plies", []string{"-plies", "100,50", classicFiles[0]}, 2, nil, "does not come after"},
		{"bad model", []string{"-models", "oracle", classicFiles[0]}, 2, nil, `no model "oracle"`},
		{"bad setups", []string{"-setups", "some", classicFiles[0]}, 2, nil, "-setups"},
		{"missing file", []string{filepath.Join(dir, "none.xml")}, 2, nil, "none.xml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout.String())
				}
			}
			if tc.stderrIn != "" && !strings.Contains(stderr.String(), tc.stderrIn) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderrIn, stderr.String())
			}
		})
	}
	// The excluded models leave the pieces alone: the same numbers whatever
	// else is scored.
	var a, b bytes.Buffer
	Run(context.Background(), []string{"-models", "prior", classicFiles[1]}, &a, &b)
	var c bytes.Buffer
	Run(context.Background(), []string{"-models", "counts,prior", classicFiles[1]}, &c, &b)
	priorLine := func(s string) string {
		for line := range strings.SplitSeq(s, "\n") {
			if strings.HasPrefix(line, "prior ") {
				return line
			}
		}
		return ""
	}
	if pa, pc := priorLine(a.String()), priorLine(c.String()); pa == "" || pa != pc {
		t.Errorf("the prior's line changes with the other models:\n%s\n%s", pa, pc)
	}
}

func TestFit(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "weights.go")
	var stdout, stderr bytes.Buffer
	code := Fit(context.Background(), slices.Concat([]string{"-iters", "20", "-plies", "30,60", "-o", out}, classicFiles), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "4 Classic records") || !strings.Contains(stdout.String(), "with behaviour") {
		t.Errorf("unexpected report:\n%s", stdout.String())
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), out, src, 0)
	if err != nil {
		t.Fatalf("the table does not parse: %v\n%s", err, src)
	}
	if f.Name.Name != "ai" || !bytes.Contains(src, []byte("var behaviourWeights")) || !bytes.Contains(src, []byte("const behaviourPriorExponent")) {
		t.Errorf("the table lacks its package or names:\n%s", src)
	}
	if rows := bytes.Count(src, []byte("\n\t{")); rows != ai.NumBehaviourFeatures {
		t.Errorf("the table has %d rows, want %d", rows, ai.NumBehaviourFeatures)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Fit(context.Background(), []string{filepath.Join(dir, "strados2014-2.zip")}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "held out") {
		t.Errorf("fitting on a held-out month: exit %d, stderr %q; want 2 and a refusal", code, stderr.String())
	}
}

// TestFitLearns: on samples where a feature marks every Marshal, the fit
// finds it: the Marshals become certain, while the Scouts, whose features
// are all zero, stay at even odds (the model has no intercept), so the loss
// falls from log 2 to half of it.
func TestFitLearns(t *testing.T) {
	var s samples
	for i := range 400 {
		truth := game.Scout
		if i%2 == 0 {
			truth = game.Marshal
		}
		for r := range numRanks {
			lb := float32(math.Inf(-1))
			if game.Rank(r) == game.Scout || game.Rank(r) == game.Marshal {
				lb = float32(math.Log(0.5))
			}
			s.logBase = append(s.logBase, lb)
		}
		for f := range numFeatures {
			x := float32(0)
			if f == 0 && truth == game.Marshal {
				x = 1
			}
			s.features = append(s.features, x)
		}
		s.truth = append(s.truth, uint8(truth))
	}
	w, before, after := s.fit(200, 0, 2, nil)
	if math.Abs(before-math.Log(2)) > 1e-9 || math.Abs(after-math.Log(2)/2) > 0.01 {
		t.Errorf("loss before %.4f (want log 2), after %.4f (want log(2)/2)", before, after)
	}
	if w[0][game.Marshal] <= w[0][game.Scout] {
		t.Errorf("feature 0 weighs the Marshal %.3f, the Scout %.3f", w[0][game.Marshal], w[0][game.Scout])
	}
}

// TestPlayerSelection: -player keeps the beliefs about the pieces of the
// players whose names contain it, in any case: Red's and Blue's together
// are every piece scored, and a name nobody has keeps none.
func TestPlayerSelection(t *testing.T) {
	recs, _, err := records.Read(classicFiles[:1], game.VariantClassic)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records: %v (%d)", err, len(recs))
	}
	rec := recs[0].Record
	if rec.Players != [2]string{"Player 1", "Player 2"} {
		t.Fatalf("players %q: the test expects the record's", rec.Players)
	}
	models := Models[len(Models)-1:]
	pieces := func(player string) int {
		t.Helper()
		tallies, err := scoreRecord(rec, DefaultPlies, models, selection{player: player})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, x := range tallies[0] {
			n += x.Pieces
		}
		return n
	}
	all, red, blue := pieces(""), pieces("player 1"), pieces("PLAYER 2")
	if red == 0 || blue == 0 || red+blue != all {
		t.Errorf("pieces scored: Red's %d, Blue's %d, all %d; want both above 0 and adding up", red, blue, all)
	}
	if n := pieces("hard"); n != 0 {
		t.Errorf("a name nobody has kept %d pieces", n)
	}
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), []string{"-player", "Player 2", classicFiles[0]}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), `the pieces of the players whose names contain "Player 2"`) {
		t.Errorf("exit %d, stdout:\n%s", code, stdout.String())
	}
}
