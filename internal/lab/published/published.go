// Package published tells how near a set-up is to the set-ups people
// published (game.PublishedSetups). Many people set up as someone did before
// them, and the computer recognises published set-ups, so the lab splits its
// measures by that distance: whether the computer wins by recognition or by
// play.
package published

import (
	"fmt"
	"sync"

	"github.com/strategobot/strategobot/game"
)

// FarFrom is the fewest squares by which a set-up differs from every
// published one (and every mirror image) for the lab to call it far, the
// last band of compare -published: there recognition of a copy with a few
// squares changed (game/ai/copies.go) has next to nothing to read.
const FarFrom = 11

// Index holds each variant's published set-ups and their mirror images, read
// on first use. It is safe for concurrent use.
type Index struct {
	mu    sync.Mutex
	sets  map[game.Variant][]game.Setup
	exact map[game.Variant]map[game.Setup]bool
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{sets: map[game.Variant][]game.Setup{}, exact: map[game.Variant]map[game.Setup]bool{}}
}

// Published reports whether s, or its mirror image, is a published set-up
// of v: Nearest is 0, found at once.
func (p *Index) Published(v game.Variant, s game.Setup) (bool, error) {
	if _, err := p.variant(v); err != nil {
		return false, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exact[v][s], nil
}

// Nearest returns the fewest squares by which s differs from a published
// set-up of v or its mirror image, and false when v has none.
func (p *Index) Nearest(v game.Variant, s game.Setup) (int, bool, error) {
	sets, err := p.variant(v)
	if err != nil || len(sets) == 0 {
		return 0, false, err
	}
	best := game.SetupRows * 10
	for i := range sets {
		if d := Distance(&sets[i], &s, best); d < best {
			best = d
		}
	}
	return best, true, nil
}

// variant returns v's published set-ups and their mirror images.
func (p *Index) variant(v game.Variant) ([]game.Setup, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if sets, ok := p.sets[v]; ok {
		return sets, nil
	}
	list, err := game.PublishedSetups(v)
	if err != nil {
		return nil, fmt.Errorf("reading the published set-ups of %v: %w", v, err)
	}
	sets := make([]game.Setup, 0, 2*len(list))
	exact := make(map[game.Setup]bool, 2*len(list))
	for _, x := range list {
		sets = append(sets, x, x.Mirror())
		exact[x], exact[x.Mirror()] = true, true
	}
	p.sets[v], p.exact[v] = sets, exact
	return sets, nil
}

// Distance counts the squares where a and b differ, giving up at most.
func Distance(a, b *game.Setup, most int) int {
	d := 0
	for row := range a {
		for col := range a[row] {
			if a[row][col] != b[row][col] {
				if d++; d >= most {
					return d
				}
			}
		}
	}
	return d
}
