// Package moves fits the computer's model of people's moves: which of the
// legal moves a person picks, read from what the mover knows (game/ai's
// people.go says what it reads). The fit is a conditional logit over the
// legal moves of positions of real games, every so many plies, from the
// mover's view; the weights become a generated table that game/ai embeds.
package moves

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/records"
)

const numFeatures = ai.NumMoveFeatures

// Weights are the model's weights, one per feature.
type Weights [numFeatures]float64

// positions are positions to fit on: the features of each legal move, and
// which one was played.
type positions struct {
	features []float32 // numFeatures per move
	start    []int     // each position's first move, then one past the last
	played   []int     // the played move's index within its position
}

func (p *positions) len() int { return len(p.played) }

// add adds a position: the features of its legal moves and the index of the
// move played.
func (p *positions) add(fs [][numFeatures]float64, played int) {
	if len(p.start) == 0 {
		p.start = append(p.start, 0)
	}
	for _, f := range fs {
		for _, x := range f {
			p.features = append(p.features, float32(x))
		}
	}
	p.played = append(p.played, played)
	p.start = append(p.start, len(p.features)/numFeatures)
}

// collect adds every every-th position of rec, from the view of the side to
// move, with the move played there. It stops at a move the rules refuse.
func (p *positions) collect(rec *game.Record, every int) error {
	g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return err
	}
	for i, m := range rec.Moves {
		if g.Result().Over() {
			break
		}
		if i%every == every-1 {
			legal, fs, err := ai.MoveSamples(g.View(game.ViewerOf(g.ToMove())))
			if err != nil {
				return fmt.Errorf("move %d: %w", i+1, err)
			}
			if played := indexOf(legal, m); played >= 0 && len(legal) > 1 {
				p.add(fs, played)
			}
		}
		if _, err := g.Apply(m); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return nil
}

func indexOf(legal []game.Move, m game.Move) int {
	for i, l := range legal {
		if l == m {
			return i
		}
	}
	return -1
}

