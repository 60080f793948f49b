// Package beliefs measures the computer's beliefs about hidden pieces on real
// games, and fits the behaviour model those beliefs use.
//
// Run scores the beliefs: for every game of the records given (Classic, or
// Barrage with -variant barrage, read with the same fitted model), at
// plies 50, 100 and 200, from each side's view, it asks what each model of
// the beliefs says about every hidden piece of the other side, and averages
// the log-probability of the piece's true rank (natural log; higher is
// better, 0 would be certainty). The models are the counts alone, the
// per-square set-up prior, the prior with the hand-set reading of behaviour,
// hard before the fitted behaviour model (the prior, recognition of published
// set-ups and the hand-set reading of behaviour), the same with the fitted
// model, and with the published set-ups' layouts of Bombs and Flag too.
// With -attacks it asks instead whether the models are calibrated where a
// player acts on them: at attacks on hidden pieces that never moved (a Bomb?)
// or, with -pieces moved, that moved (does the attacker win?); with -beside,
// where a player must judge a hidden piece beside its known officer (does
// the piece beat it?).
//
// Fit fits the behaviour model (see game/ai/behaviour.go) on the records
// given and writes the table game/ai embeds.
//
// The Gravon archive is split by month: the games of strados2014-2 and
// strados2014-3 are held out, for scoring and for the opponents' set-ups of
// arena matches; the model is fitted on the others (HeldOut says which).
package beliefs

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/published"
	"github.com/strategobot/strategobot/internal/lab/records"
)

// Model is one way of forming beliefs.
type Model struct {
	Name string
	Opt  ai.BeliefOptions
}

// Models are the models Run scores, weakest first.
var Models = []Model{
	{"counts", ai.BeliefOptions{}},
	{"prior", ai.BeliefOptions{Prior: true}},
	{"prior+hand", ai.BeliefOptions{Prior: true, Behaviour: ai.HandBehaviour}},
	{"prior+fitted", ai.BeliefOptions{Prior: true, Behaviour: ai.FittedBehaviour}},
	{"recog+hand", ai.BeliefOptions{Prior: true, Recognition: true, Behaviour: ai.HandBehaviour}},
	{"recog+fitted", ai.BeliefOptions{Prior: true, Recognition: true, Behaviour: ai.FittedBehaviour}},
	{"layouts+fitted", ai.BeliefOptions{Prior: true, Recognition: true, Layouts: true, Behaviour: ai.FittedBehaviour}},
}

// DefaultPlies are the plies Run scores at.
var DefaultPlies = []int{50, 100, 200}

// minProb bounds the probability a model is charged with from below, so that
// one impossible true rank costs log(minProb), not everything.
const minProb = 1e-6

// Tally sums the log-probabilities of the true ranks of hidden pieces.
type Tally struct {
	Sum    float64 // of the log-probabilities
	Pieces int
	// Misses counts pieces whose true rank had a probability below minProb.
	Misses int
	// Sure counts the pieces whose likeliest rank had a chance in each of
	// sureBands, and Right those of them that were that rank.
	Sure, Right [len(sureBands)]int
	// Flags counts the views in which the opponent's Flag was hidden;
	// FlagFirst and FlagTop3 those in which no other hidden piece, or fewer
	// than three, had a greater chance of being the Flag; FlagChance sums
	// the chance the true Flag had, and FlagCandidates the hidden pieces
	// that had a chance of at least flagCandidate.
	Flags, FlagFirst, FlagTop3, FlagCandidates int
	FlagChance                                 float64
}

// flagCandidate is the least chance of being the Flag that makes a hidden
// piece a candidate in -flag's count.
const flagCandidate = 0.01

// sureBands are the lower ends of the bands of a likeliest rank's chance
// that -sure tells apart: at 0.95 or more hard's search takes the piece for
// known (see game/ai's nearlyCertain).
var sureBands = [...]float64{0.5, 0.7, 0.9, 0.95, 0.99}

