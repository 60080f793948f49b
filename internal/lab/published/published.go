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
	mu       sync.Mutex
	variants map[game.Variant]*variantSetups
}

// variantSetups are one variant's published set-ups and mirror images, as a
// list to measure distances on and a set to look one up.
type variantSetups struct {
	list  []game.Setup
	exact map[game.Setup]bool
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{variants: map[game.Variant]*variantSetups{}} }

// Published reports whether s, or its mirror image, is a published set-up
// of v: Nearest is 0, found at once.
func (p *Index) Published(v game.Variant, s game.Setup) (bool, error) {
	sets, err := p.variant(v)
	if err != nil {
		return false, err
	}
	return sets.exact[s], nil
}

// Nearest returns the fewest squares by which s differs from a published
// set-up of v or its mirror image, and false when v has none.
func (p *Index) Nearest(v game.Variant, s game.Setup) (int, bool, error) {
	sets, err := p.variant(v)
	if err != nil || len(sets.list) == 0 {
		return 0, false, err
	}
	best := game.SetupRows * 10
	for i := range sets.list {
		if d := Distance(&sets.list[i], &s, best); d < best {
			best = d
		}
	}
	return best, true, nil
}

// variant returns v's published set-ups, reading them on first use; once
// read they are never changed, so callers share them without the lock.
func (p *Index) variant(v game.Variant) (*variantSetups, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if sets, ok := p.variants[v]; ok {
		return sets, nil
	}
	published, err := game.PublishedSetups(v)
	if err != nil {
		return nil, fmt.Errorf("reading the published set-ups of %v: %w", v, err)
	}
	sets := &variantSetups{list: make([]game.Setup, 0, 2*len(published)), exact: make(map[game.Setup]bool, 2*len(published))}
	for _, x := range published {
		sets.list = append(sets.list, x, x.Mirror())
		sets.exact[x], sets.exact[x.Mirror()] = true, true
	}
	p.variants[v] = sets
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
