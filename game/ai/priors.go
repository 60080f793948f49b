package ai

import (
	"sync"

	"github.com/strategobot/strategobot/game"
)

// setupPrior is, for every square of a set-up (row 0 the front row, column 0
// the owner's left), how often each rank stands there in the set-ups people
// make, as a fraction. It is built once and then only read.
type setupPrior [game.SetupRows][10][game.NumRanks]float64

// add counts a set-up and its mirror image: players use both.
func (p *setupPrior) add(s *game.Setup) {
	for row := range s {
		for col, r := range s[row] {
			p[row][col][r]++
			p[row][9-col][r]++
		}
	}
}

func (p *setupPrior) normalize() {
	for row := range p {
		for col := range p[row] {
			sum := 0.0
			for _, x := range p[row][col] {
				sum += x
			}
			if sum > 0 {
				for r := range p[row][col] {
					p[row][col][r] /= sum
				}
			}
		}
	}
}

func priorFrom(setups []game.Setup) *setupPrior {
	p := &setupPrior{}
	for i := range setups {
		p.add(&setups[i])
	}
	p.normalize()
	return p
}

// The priors of the standard armies, built on first use: from real players'
// set-ups for Classic and Barrage, from where game.RandomSetup puts each rank
// for the others (the set-ups the computer itself and its opponents' Random
// button make; real players' set-ups shaped those too).
var (
	classicPrior     = sync.OnceValue(func() *setupPrior { return priorFrom(game.RealSetups(game.VariantClassic)) })
	barragePrior     = sync.OnceValue(func() *setupPrior { return priorFrom(game.RealSetups(game.VariantBarrage)) })
	duelPrior        = sync.OnceValue(func() *setupPrior { return generatorPrior(game.DefaultRules(game.VariantDuel)) })
	infiltratorPrior = sync.OnceValue(func() *setupPrior { return generatorPrior(game.DefaultRules(game.VariantInfiltrator)) })
)

func generatorPrior(rules game.Rules) *setupPrior {
	p := setupPrior(*game.RandomSetupOdds(rules))
	return &p
}

// priorFor returns the set-up prior for the rules' army. A Custom army's is
// worked out each time (a few milliseconds).
func priorFor(rules game.Rules) *setupPrior {
	switch rules.Army {
	case game.VariantClassic.Army():
		return classicPrior()
	case game.VariantBarrage.Army():
		return barragePrior()
	case game.VariantDuel.Army():
		return duelPrior()
	case game.VariantInfiltrator.Army():
		return infiltratorPrior()
	}
	return generatorPrior(rules)
}