// sureBand returns the band of sureBands that p falls in, or -1 below them.
func sureBand(p float64) int {
	b := -1
	for i, lo := range sureBands {
		if p >= lo {
			b = i
		}
	}
	return b
}

// Mean returns the mean log-probability, or NaN for no pieces.
func (t Tally) Mean() float64 {
	if t.Pieces == 0 {
		return math.NaN()
	}
	return t.Sum / float64(t.Pieces)
}

func (t *Tally) add(u Tally) {
	t.Sum += u.Sum
	t.Pieces += u.Pieces
	t.Misses += u.Misses
	t.Flags += u.Flags
	t.FlagFirst += u.FlagFirst
	t.FlagTop3 += u.FlagTop3
	t.FlagCandidates += u.FlagCandidates
	t.FlagChance += u.FlagChance
	for i := range t.Sure {
		t.Sure[i] += u.Sure[i]
		t.Right[i] += u.Right[i]
	}
}

// logProb is the log of p, no lower than log(minProb).
func logProb(p float64) (float64, bool) {
	if p < minProb {
		return math.Log(minProb), false
	}
	return math.Log(p), true
}

// Which set-ups Run scores the beliefs about.
type setupFilter uint8

const (
	allSetups setupFilter = iota
	publishedSetups
	unpublishedSetups
	// nearSetups and farSetups split the unpublished ones: 1 to 10 squares
	// from the nearest published set-up (or its mirror image), and
	// published.FarFrom or more, where recognition has next to nothing to
	// read.
	nearSetups
	farSetups
)

// wanted reports whether the filter keeps set-up s of variant v, idx telling
// how near it is to a published one (Run reads the published set-ups before
// it scores, so an error here cannot happen; it keeps nothing).
func (f setupFilter) wanted(idx *published.Index, v game.Variant, s game.Setup) bool {
	switch f {
	case publishedSetups, unpublishedSetups:
		listed, err := idx.Published(v, s)
		return err == nil && listed == (f == publishedSetups)
	case nearSetups, farSetups:
		d, listed, err := idx.Nearest(v, s)
		return err == nil && listed && d > 0 && (d >= published.FarFrom) == (f == farSetups)
	}
	return true
}

// Which hidden pieces Run scores.
type pieceFilter uint8

const (
	allPieces pieceFilter = iota
	movedPieces
	stillPieces
)

// selection is which beliefs Run scores: about which set-ups, which hidden
// pieces, and whose pieces.
type selection struct {
	setups setupFilter
	// index tells how near a set-up is to a published one (for nearSetups
	// and farSetups).
	index  *published.Index
	pieces pieceFilter
	// player, when not empty, keeps only the beliefs about the pieces of
	// the players whose names contain it (any case): in an arena's
	// records, "ext:" for the outside engine's.
	player string
}

// wanted reports whether the selection scores the beliefs about side's
// pieces in rec.
func (sel selection) wanted(rec *game.Record, side game.Side) bool {
	if !sel.setups.wanted(sel.index, rec.Rules.Variant, rec.Setups[side]) {
		return false
	}
	return sel.player == "" || strings.Contains(strings.ToLower(rec.Players[side]), strings.ToLower(sel.player))
}

// ScorePosition scores opt's beliefs in g from viewer side's view: the
// log-probability of the true rank of each of the opponent's hidden pieces.
func ScorePosition(g *game.Game, side game.Side, opt ai.BeliefOptions) (Tally, error) {
	return scorePosition(g, side, opt, allPieces)
}

