package game

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
)

// Fitting the set-up generator's weights. This runs by hand, not in the
// suite (it takes a minute):
//
//	go test ./game -run TestSetupWeights -update-setup-weights -v
//
// rewrites setupweights.go. The suite checks that the file was made from the
// embedded set-ups as they are now.

var updateSetupWeights = flag.Bool("update-setup-weights", false, "fit the set-up generator's weights to the embedded real set-ups and rewrite setupweights.go")

// setupFeatureCounts adds to f the feature counts of s that the generator scores (see setupgen.go).
func setupFeatureCounts(f []int64, s *Setup) {
	for row := range s {
		n := 0
		for col, r := range s[row] {
			c := row*10 + col
			f[wRank+c*NumRanks+int(r)]++
			if col < 9 {
				f[wBeside+(row*NumRanks+int(r))*NumRanks+int(s[row][col+1])]++
			}
			if row < SetupRows-1 {
				f[wBehind+(row*NumRanks+int(r))*NumRanks+int(s[row+1][col])]++
			}
			if r == Flag {
				nb := &setupNeighbours[c]
				bombs, taken := 0, 0
				for _, k := range nb.cells[:nb.n] {
					if s[k/10][k%10] == Bomb {
						bombs++
					}
					if s[k/10][k%10] != NoRank {
						taken++
					}
				}
				f[flagGuardWeight(int(nb.n), bombs, taken)]++
				f[wFlagMirror+int(s[row][9-col])]++
			}
			if r != NoRank {
				n++
			}
		}
		f[wRowFill+row*11+n]++
	}
}

// setupScore is the model's score of s, from its features.
func setupScore(w *setupWeights, s *Setup) int64 {
	f := make([]int64, numSetupWeights)
	setupFeatureCounts(f, s)
	var sum int64
	for i, k := range f {
		sum += k * int64(w[i])
	}
	return sum
}

// mirrorWeight returns the index of the weight tied to i: the mirror square's,
// or the pair's in the other order. It is i itself for the other weights.
func mirrorWeight(i int) int {
	switch {
	case i < wBeside:
		c, r := (i-wRank)/NumRanks, (i-wRank)%NumRanks
		return wRank + (c/10*10+9-c%10)*NumRanks + r
	case i < wBehind:
		k := i - wBeside
		row, a, b := k/(NumRanks*NumRanks), k/NumRanks%NumRanks, k%NumRanks
		return wBeside + (row*NumRanks+b)*NumRanks + a
	}
	return i
}

// fitOptions are the knobs of fitSetupWeights.
type fitOptions struct {
	iterations int     // gradient steps
	samples    int     // set-ups drawn per step
	rate       float64 // Adam's step size, in log-odds; it falls to a tenth by the end
	decay      float64 // pull of every weight towards 0, in feature counts per log-odds
}

var defaultFit = fitOptions{iterations: 600, samples: 256, rate: 0.05, decay: 0.002}

// fitSetupWeights fits weights so that the generator's set-ups of the army of
// setups have, on average, the feature counts of setups and their mirror
// images: moment matching by stochastic gradient (Adam) on the exact chain of
// the generator, with a small pull of every weight towards 0 so that a
// feature that real players never show gets a large negative weight but not
// an endless one. The result depends only on setups and opts.
func fitSetupWeights(setups []Setup, opts fitOptions, logf func(string, ...any)) setupWeights {
	army := setups[0].Counts()
	pieces := armyPieces(army)
	flags := flagSquaresOf(setups, 0) // the Flag odds the weights were fitted with
	target := make([]float64, numSetupWeights)
	{
		f := make([]int64, numSetupWeights)
		for _, s := range setups {
			m := s.Mirror()
			setupFeatureCounts(f, &s)
			setupFeatureCounts(f, &m)
		}
		for i := range f {
			target[i] = float64(f[i]) / float64(2*len(setups))
		}
	}
	theta := make([]float64, numSetupWeights)
	// Start from each square's own odds, which is where the fit ends up for
	// the rank weights when pairs matter little.
	for c := range setupCells {
		for r := range NumRanks {
			if army[r] > 0 || (r == int(NoRank) && len(pieces) < setupCells) {
				theta[wRank+c*NumRanks+r] = math.Log((target[wRank+c*NumRanks+r] + 0.01) / (float64(army[r]) + 0.01))
			}
		}
	}
	first, second := make([]float64, numSetupWeights), make([]float64, numSetupWeights)
	average := make([]float64, numSetupWeights)
	averaged := 0
	var w setupWeights
	const beta1, beta2 = 0.9, 0.999
	for it := range opts.iterations {
		quantize(&w, theta)
		model := sampleFeatureMeans(&w, pieces, flags, opts.samples, uint64(it))
		worst, worstAt := 0.0, 0
		grad := make([]float64, numSetupWeights)
		for i := range grad {
			grad[i] = target[i] - model[i] - opts.decay*theta[i]
			if d := math.Abs(target[i] - model[i]); d > worst {
				worst, worstAt = d, i
			}
		}
		for i := range grad {
			if j := mirrorWeight(i); j != i {
				grad[i] = (grad[i] + grad[j]) / 2
				grad[j] = grad[i]
			}
		}
		rate := opts.rate * math.Pow(0.1, float64(it)/float64(opts.iterations))
		for i, g := range grad {
			first[i] = beta1*first[i] + (1-beta1)*g
			second[i] = beta2*second[i] + (1-beta2)*g*g
			m := first[i] / (1 - math.Pow(beta1, float64(it+1)))
			v := second[i] / (1 - math.Pow(beta2, float64(it+1)))
			theta[i] += rate * m / (math.Sqrt(v) + 1e-4)
		}
		// Average the last quarter of the steps: the samples' noise averages out.
		if it >= opts.iterations*3/4 {
			averaged++
			for i := range theta {
				average[i] += (theta[i] - average[i]) / float64(averaged)
			}
		}
		if logf != nil && (it%20 == 0 || it == opts.iterations-1) {
			logf("step %d: worst feature %s off by %.3f (real %.3f)", it, weightName(worstAt), worst, target[worstAt])
		}
	}
	quantize(&w, average)
	return w
}

