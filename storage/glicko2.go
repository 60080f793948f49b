package storage

import "math"

// Glicko-2, as published by Mark Glickman ("Example of the Glicko-2 system",
// 2012, http://www.glicko.net/glicko/glicko2.pdf). Ratings are on the Glicko
// scale (1500 ± RD); the algorithm works on the Glicko-2 scale (μ, φ).

// glickoScale converts between the two scales (173.7178 = 400 / ln 10).
const glickoScale = 173.7178

// Parameters of the system.
const (
	initialRating     = 1500.0
	initialRD         = 350.0
	initialVolatility = 0.06
	// glickoTau constrains how fast volatility changes; Glickman suggests 0.3
	// to 1.2. 0.5 is his example's and a common choice for games like this.
	glickoTau = 0.5
	// glickoEpsilon is the convergence tolerance of step 5.
	glickoEpsilon = 0.000001
)

// glicko is a rating: r and RD on the Glicko scale, σ the volatility.
type glicko struct {
	R, RD, Sigma float64
}

// glickoGame is one game of a rating period: the opponent's pre-period rating and the score (1, ½, 0).
type glickoGame struct {
	Opponent glicko
	Score    float64
}

// idle applies Glickman's step for a period without games: φ grows to
// √(φ² + σ²), here over n periods, never past the starting RD.
func (p glicko) idle(n int) glicko {
	if n <= 0 {
		return p
	}
	phi := p.RD / glickoScale
	phi = math.Sqrt(phi*phi + float64(n)*p.Sigma*p.Sigma)
	p.RD = math.Min(phi*glickoScale, initialRD)
	return p
}

func glickoG(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func glickoE(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-glickoG(phij)*(mu-muj))) }

// update rates p after one rating period's games (steps 2 to 8 of the paper).
func (p glicko) update(games []glickoGame, tau float64) glicko {
	// Step 2: to the Glicko-2 scale.
	mu := (p.R - initialRating) / glickoScale
	phi := p.RD / glickoScale
	if len(games) == 0 {
		return p.idle(1)
	}
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vinv, sum float64
	for _, g := range games {
		muj := (g.Opponent.R - initialRating) / glickoScale
		phij := g.Opponent.RD / glickoScale
		gj, e := glickoG(phij), glickoE(mu, muj, phij)
		vinv += gj * gj * e * (1 - e)
		sum += gj * (g.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(p.Sigma * p.Sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > glickoEpsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma := math.Exp(A / 2)
	// Steps 6 and 7: the new φ and μ.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return glicko{R: muNew*glickoScale + initialRating, RD: phiNew * glickoScale, Sigma: sigma}
}