// scorePosition is ScorePosition for the pieces the filter keeps.
func scorePosition(g *game.Game, side game.Side, opt ai.BeliefOptions, pieces pieceFilter) (Tally, error) {
	bs, err := ai.Beliefs(g.View(game.ViewerOf(side)), opt)
	if err != nil {
		return Tally{}, err
	}
	var t Tally
	t.tallyFlag(g, bs)
	for _, b := range bs {
		if (pieces == movedPieces && !b.Moved) || (pieces == stillPieces && b.Moved) {
			continue
		}
		r := trueRank(g, b.Start)
		lp, ok := logProb(b.P[r])
		t.Sum += lp
		t.Pieces++
		if !ok {
			t.Misses++
		}
		likeliest := game.Rank(0)
		for x := range b.P {
			if b.P[x] > b.P[likeliest] {
				likeliest = game.Rank(x)
			}
		}
		if band := sureBand(b.P[likeliest]); band >= 0 {
			t.Sure[band]++
			if likeliest == r {
				t.Right[band]++
			}
		}
	}
	return t, nil
}

// tallyFlag counts where the opponent's Flag stands among its hidden pieces
// by the chance the beliefs bs give each of being the Flag, when the Flag is
// one of them.
func (t *Tally) tallyFlag(g *game.Game, bs []ai.PieceBelief) {
	flag := -1
	for i, b := range bs {
		if trueRank(g, b.Start) == game.Flag {
			flag = i
		}
	}
	if flag < 0 {
		return
	}
	chance := bs[flag].P[game.Flag]
	above := 0
	for i, b := range bs {
		if b.P[game.Flag] >= flagCandidate {
			t.FlagCandidates++
		}
		if i != flag && b.P[game.Flag] > chance {
			above++
		}
	}
	t.Flags++
	t.FlagChance += chance
	if above == 0 {
		t.FlagFirst++
	}
	if above < 3 {
		t.FlagTop3++
	}
}

// ScoreRecord scores every model at each ply of plies the game reaches, from
// both sides' views: tallies[i][j] is model i at plies[j].
func ScoreRecord(rec *game.Record, plies []int, models []Model) ([][]Tally, error) {
	return scoreRecord(rec, plies, models, selection{})
}

// scoreRecord is ScoreRecord for the views of the sides whose opponent's
// pieces the selection keeps.
func scoreRecord(rec *game.Record, plies []int, models []Model, sel selection) ([][]Tally, error) {
	tallies := make([][]Tally, len(models))
	for i := range tallies {
		tallies[i] = make([]Tally, len(plies))
	}
	err := records.Positions(rec, plies, func(ply int, g *game.Game) error {
		j := sort.SearchInts(plies, ply)
		for i, m := range models {
			for _, side := range []game.Side{game.Red, game.Blue} {
				if !sel.wanted(rec, side.Opponent()) {
					continue
				}
				t, err := scorePosition(g, side, m.Opt, sel.pieces)
				if err != nil {
					return err
				}
				tallies[i][j].add(t)
			}
		}
		return nil
	})
	return tallies, err
}

const runUsage = `usage: strategolab beliefs [-variant classic|barrage] [-plies 50,100,200] [-models NAMES] [-setups all|published|unpublished|near|far] [-pieces all|moved|still] [-player NAME] [-attacks | -sure | -flag | -beside] [-j N] FILES...

Scores the computer's beliefs about hidden pieces on Gravon game records (zip
archives of XML records, or XML records): for each game of the variant (the
behaviour model is fitted on Classic games only), at each ply
it reaches, from each side's view, the mean natural log of the probability
each model gives the true rank of every hidden piece of the other side.
Higher is better. Misses counts true ranks a model gave less than 1e-6.
-player keeps the beliefs about one player's pieces: in an arena's records
(arena -records DIR), -player ext: scores the computer's beliefs about the
outside engine's pieces.

-attacks asks instead whether the models are calibrated where it matters:
at every attack on a hidden piece that never moved, the chance of a Bomb
each model gave it from the attacker's view, by tenths, against how many
were Bombs; with -pieces moved, at every attack on a hidden piece that
moved, the chance each model gave the attacker of winning against how many
it won.

-sure asks whether a model is as sure as it may be: at the plies given, how
often the likeliest rank it gave a hidden piece was the piece's, by the
chance it gave that rank (0.5-0.7, 0.7-0.9, 0.9-0.95, 0.95-0.99, 0.99 or
more; hard's search takes a piece at 0.95 or more for known).

-beside asks whether the models read the pieces a player must judge first:
at every turn, each hidden piece that moved and stands beside a Major or
stronger of the side to move whose rank its own side knows, the chance each
model gave from that side's view that it beats the officer (the strongest,
beside two), by tenths, against how many did; apart for the pieces that came
there with their side's last move and those that stood there.

-flag asks where the opponent's Flag stands among its hidden pieces, by the
chance each model gave each of them of being the Flag: at each ply, how often
the Flag was the likeliest and among the three likeliest, the mean chance
the Flag had, and how many hidden pieces had a chance of 0.01 or more.

Models: counts (the counts left and what moved), prior (and where people set
up which rank), prior+hand (and the hand-set reading of behaviour),
prior+fitted (and the fitted behaviour model), recog+hand (hard before the
fitted model: prior, recognition of published set-ups, hand-set behaviour),
recog+fitted (the same with the fitted model: hard now), layouts+fitted (and
the published set-ups' layouts of Bombs and Flag).

The held-out part of the archive is strados2014-2.zip and strados2014-3.zip.

Flags:
`

