package beliefs

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/strategobot/strategobot/internal/lab/records"
	"go/format"
	"io"
	"math"
	"os"
	"runtime"
	"sync"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/cli"
)

const (
	numFeatures = ai.NumBehaviourFeatures
	numRanks    = game.NumRanks
)

// samples are hidden pieces to fit on: for each, the log of its base weight
// of every rank (-Inf where it cannot be that rank), its features and its
// true rank.
type samples struct {
	logBase  []float32 // numRanks per sample
	features []float32 // numFeatures per sample
	truth    []uint8
}

func (s *samples) len() int { return len(s.truth) }

// collect adds the hidden pieces of both sides' views of g.
func (s *samples) collect(g *game.Game) error {
	for _, side := range []game.Side{game.Red, game.Blue} {
		bs, err := ai.BehaviourSamples(g.View(game.ViewerOf(side)))
		if err != nil {
			return err
		}
		for _, b := range bs {
			r := trueRank(g, b.Start)
			if b.Base[r] <= 0 {
				continue // cannot happen: the base rules out no true rank
			}
			possible := 0
			for _, x := range b.Base {
				if x > 0 {
					possible++
				}
			}
			if possible < 2 {
				continue // nothing to learn
			}
			for _, x := range b.Base {
				s.logBase = append(s.logBase, float32(math.Log(x)))
			}
			for _, x := range b.Features {
				s.features = append(s.features, float32(x))
			}
			s.truth = append(s.truth, uint8(r))
		}
	}
	return nil
}

// weights are the model's weights: [feature][rank], and the exponent of the
// base weights in the row past the features (its first entry).
type weights [numFeatures + 1][numRanks]float64

// exponent is the exponent of the base weights: 1 more than w[numFeatures][0],
// so that all-zero weights are the base alone.
func (w *weights) exponent() float64 { return 1 + w[numFeatures][0] }

// lossAndGradient returns the mean negative log-likelihood of the samples'
// true ranks under w (without the penalty) and its gradient, over jobs
// goroutines.
func (s *samples) lossAndGradient(w *weights, jobs int) (float64, weights) {
	n := s.len()
	type part struct {
		loss float64
		grad weights
	}
	parts := make([]part, jobs)
	var wg sync.WaitGroup
	for j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &parts[j]
			var z, prob [numRanks]float64
			a := w.exponent()
			for i := j * n / jobs; i < (j+1)*n/jobs; i++ {
				lb := s.logBase[i*numRanks : (i+1)*numRanks]
				x := s.features[i*numFeatures : (i+1)*numFeatures]
				top := math.Inf(-1)
				for r := range z {
					z[r] = float64(lb[r])
					if math.IsInf(z[r], -1) {
						continue
					}
					z[r] *= a
					for f, v := range x {
						if v != 0 {
							z[r] += w[f][r] * float64(v)
						}
					}
					top = max(top, z[r])
				}
				sum := 0.0
				for r := range z {
					prob[r] = math.Exp(z[r] - top)
					sum += prob[r]
				}
				t := s.truth[i]
				p.loss -= z[t] - top - math.Log(sum)
				for r := range prob {
					prob[r] /= sum
				}
				prob[t]--
				for r, q := range prob {
					if !math.IsInf(float64(lb[r]), -1) {
						p.grad[numFeatures][0] += float64(lb[r]) * q
					}
				}
				for f, v := range x {
					if v == 0 {
						continue
					}
					for r := range prob {
						p.grad[f][r] += float64(v) * prob[r]
					}
				}
			}
		}()
	}
	wg.Wait()
	var loss float64
	var grad weights
	for _, p := range parts {
		loss += p.loss
		for f := range grad {
			for r := range grad[f] {
				grad[f][r] += p.grad[f][r]
			}
		}
	}
	for f := range grad {
		for r := range grad[f] {
			grad[f][r] /= float64(n)
		}
	}
	return loss / float64(n), grad
}

// fit minimises the mean negative log-likelihood plus l2 times the squared
// weights with Adam, and returns the weights with the losses before and
// after (without the penalty).
func (s *samples) fit(iters int, l2 float64, jobs int, progress func(iter int, loss float64)) (w weights, before, after float64) {
	const (
		rate   = 0.05
		beta1  = 0.9
		beta2  = 0.999
		adamEp = 1e-8
	)
	var m, v weights
	for it := 1; it <= iters; it++ {
		loss, g := s.lossAndGradient(&w, jobs)
		if it == 1 {
			before = loss
		}
		if progress != nil && (it == 1 || it%50 == 0) {
			progress(it, loss)
		}
		for f := range w {
			for r := range w[f] {
				gr := g[f][r] + 2*l2*w[f][r]
				m[f][r] = beta1*m[f][r] + (1-beta1)*gr
				v[f][r] = beta2*v[f][r] + (1-beta2)*gr*gr
				mh := m[f][r] / (1 - math.Pow(beta1, float64(it)))
				vh := v[f][r] / (1 - math.Pow(beta2, float64(it)))
				w[f][r] -= rate * mh / (math.Sqrt(vh) + adamEp)
			}
		}
	}
	after, _ = s.lossAndGradient(&w, jobs)
	return w, before, after
}

