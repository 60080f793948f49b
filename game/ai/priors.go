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

// The priors of the armies with real players' set-ups, built on first use.
var (
	classicPrior = sync.OnceValue(func() *setupPrior { return priorFrom(game.RealSetups(game.VariantClassic)) })
	barragePrior = sync.OnceValue(func() *setupPrior { return priorFrom(game.RealSetups(game.VariantBarrage)) })
)

// generatedSetups is how many set-ups of game.RandomSetup make the prior of an
// army that has no real set-ups.
const generatedSetups = 300

// priorFor returns the set-up prior for the rules' army: real players' set-ups
// for Classic and Barrage, game.RandomSetup's for any other army (the
// set-ups the bot itself and its opponents' "random" button use).
func priorFor(rules game.Rules) *setupPrior {
	switch rules.Army {
	case game.VariantClassic.Army():
		return classicPrior()
	case game.VariantBarrage.Army():
		return barragePrior()
	}
	setups := make([]game.Setup, generatedSetups)
	for i := range setups {
		setups[i] = game.RandomSetup(rules, uint64(i)*0x9E3779B97F4A7C15+1)
	}
	return priorFrom(setups)
}