// RunFlags declares the beliefs command's flags into a new flag set whose -h
// writes its usage to w.
func RunFlags(w io.Writer) *flag.FlagSet {
	fs, _ := runFlags(w)
	return fs
}

type runFlagValues struct {
	plies, models, pieces, setups, variant, player *string
	jobs                                           *int
	attacks, sure, flag, beside                    *bool
}

func runFlags(w io.Writer) (*flag.FlagSet, runFlagValues) {
	fs := cli.NewFlagSet("beliefs", runUsage, w)
	var v runFlagValues
	v.variant = fs.String("variant", "classic", "the variant whose games to score: classic or barrage")
	v.plies = fs.String("plies", "50,100,200", "the plies to score at, ascending")
	v.models = fs.String("models", "", "the models to score, comma-separated (default all)")
	v.jobs = fs.Int("j", runtime.GOMAXPROCS(0), "records scored at once")
	v.pieces = fs.String("pieces", "all", "score the hidden pieces that are all, moved or still (never moved)")
	v.player = fs.String("player", "", "score only the beliefs about the pieces of the players whose names contain this (any case), such as ext: for an arena's outside engine")
	v.attacks = fs.Bool("attacks", false, "instead, at every attack on a hidden piece that never moved, compare the chance of a Bomb each model gave it with what it was (with -pieces moved: at every attack on one that moved, the attacker's chance of winning with what came of it)")
	v.sure = fs.Bool("sure", false, "instead, how often each model's likeliest rank for a hidden piece was right, by the chance it gave it")
	v.beside = fs.Bool("beside", false, "instead, at every turn, the chance each model gave a hidden moved piece beside a known Major or stronger of the side to move that it beats it, with how many did")
	v.flag = fs.Bool("flag", false, "instead, where the Flag stands among the hidden pieces by the chance each model gave it of being the Flag")
	v.setups = fs.String("setups", "all", "score the beliefs about set-ups that are all, published, unpublished (neither it nor its mirror image in the published collection), near (unpublished, 1 to 10 squares from the nearest published set-up or mirror image) or far (11 or more)")
	return fs, v
}