// quantize rounds theta to fixed point, keeping tied weights equal.
func quantize(w *setupWeights, theta []float64) {
	for i, x := range theta {
		w[i] = int16(max(-math.MaxInt16, min(math.MaxInt16, math.Round(x*setupWeightScale))))
	}
}

// sampleFeatureMeans draws n set-ups of pieces with weights w and the Flag
// squares of flags (as the generator does, seeds from batch) and returns
// their mean feature counts.
func sampleFeatureMeans(w *setupWeights, pieces []Rank, flags *flagSquares, n int, batch uint64) []float64 {
	const workers = 2
	counts := make([][]int64, workers)
	var wg sync.WaitGroup
	for k := range workers {
		counts[k] = make([]int64, numSetupWeights)
		wg.Go(func() {
			for j := k; j < n; j += workers {
				rng := rand.New(rand.NewPCG(batch, uint64(j)))
				ch := newSetupChain(w, pieces, flags.draw(rng), rng)
				ch.run(setupStepsPerPiece*len(pieces), rng)
				s := ch.setup()
				setupFeatureCounts(counts[k], &s)
			}
		})
	}
	wg.Wait()
	means := make([]float64, numSetupWeights)
	for i := range means {
		var sum int64
		for k := range workers {
			sum += counts[k][i]
		}
		means[i] = float64(sum) / float64(n)
	}
	return means
}

// weightName names weight i for messages.
func weightName(i int) string {
	switch {
	case i < wBeside:
		c, r := (i-wRank)/NumRanks, Rank((i-wRank)%NumRanks)
		return fmt.Sprintf("%s on row %d column %d", rankOrEmpty(r), c/10+1, c%10+1)
	case i < wBehind:
		k := i - wBeside
		return fmt.Sprintf("%s left of %s on row %d", rankOrEmpty(Rank(k/NumRanks%NumRanks)), rankOrEmpty(Rank(k%NumRanks)), k/(NumRanks*NumRanks)+1)
	case i < wFlagGuard:
		k := i - wBehind
		return fmt.Sprintf("%s on row %d in front of %s", rankOrEmpty(Rank(k/NumRanks%NumRanks)), k/(NumRanks*NumRanks)+1, rankOrEmpty(Rank(k%NumRanks)))
	case i < wRowFill:
		k := i - wFlagGuard
		return fmt.Sprintf("Flag with %d of %d squares around it taken, %d by Bombs", k%5, k/25, k/5%5)
	case i >= wFlagMirror:
		return fmt.Sprintf("%s across the row from the Flag", rankOrEmpty(Rank(i-wFlagMirror)))
	}
	k := i - wRowFill
	return fmt.Sprintf("%d pieces on row %d", k%11, k/11+1)
}

func rankOrEmpty(r Rank) string {
	if r == NoRank {
		return "empty"
	}
	return r.Name()
}

// dataDigest identifies the set-ups a model was fitted to.
func dataDigest(data string) string {
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:8])
}

func TestSetupWeights(t *testing.T) {
	models := []struct {
		name    string
		v       Variant
		data    string
		digest  string
		weights *setupWeights
	}{
		{"classic", VariantClassic, classicSetupData, classicSetupWeightsDigest, &classicSetupWeights},
		{"barrage", VariantBarrage, barrageSetupData, barrageSetupWeightsDigest, &barrageSetupWeights},
	}
	if *updateSetupWeights {
		var b bytes.Buffer
		b.WriteString("// Code generated by go test ./game -run TestSetupWeights -update-setup-weights; DO NOT EDIT.\n\n")
		b.WriteString("package game\n\n")
		fmt.Fprintf(&b, "// The weights were fitted with %+v.\n\n", defaultFit)
		for _, m := range models {
			w := fitSetupWeights(RealSetups(m.v), defaultFit, t.Logf)
			fmt.Fprintf(&b, "// %sSetupWeightsDigest identifies the set-ups the weights were fitted to.\n", m.name)
			fmt.Fprintf(&b, "const %sSetupWeightsDigest = %q\n\n", m.name, dataDigest(m.data))
			fmt.Fprintf(&b, "var %sSetupWeights = setupWeights{", m.name)
			n := 0
			for i, x := range w {
				if x != 0 {
					if n%8 == 0 {
						b.WriteString("\n")
					}
					fmt.Fprintf(&b, "%d: %d, ", i, x)
					n++
				}
			}
			b.WriteString("\n}\n\n")
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("setupweights.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("wrote setupweights.go; run the tests again to use it")
		return
	}
	for _, m := range models {
		if got := dataDigest(m.data); got != m.digest {
			t.Errorf("%s: the weights were fitted to other set-ups (digest %s, the embedded ones are %s): run go test ./game -run TestSetupWeights -update-setup-weights", m.name, m.digest, got)
		}
		for i, x := range m.weights {
			if j := mirrorWeight(i); m.weights[j] != x {
				t.Errorf("%s: weight %d (%s) is %d, its mirror %d (%s) %d", m.name, i, weightName(i), x, j, weightName(j), m.weights[j])
			}
		}
	}
}
