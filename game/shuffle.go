package game

import "math/rand/v2"

// ShuffleHidden returns a copy of g in which side's pieces that the opponent
// cannot tell apart have traded ranks: pieces never revealed, shuffled among
// those with the same known history (unmoved; moved; known Scout). The copy is
// a game the opponent could equally be playing, which is what a leak test
// needs: everything the opponent and the public are shown must be the same
// for g and for the copy. The set-ups of the copy are not changed.
func ShuffleHidden(g *Game, side Side, seed uint64) *Game {
	r := rand.New(rand.NewPCG(seed, 0x5ba7f1e))
	c := g.Clone()
	classes := map[[2]bool][]int{}
	for id := int(side) * MaxPieces; id < int(side+1)*MaxPieces; id++ {
		p := &c.pieces[id]
		if p.sq == NoSquare || p.revealed {
			continue
		}
		k := [2]bool{p.moved, p.scout}
		classes[k] = append(classes[k], id)
	}
	for _, k := range [][2]bool{{false, false}, {true, false}, {true, true}} {
		ids := classes[k]
		ranks := make([]Rank, len(ids))
		for i, id := range ids {
			ranks[i] = c.pieces[id].rank
		}
		r.Shuffle(len(ranks), func(i, j int) { ranks[i], ranks[j] = ranks[j], ranks[i] })
		for i, id := range ids {
			c.pieces[id].rank = ranks[i]
		}
	}
	return c
}