// Run is the beliefs command: it scores the beliefs on the records in args
// and prints a table on stdout. It returns the exit code: 0, or 2 for a
// usage or input error.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, v := runFlags(stdout)
	pliesText, modelsText, jobs, piecesText, setupsText := v.plies, v.models, v.jobs, v.pieces, v.setups
	if err := cli.Parse(fs, args); err != nil {
		return cli.UsageFailed(stderr, "strategolab beliefs", runUsage, err) // 0 for -h, whose usage is printed
	}
	plies, err := parsePlies(*pliesText)
	if err != nil {
		fmt.Fprintln(stderr, "beliefs:", err)
		return 2
	}
	models, err := pickModels(*modelsText)
	if err != nil {
		fmt.Fprintln(stderr, "beliefs:", err)
		return 2
	}
	filter, ok := map[string]setupFilter{"all": allSetups, "published": publishedSetups, "unpublished": unpublishedSetups,
		"near": nearSetups, "far": farSetups}[*setupsText]
	if !ok {
		fmt.Fprintf(stderr, "beliefs: -setups is all, published, unpublished, near or far, not %q\n", *setupsText)
		return 2
	}
	variant, err := game.ParseVariant(*v.variant)
	if err != nil || (variant != game.VariantClassic && variant != game.VariantBarrage) {
		fmt.Fprintf(stderr, "beliefs: -variant is classic or barrage, not %q\n", *v.variant)
		return 2
	}
	pieces, ok := map[string]pieceFilter{"all": allPieces, "moved": movedPieces, "still": stillPieces}[*piecesText]
	if !ok {
		fmt.Fprintf(stderr, "beliefs: -pieces is all, moved or still, not %q\n", *piecesText)
		return 2
	}
	asked := 0
	for _, on := range []bool{*v.attacks, *v.sure, *v.flag, *v.beside} {
		if on {
			asked++
		}
	}
	if asked > 1 {
		fmt.Fprintln(stderr, "beliefs: -attacks, -sure, -flag and -beside are different questions: ask one")
		return 2
	}
	if *v.attacks && pieces == stillPieces {
		pieces = allPieces // the attacks on pieces that never moved, as without -pieces
	}
	if *v.beside && pieces == stillPieces {
		fmt.Fprintln(stderr, "beliefs: -beside looks only at pieces that moved: leave -pieces out")
		return 2
	}
	if *v.flag && pieces != allPieces {
		fmt.Fprintln(stderr, "beliefs: -flag looks at every hidden piece, as the Flag never moves: leave -pieces out")
		return 2
	}
	if fs.NArg() == 0 {
		return cli.UsageFailed(stderr, "strategolab beliefs", runUsage, errors.New("name one or more Gravon record files"))
	}
	recs, skipped, err := records.Read(fs.Args(), variant)
	if err != nil {
		fmt.Fprintln(stderr, "beliefs:", err)
		return 2
	}
	sel := selection{setups: filter, index: published.NewIndex(), pieces: pieces, player: *v.player}
	if _, err := sel.index.Published(variant, game.Setup{}); err != nil { // reads them once, here
		fmt.Fprintln(stderr, "beliefs:", err)
		return 2
	}
	whose := "both sides' pieces"
	if sel.player != "" {
		whose = fmt.Sprintf("the pieces of the players whose names contain %q", sel.player)
	}
	var total [][]Tally
	var calibration []Calibration
	var scored, failed int
	switch {
	case *v.attacks:
		calibration, scored, failed = calibrateAll(ctx, recs, len(models), max(1, *jobs), func(rec *game.Record) ([]Calibration, error) {
			return calibrateRecord(rec, models, sel)
		})
	case *v.beside:
		calibration, scored, failed = calibrateAll(ctx, recs, len(models)*besideKinds, max(1, *jobs), func(rec *game.Record) ([]Calibration, error) {
			return calibrateBeside(rec, models, sel)
		})
	default:
		total, scored, failed = scoreAll(ctx, recs, plies, models, sel, max(1, *jobs))
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "beliefs: stopped")
		return 2
	}
	fmt.Fprintf(stdout, "%d %s records, %d scored", len(recs), variant, scored)
	if failed > 0 {
		fmt.Fprintf(stdout, ", %d stopped early by a move the rules refuse", failed)
	}
	fmt.Fprintln(stdout)
	printSkipped(stdout, skipped)
	if *v.attacks {
		if pieces == movedPieces {
			fmt.Fprintf(stdout, "the attacker's chance of winning at each attack on a hidden piece that moved (%s, %s set-ups), by tenths\n", whose, *setupsText)
		} else {
			fmt.Fprintf(stdout, "the chance of a Bomb at each attack on a hidden piece that never moved (%s, %s set-ups), by tenths\n", whose, *setupsText)
		}
		printCalibration(stdout, models, calibration, pieces == movedPieces)
		return 0
	}
	if *v.beside {
		fmt.Fprintf(stdout, "the chance that a hidden moved piece beside a known Major or stronger of the side to move beats it (%s, %s set-ups), by tenths\n", whose, *setupsText)
		printBeside(stdout, models, calibration)
		return 0
	}
	if *v.flag {
		fmt.Fprintf(stdout, "where the Flag stands among the hidden pieces, by the chance of being the Flag (%s, %s set-ups)\n", whose, *setupsText)
		printFlag(stdout, models, plies, total)
		return 0
	}
	if *v.sure {
		fmt.Fprintf(stdout, "how often the likeliest rank was right, by its chance, at plies %s (the hidden pieces: %s; %s, %s set-ups)\n", *pliesText, *piecesText, whose, *setupsText)
		printSure(stdout, models, total)
		return 0
	}
	fmt.Fprintf(stdout, "mean log-probability of the true rank of the hidden pieces (%s), %s, %s set-ups\n", *piecesText, whose, *setupsText)
	fmt.Fprintf(stdout, "%-14s", "model")
	for _, p := range plies {
		fmt.Fprintf(stdout, " %16s", fmt.Sprintf("ply %d", p))
	}
	fmt.Fprintln(stdout)
	for i, m := range models {
		fmt.Fprintf(stdout, "%-14s", m.Name)
		for j := range plies {
			fmt.Fprintf(stdout, " %16s", fmt.Sprintf("%.4f", total[i][j].Mean()))
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "%-14s", "pieces")
	for j := range plies {
		fmt.Fprintf(stdout, " %16d", total[0][j].Pieces)
	}
	fmt.Fprintln(stdout)
	for i, m := range models {
		misses := 0
		for j := range plies {
			misses += total[i][j].Misses
		}
		if misses > 0 {
			fmt.Fprintf(stdout, "%s: %d misses\n", m.Name, misses)
		}
	}
	return 0
}