// loss returns the mean negative log-likelihood of the played moves under
// w, how often the model's likeliest move was the one played, and the
// loss's gradient, over jobs goroutines.
func (p *positions) loss(w *Weights, jobs int) (loss, top float64, grad Weights) {
	n := p.len()
	type part struct {
		loss, top float64
		grad      Weights
	}
	parts := make([]part, jobs)
	var wg sync.WaitGroup
	for j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := &parts[j]
			var z []float64
			for i := j * n / jobs; i < (j+1)*n/jobs; i++ {
				lo, hi := p.start[i], p.start[i+1]
				z = z[:0]
				high := math.Inf(-1)
				for mv := lo; mv < hi; mv++ {
					v := 0.0
					for f, x := range p.features[mv*numFeatures : (mv+1)*numFeatures] {
						v += w[f] * float64(x)
					}
					z = append(z, v)
					high = max(high, v)
				}
				sum, best := 0.0, 0
				for k, v := range z {
					z[k] = math.Exp(v - high)
					sum += z[k]
					if z[k] > z[best] {
						best = k
					}
				}
				t := p.played[i]
				if best == t {
					q.top++
				}
				q.loss -= math.Log(z[t] / sum)
				for k := range z {
					pr := z[k] / sum
					if k == t {
						pr--
					}
					mv := lo + k
					for f, x := range p.features[mv*numFeatures : (mv+1)*numFeatures] {
						q.grad[f] += pr * float64(x)
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, q := range parts {
		loss += q.loss
		top += q.top
		for f := range grad {
			grad[f] += q.grad[f]
		}
	}
	for f := range grad {
		grad[f] /= float64(n)
	}
	return loss / float64(n), top / float64(n), grad
}

// fit minimises the mean negative log-likelihood plus l2 times the squared
// weights with Adam, from all-zero weights (every legal move alike).
func (p *positions) fit(iters int, l2 float64, jobs int, progress func(iter int, loss float64)) Weights {
	const (
		rate   = 0.05
		beta1  = 0.9
		beta2  = 0.999
		adamEp = 1e-8
	)
	var w, m, v Weights
	for it := 1; it <= iters; it++ {
		loss, _, g := p.loss(&w, jobs)
		if progress != nil && (it == 1 || it%50 == 0) {
			progress(it, loss)
		}
		for f := range w {
			gr := g[f] + 2*l2*w[f]
			m[f] = beta1*m[f] + (1-beta1)*gr
			v[f] = beta2*v[f] + (1-beta2)*gr*gr
			mh := m[f] / (1 - math.Pow(beta1, float64(it)))
			vh := v[f] / (1 - math.Pow(beta2, float64(it)))
			w[f] -= rate * mh / (math.Sqrt(vh) + adamEp)
		}
	}
	return w
}

const usage = `usage: strategolab fit-moves [-o FILE] [-every N] [-iters N] [-l2 X] [-test FILES] FILES...

Fits the computer's model of people's moves (game/ai/people.go) on Gravon
game records (zip archives or XML records): at every N-th ply, from the view
of the side to move, the weights that make the move played likeliest among
the legal ones. Writes the table game/ai embeds. Fit on the archive without
its held-out part, and score the fit on the held-out part:

  fit-moves -o game/ai/people_weights.go -test strados2014-2.zip,strados2014-3.zip strados2004-11.zip … strados2014-1.zip

Files of the held-out part (strados2014-2.zip, strados2014-3.zip) are refused
as files to fit on.

Flags:
`

// Flags declares the command's flags into a new flag set whose -h writes its
// usage to w.
func Flags(w io.Writer) *flag.FlagSet {
	fs, _ := flags(w)
	return fs
}

type flagValues struct {
	out, test    *string
	every, iters *int
	jobs         *int
	l2           *float64
}

func flags(w io.Writer) (*flag.FlagSet, flagValues) {
	fs := cli.NewFlagSet("fit-moves", usage, w)
	var v flagValues
	v.out = fs.String("o", "", "write the table to this Go file (default: print it)")
	v.test = fs.String("test", "", "score the fitted model on these record files, comma-separated")
	v.every = fs.Int("every", 5, "fit on every N-th ply of each game")
	v.iters = fs.Int("iters", 300, "steps of the optimiser")
	v.l2 = fs.Float64("l2", 1e-4, "penalty on the squared weights")
	v.jobs = fs.Int("j", runtime.GOMAXPROCS(0), "goroutines")
	return fs, v
}

// Fit is the fitting command (see usage). It returns the exit code: 0, or 2
// for a usage or input error.
func Fit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, v := flags(stdout)
	if err := cli.Parse(fs, args); err != nil {
		return cli.UsageFailed(stderr, "strategolab fit-moves", usage, err) // 0 for -h, whose usage is printed
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "fit-moves:", err)
		return 2
	}
	if fs.NArg() == 0 {
		return cli.UsageFailed(stderr, "strategolab fit-moves", usage, errors.New("name one or more Gravon record files"))
	}
	if *v.every < 1 {
		return fail(errors.New("-every must be 1 or more"))
	}
	if err := records.FitOnly(fs.Args()); err != nil {
		return fail(fmt.Errorf("%w, and score on it with -test", err))
	}
	jobs := max(1, *v.jobs)
	fit, err := read(ctx, fs.Args(), *v.every, stdout, "fitting")
	if err != nil {
		return fail(err)
	}
	if fit.len() == 0 {
		return fail(errors.New("no position to fit on"))
	}
	w := fit.fit(*v.iters, *v.l2, jobs, func(it int, loss float64) {
		fmt.Fprintf(stdout, "step %d: mean log-likelihood %.4f\n", it, -loss)
	})
	report := func(label string, p *positions) {
		var even Weights
		l0, t0, _ := p.loss(&even, jobs)
		l, t, _ := p.loss(&w, jobs)
		fmt.Fprintf(stdout, "%s: mean log-likelihood of the moves played %.4f with every legal move alike, %.4f fitted; the likeliest move played %.1f%% and %.1f%%\n",
			label, -l0, -l, 100*t0, 100*t)
	}
	report("fitting positions", fit)
	if *v.test != "" {
		test, err := read(ctx, strings.Split(*v.test, ","), *v.every, stdout, "test")
		if err != nil {
			return fail(err)
		}
		if test.len() > 0 {
			report("test positions", test)
		}
	}
	src, err := Source(&w, fit.len(), *v.every, *v.l2)
	if err != nil {
		return fail(err)
	}
	if *v.out == "" {
		stdout.Write(src)
		return 0
	}
	if err := os.WriteFile(*v.out, src, 0o644); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *v.out)
	return 0
}

// read collects the positions of the Classic records in files.
func read(ctx context.Context, files []string, every int, stdout io.Writer, label string) (*positions, error) {
	recs, _, err := records.Read(files, game.VariantClassic)
	if err != nil {
		return nil, err
	}
	var p positions
	failed := 0
	for _, r := range recs {
		if ctx.Err() != nil {
			return nil, errors.New("stopped")
		}
		if err := p.collect(r.Record, every); err != nil {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%s: %d Classic records (%d stopped early by a move the rules refuse), %d positions\n", label, len(recs), failed, p.len())
	return &p, nil
}

// Source returns the Go source of the table game/ai embeds.
func Source(w *Weights, positions, every int, l2 float64) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by strategolab fit-moves; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package ai\n\n")
	fmt.Fprintf(&b, "// peopleMoveWeights[f] is the weight of move feature f in the model of\n")
	fmt.Fprintf(&b, "// people's moves, fitted on %d positions of Classic Gravon games (every %d plies,\n", positions, every)
	fmt.Fprintf(&b, "// penalty %g).\n", l2)
	fmt.Fprintf(&b, "var peopleMoveWeights = [numMoveFeatures]float64{\n")
	for f := range numFeatures {
		fmt.Fprintf(&b, "\t%.4f, // %s\n", w[f], ai.MoveFeatureName(f))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