const fitUsage = `usage: strategolab fit-behaviour [-o FILE] [-plies 30,60,100,150,200,300] [-iters N] [-l2 X] FILES...

Fits the behaviour model of the computer's beliefs (game/ai/behaviour.go) on
Gravon game records (zip archives or XML records): for the hidden pieces of
both sides' views at each ply given, the weights that make the true ranks
likeliest given the per-square set-up prior, and writes the table game/ai
embeds. Fit on the archive without its held-out part:

  fit-behaviour -o game/ai/behaviour_weights.go strados2004-11.zip … strados2014-1.zip

Files of the held-out part (strados2014-2.zip, strados2014-3.zip) are refused.

Flags:
`

// FitFlags declares the fitting command's flags into a new flag set whose -h
// writes its usage to w.
func FitFlags(w io.Writer) *flag.FlagSet {
	fs, _ := fitFlags(w)
	return fs
}

type fitFlagValues struct {
	out, plies  *string
	iters, jobs *int
	l2          *float64
}

func fitFlags(w io.Writer) (*flag.FlagSet, fitFlagValues) {
	fs := cli.NewFlagSet("fit-behaviour", fitUsage, w)
	var v fitFlagValues
	v.out = fs.String("o", "", "write the table to this Go file (default: print it)")
	v.plies = fs.String("plies", "30,60,100,150,200,300", "the plies to fit at, ascending")
	v.iters = fs.Int("iters", 300, "steps of the optimiser")
	v.l2 = fs.Float64("l2", 1e-4, "penalty on the squared weights")
	v.jobs = fs.Int("j", runtime.GOMAXPROCS(0), "goroutines")
	return fs, v
}

// Fit is the fitting command (see fitUsage). It returns the exit code: 0, or
// 2 for a usage or input error.
func Fit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, v := fitFlags(stdout)
	out, pliesText, iters, l2, jobs := v.out, v.plies, v.iters, v.l2, v.jobs
	if err := cli.Parse(fs, args); err != nil {
		return cli.UsageFailed(stderr, "strategolab fit-behaviour", fitUsage, err) // 0 for -h, whose usage is printed
	}
	plies, err := parsePlies(*pliesText)
	if err != nil {
		fmt.Fprintln(stderr, "fit-behaviour:", err)
		return 2
	}
	if fs.NArg() == 0 {
		return cli.UsageFailed(stderr, "strategolab fit-behaviour", fitUsage, errors.New("name one or more Gravon record files"))
	}
	if err := records.FitOnly(fs.Args()); err != nil {
		fmt.Fprintln(stderr, "fit-behaviour:", err)
		return 2
	}
	recs, skipped, err := records.Read(fs.Args(), game.VariantClassic)
	if err != nil {
		fmt.Fprintln(stderr, "fit-behaviour:", err)
		return 2
	}
	var s samples
	failed := 0
	for _, r := range recs {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "fit-behaviour: stopped")
			return 2
		}
		if err := records.Positions(r.Record, plies, func(_ int, g *game.Game) error { return s.collect(g) }); err != nil {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%d Classic records (%d stopped early by a move the rules refuse), %d hidden pieces\n", len(recs), failed, s.len())
	printSkipped(stdout, skipped)
	if s.len() == 0 {
		fmt.Fprintln(stderr, "fit-behaviour: no hidden piece to fit on")
		return 2
	}
	w, before, after := s.fit(*iters, *l2, max(1, *jobs), func(it int, loss float64) {
		fmt.Fprintf(stdout, "step %d: mean log-likelihood %.4f\n", it, -loss)
	})
	fmt.Fprintf(stdout, "mean log-likelihood of the true ranks: prior alone %.4f, with behaviour %.4f\n", -before, -after)
	src, err := weightsSource(&w, len(recs), s.len(), *l2)
	if err != nil {
		fmt.Fprintln(stderr, "fit-behaviour:", err)
		return 2
	}
	if *out == "" {
		stdout.Write(src)
		return 0
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(stderr, "fit-behaviour:", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}

// weightsSource returns the Go source of the table.
func weightsSource(w *weights, records, pieces int, l2 float64) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by strategolab fit-behaviour; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package ai\n\nimport \"github.com/strategobot/strategobot/game\"\n\n")
	fmt.Fprintf(&b, "// behaviourWeights[f][r] is the weight of behaviour feature f for rank r,\n")
	fmt.Fprintf(&b, "// fitted on %d Classic Gravon games (%d hidden pieces, penalty %g).\n", records, pieces, l2)
	fmt.Fprintf(&b, "var behaviourWeights = [numBehaviourFeatures][game.NumRanks]float64{\n")
	for f := range numFeatures {
		fmt.Fprintf(&b, "\t// %s\n\t{", ai.BehaviourFeatureName(f))
		for r := range w[f] {
			if r > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%.3f", w[f][r])
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// behaviourPriorExponent is the power the per-square prior (with its floor)\n// is raised to when the fitted model reads behaviour.\n")
	fmt.Fprintf(&b, "const behaviourPriorExponent = %.4f\n", w.exponent())
	return format.Source(b.Bytes())
}