// scoreAll scores the records on jobs goroutines and sums the tallies.
func scoreAll(ctx context.Context, recs []records.Named, plies []int, models []Model, sel selection, jobs int) (total [][]Tally, scored, failed int) {
	total = make([][]Tally, len(models))
	for i := range total {
		total[i] = make([]Tally, len(plies))
	}
	scored, failed = eachRecord(ctx, recs, jobs, func(rec *game.Record) ([][]Tally, error) {
		return scoreRecord(rec, plies, models, sel)
	}, func(t [][]Tally) {
		for i := range t {
			for j := range t[i] {
				total[i][j].add(t[i][j])
			}
		}
	})
	return total, scored, failed
}

// calibrateAll runs calibrate on every record on jobs goroutines and sums
// the n calibrations each gives.
func calibrateAll(ctx context.Context, recs []records.Named, n, jobs int, calibrate func(*game.Record) ([]Calibration, error)) (total []Calibration, scored, failed int) {
	total = make([]Calibration, n)
	scored, failed = eachRecord(ctx, recs, jobs, calibrate, func(c []Calibration) {
		for i := range c {
			total[i].add(c[i])
		}
	})
	return total, scored, failed
}

// eachRecord runs score on every record on jobs goroutines, and add on each
// result, one at a time (also on what a record that failed part-way gave).
// It counts the records scored and those that failed.
func eachRecord[T any](ctx context.Context, recs []records.Named, jobs int, score func(*game.Record) (T, error), add func(T)) (scored, failed int) {
	var mu sync.Mutex
	next := make(chan records.Named)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range next {
				t, err := score(r.Record)
				mu.Lock()
				add(t)
				if err != nil {
					failed++
				} else {
					scored++
				}
				mu.Unlock()
			}
		}()
	}
	for _, r := range recs {
		if ctx.Err() != nil {
			break
		}
		next <- r
	}
	close(next)
	wg.Wait()
	return scored, failed
}

