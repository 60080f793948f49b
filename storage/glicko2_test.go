package storage

import (
	"math"
	"testing"
)

// TestGlicko2PaperExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a 1500/200 player (σ 0.06, τ 0.5) beats a 1400/30 player
// and loses to 1550/100 and 1700/300, and ends at 1464.06/151.52, σ 0.05999.
func TestGlicko2PaperExample(t *testing.T) {
	p := glicko{R: 1500, RD: 200, Sigma: 0.06}
	got := p.update([]glickoGame{
		{Opponent: glicko{R: 1400, RD: 30, Sigma: 0.06}, Score: 1},
		{Opponent: glicko{R: 1550, RD: 100, Sigma: 0.06}, Score: 0},
		{Opponent: glicko{R: 1700, RD: 300, Sigma: 0.06}, Score: 0},
	}, 0.5)
	checks := []struct {
		name      string
		got, want float64
		tolerance float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"RD", got.RD, 151.52, 0.01},
		{"volatility", got.Sigma, 0.05999, 0.00001},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > c.tolerance {
			t.Errorf("%s = %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
}

func TestGlicko2Idle(t *testing.T) {
	tests := []struct {
		name    string
		rd      float64
		periods int
		want    float64
	}{
		{"no idle period", 50, 0, 50},
		{"one period: √(φ²+σ²)", 50, 1, math.Sqrt(50*50 + 0.06*0.06*glickoScale*glickoScale)},
		{"never past the starting RD", 300, 10000, initialRD},
	}
	for _, tc := range tests {
		got := glicko{R: 1500, RD: tc.rd, Sigma: 0.06}.idle(tc.periods)
		if math.Abs(got.RD-tc.want) > 1e-9 {
			t.Errorf("%s: RD %.4f, want %.4f", tc.name, got.RD, tc.want)
		}
	}
	if got := (glicko{R: 1500, RD: 50, Sigma: 0.06}).update(nil, glickoTau); got.RD <= 50 {
		t.Errorf("a period without games left RD at %.2f", got.RD)
	}
}

func TestGlicko2OneGameIsSymmetric(t *testing.T) {
	a, b := glicko{1500, 350, 0.06}, glicko{1500, 350, 0.06}
	wa := a.update([]glickoGame{{b, 1}}, glickoTau)
	lb := b.update([]glickoGame{{a, 0}}, glickoTau)
	if math.Abs((wa.R-1500)-(1500-lb.R)) > 1e-9 || wa.R <= 1500 {
		t.Errorf("winner %.2f, loser %.2f: not symmetric", wa.R, lb.R)
	}
	d := a.update([]glickoGame{{b, 0.5}}, glickoTau)
	if math.Abs(d.R-1500) > 1e-9 || d.RD >= 350 {
		t.Errorf("a draw between equals moved the rating to %.2f±%.2f", d.R, d.RD)
	}
}