func printSkipped(w io.Writer, skipped map[string]int) {
	if len(skipped) == 0 {
		return
	}
	var reasons []string
	for r := range skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	fmt.Fprint(w, "skipped:")
	for _, r := range reasons {
		fmt.Fprintf(w, " %s %d;", r, skipped[r])
	}
	fmt.Fprintln(w)
}

// parsePlies reads a comma-separated ascending list of plies.
func parsePlies(text string) ([]int, error) {
	var plies []int
	for f := range strings.SplitSeq(text, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 0 {
			return nil, fmt.Errorf("-plies: %q is not a ply", f)
		}
		if len(plies) > 0 && p <= plies[len(plies)-1] {
			return nil, fmt.Errorf("-plies: %d does not come after %d", p, plies[len(plies)-1])
		}
		plies = append(plies, p)
	}
	return plies, nil
}

// pickModels returns the models named in text, or all for "".
func pickModels(text string) ([]Model, error) {
	if strings.TrimSpace(text) == "" {
		return Models, nil
	}
	var out []Model
	for name := range strings.SplitSeq(text, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, m := range Models {
			if m.Name == name {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			var names []string
			for _, m := range Models {
				names = append(names, m.Name)
			}
			return nil, fmt.Errorf("-models: no model %q (there are %s)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// printSure writes, for each model, the pieces in each band of sureBands
// over all the plies scored and the share of them whose likeliest rank was
// right.
func printSure(w io.Writer, models []Model, total [][]Tally) {
	fmt.Fprintf(w, "%-14s", "model")
	for i, lo := range sureBands {
		band := fmt.Sprintf("%.2f-%.2f", lo, 1.0)
		if i+1 < len(sureBands) {
			band = fmt.Sprintf("%.2f-%.2f", lo, sureBands[i+1])
		}
		fmt.Fprintf(w, " %16s", band)
	}
	fmt.Fprintln(w)
	for i, m := range models {
		var all Tally
		for _, t := range total[i] {
			all.add(t)
		}
		fmt.Fprintf(w, "%-14s", m.Name)
		for b := range sureBands {
			right := "-"
			if all.Sure[b] > 0 {
				right = fmt.Sprintf("%.3f", float64(all.Right[b])/float64(all.Sure[b]))
			}
			fmt.Fprintf(w, " %16s", fmt.Sprintf("%s of %d", right, all.Sure[b]))
		}
		fmt.Fprintln(w)
	}
}

// printFlag writes, for each model and ply, the share of views in which the
// Flag was the likeliest and among the three likeliest to be the Flag, the
// mean chance it had, and the mean number of candidates.
func printFlag(w io.Writer, models []Model, plies []int, total [][]Tally) {
	fmt.Fprintf(w, "%-14s %8s %10s %10s %12s %11s\n", "model", "ply", "likeliest", "top three", "mean chance", "candidates")
	for i, m := range models {
		for j, p := range plies {
			t := total[i][j]
			if t.Flags == 0 {
				fmt.Fprintf(w, "%-14s %8d %10s %10s %12s %11s\n", m.Name, p, "-", "-", "-", "-")
				continue
			}
			n := float64(t.Flags)
			fmt.Fprintf(w, "%-14s %8d %10.2f %10.2f %12.3f %11.1f\n", m.Name, p,
				float64(t.FlagFirst)/n, float64(t.FlagTop3)/n, t.FlagChance/n, float64(t.FlagCandidates)/n)
		}
	}
	views := make([]string, len(plies))
	for j, p := range plies {
		views[j] = fmt.Sprintf("%d at ply %d", total[0][j].Flags, p)
	}
	fmt.Fprintf(w, "views with the Flag hidden: %s\n", strings.Join(views, ", "))
}
