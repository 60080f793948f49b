package game

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// The set-up generator. It makes new set-ups that look like real players'
// ones without copying any of them. The Flag's square is drawn from the real
// players' Flag squares (each square counted with its mirror image, plus one
// so that none is ruled out, and in Barrage a little spread evenly: see
// barrageFlagSpread); the rest of the army is placed by a model that
// knows only local statistics of the real set-ups; and a set-up that happens
// to equal a listed real one (or its mirror image) is drawn again.
//
// The model scores a set-up by the sum of weights of its features:
//   - each rank on each square (Scouts in the open lanes, Miners at the back);
//   - each pair of ranks side by side in a row, and each pair one behind the
//     other, per row (the Spy beside the General, Bombs in front of the Flag);
//   - for the Flag, how many of the squares around it in the zone hold Bombs
//     and how many hold any piece (a back-row Flag walled in by Bombs, or
//     boxed in by pieces in Barrage, is a pattern of three or four squares
//     that pairs alone do not capture);
//   - what stands on the mirror image of the Flag's square (players put a
//     decoy in the other back corner);
//   - how many pieces stand in each row (Barrage's sparse shapes).
//
// With the Flag in place, the generator shuffles the rest of the army into
// the zone and makes a fixed number of random swaps of two squares, each
// kept with the Metropolis probability min(1, e^Δscore). The weights were
// fitted (setuptrain_test.go) so that the feature counts of this exact
// procedure match the real set-ups' on average.
//
// Why an opponent cannot do better than the model allows: the Flag's square
// is a draw of its own, whose odds are the real players'; the rest follows
// weights of one square, two neighbouring squares, or the Flag and the
// squares around it or across its row, so the model carries no whole real
// set-up nor a large piece of one that matching the visible part against
// the list could complete. setupsecret_test.go attacks it as an opponent with
// the list would, and compares with real set-ups the attacker has not seen.
//
// Weights are integers (log-odds times setupWeightScale) so that the same
// seed gives the same set-up on every machine.

// setupCells is the number of squares of a set-up zone; a cell c is row c/10, column c%10.
const setupCells = SetupRows * 10

// setupWeightScale is the fixed-point scale of the weights: a weight w adds w/setupWeightScale to the log-odds.
const setupWeightScale = 256

// The layout of setupWeights: offsets of each kind of feature.
const (
	// wRank + cell*NumRanks + rank: rank r on cell c.
	wRank = 0
	// wBeside + (row*NumRanks + left)*NumRanks + right: two ranks side by side.
	wBeside = wRank + setupCells*NumRanks
	// wBehind + (row*NumRanks + front)*NumRanks + back: rank back stands
	// behind rank front, front on row (0 = the front row).
	wBehind = wBeside + SetupRows*NumRanks*NumRanks
	// wFlagGuard + (around*5 + bombs)*5 + taken: a Flag with around squares
	// next to it in the zone, bombs of them holding Bombs and taken of them
	// holding a piece (the Bombs included).
	wFlagGuard = wBehind + (SetupRows-1)*NumRanks*NumRanks
	// wRowFill + row*11 + n: n pieces on row.
	wRowFill = wFlagGuard + 5*5*5
	// wFlagMirror + rank: rank stands on the mirror image of the Flag's
	// square (a decoy in the other back corner).
	wFlagMirror = wRowFill + SetupRows*11
	// numSetupWeights is the length of setupWeights.
	numSetupWeights = wFlagMirror + NumRanks
)

// setupWeights are the weights of one model, in the layout above. The rank
// and side-by-side weights are the same for a square and its mirror image,
// and for two ranks in either order.
type setupWeights [numSetupWeights]int16

// setupNeighbourhood lists, for each cell, the cells beside, in front of and
// behind it in the zone; n is how many.
type setupNeighbourhood struct {
	cells [4]int8
	n     int8
}

var setupNeighbours = func() (nb [setupCells]setupNeighbourhood) {
	for c := range setupCells {
		row, col := c/10, c%10
		add := func(r, k int) {
			if r >= 0 && r < SetupRows && k >= 0 && k < 10 {
				nb[c].cells[nb[c].n] = int8(r*10 + k)
				nb[c].n++
			}
		}
		add(row, col-1)
		add(row, col+1)
		add(row-1, col)
		add(row+1, col)
	}
	return nb
}()

// acceptOdds[d] is e^(-d/setupWeightScale) as a fraction of 2^64: a swap that
// lowers the score by d is kept when a random uint64 falls below it. Drops of
// len(acceptOdds) or more (odds below 1 in 10^7) are never kept.
var acceptOdds = sync.OnceValue(func() *[16 * setupWeightScale]uint64 {
	var t [16 * setupWeightScale]uint64
	for d := range t {
		t[d] = uint64(math.Ldexp(math.Exp(-float64(d)/setupWeightScale), 64) * (1 - 1e-12))
	}
	return &t
})

// setupChain is the state of the generator's Markov chain: ranks on cells,
// the cells holding pieces that may move (in any order) and each row's count.
type setupChain struct {
	w     *setupWeights
	odds  *[16 * setupWeightScale]uint64
	cell  [setupCells]Rank
	piece [setupCells]int8 // cells holding a piece that may move: piece[:pieces]
	index [setupCells]int8 // index[c] is c's place in piece, for such a cell
	fill  [SetupRows]int8
	// pieces is how many pieces the chain moves about.
	pieces int
	// pin is the Flag's cell, which the chain never changes; -1 for none.
	pin int
	// looseFlags is set when Flags other than the pinned one move about.
	looseFlags bool
}

// newSetupChain puts the first Flag of ranks on cell flag (when flag >= 0)
// and shuffles the other ranks onto the rest of the zone. ranks has at most
// setupCells pieces.
func newSetupChain(w *setupWeights, ranks []Rank, flag int, rng *rand.Rand) *setupChain {
	ch := &setupChain{w: w, odds: acceptOdds(), pin: -1}
	if !slices.Contains(ranks, Flag) {
		flag = -1
	}
	perm := rng.Perm(setupCells)
	next := 0
	for _, r := range ranks {
		if r == Flag && flag >= 0 && ch.pin < 0 {
			ch.pin = flag
			ch.cell[flag] = Flag
			ch.fill[flag/10]++
			continue
		}
		if r == Flag {
			ch.looseFlags = true
		}
		c := perm[next]
		next++
		if c == flag {
			c = perm[len(ranks)-1] // the cell left over by the pinned Flag
		}
		ch.cell[c] = r
		ch.index[c] = int8(ch.pieces)
		ch.piece[ch.pieces] = int8(c)
		ch.pieces++
		ch.fill[c/10]++
	}
	return ch
}

// run makes steps swap proposals: a random piece that may move and a random
// other cell, not the pinned Flag's.
func (ch *setupChain) run(steps int, rng *rand.Rand) {
	if ch.pieces == 0 {
		return
	}
	others := setupCells - 1
	if ch.pin >= 0 {
		others--
	}
	for range steps {
		a := int(ch.piece[rng.IntN(ch.pieces)])
		b := rng.IntN(others)
		if ch.pin >= 0 {
			lo, hi := min(a, ch.pin), max(a, ch.pin)
			if b >= lo {
				b++
			}
			if b >= hi {
				b++
			}
		} else if b >= a {
			b++
		}
		if ch.cell[a] == ch.cell[b] {
			continue
		}
		guards, fills := ch.swapKinds(a, b, ch.cell[a], ch.cell[b])
		before := ch.localScore(a, b, guards, fills)
		ch.swap(a, b)
		drop := before - ch.localScore(a, b, guards, fills)
		if drop <= 0 {
			continue
		}
		if drop >= int32(len(ch.odds)) || rng.Uint64() >= ch.odds[drop] {
			ch.swap(a, b)
		}
	}
}

// swap exchanges what cells a and b hold.
func (ch *setupChain) swap(a, b int) {
	ra, rb := ch.cell[a], ch.cell[b]
	ch.cell[a], ch.cell[b] = rb, ra
	switch {
	case ra != NoRank && rb != NoRank:
		ch.index[a], ch.index[b] = ch.index[b], ch.index[a]
		ch.piece[ch.index[a]], ch.piece[ch.index[b]] = int8(a), int8(b)
	case ra != NoRank: // the piece moves from a to the empty b
		ch.index[b] = ch.index[a]
		ch.piece[ch.index[b]] = int8(b)
		ch.fill[a/10]--
		ch.fill[b/10]++
	default: // the piece moves from b to the empty a
		ch.index[a] = ch.index[b]
		ch.piece[ch.index[a]] = int8(a)
		ch.fill[b/10]--
		ch.fill[a/10]++
	}
}

// swapKinds tells which parts of the score a swap of a (holding x) and b
// (holding y) may change besides the ranks and pairs: the Flags' guards when
// it changes a square next to the pinned Flag, or with other Flags about,
// when it moves a Flag, a Bomb or a piece to an empty square; the rows'
// counts when it moves a piece to an empty square on another row.
func (ch *setupChain) swapKinds(a, b int, x, y Rank) (guards, fills bool) {
	empty := x == NoRank || y == NoRank
	if ch.looseFlags {
		guards = empty || x == Flag || x == Bomb || y == Flag || y == Bomb
	} else {
		guards = ch.pin >= 0 && (setupAdjacent(a, ch.pin) || setupAdjacent(b, ch.pin))
	}
	return guards, empty && a/10 != b/10
}

// localScore is the part of the score that a swap of a and b can change:
// the ranks on a and b, the pairs they are in, the Flag across the row from
// them, and as swapKinds says, the Flags on or next to them (guards) and the
// counts of their rows (fills).
func (ch *setupChain) localScore(a, b int, guards, fills bool) int32 {
	w, cell := ch.w, &ch.cell
	s := int32(w[wRank+a*NumRanks+int(cell[a])]) + int32(w[wRank+b*NumRanks+int(cell[b])])
	la, lb := &setupLinks[a], &setupLinks[b]
	for _, l := range la.links[:la.n] {
		s += int32(w[int(l.base)+int(cell[l.first])*NumRanks+int(cell[l.second])])
	}
	for _, l := range lb.links[:lb.n] {
		if int(l.first) != a && int(l.second) != a { // the pair a-b is counted once, from a
			s += int32(w[int(l.base)+int(cell[l.first])*NumRanks+int(cell[l.second])])
		}
	}
	if guards {
		s += ch.flagGuard(a)
		for _, n := range setupNeighbours[a].cells[:setupNeighbours[a].n] {
			s += ch.flagGuard(int(n))
		}
		// b and the cells next to it that are not a or next to a: the rest are counted above.
		if !setupAdjacent(a, b) {
			s += ch.flagGuard(b)
		}
		for _, n := range setupNeighbours[b].cells[:setupNeighbours[b].n] {
			if int(n) != a && !setupAdjacent(a, int(n)) {
				s += ch.flagGuard(int(n))
			}
		}
	}
	ma, mb := setupMirrorCell(a), setupMirrorCell(b)
	s += ch.flagMirror(a) + ch.flagMirror(b)
	if ma != b { // else ma and mb are b and a
		s += ch.flagMirror(ma) + ch.flagMirror(mb)
	}
	if fills {
		ra, rb := a/10, b/10
		s += int32(w[wRowFill+ra*11+int(ch.fill[ra])]) + int32(w[wRowFill+rb*11+int(ch.fill[rb])])
	}
	return s
}

// setupAdjacent reports whether cells a and b are side by side or one behind the other.
func setupAdjacent(a, b int) bool {
	ra, ca, rb, cb := a/10, a%10, b/10, b%10
	return (ra == rb && (ca-cb == 1 || cb-ca == 1)) || (ca == cb && (ra-rb == 1 || rb-ra == 1))
}

// setupLink is a pair of neighbouring cells and where their weights start:
// the weight of ranks x on first and y on second is base + x*NumRanks + y.
// first is the left or front cell of the pair.
type setupLink struct {
	base          int16
	first, second int8
}

// setupLinks lists, for each cell, the pairs it is in.
var setupLinks = func() (t [setupCells]struct {
	links [4]setupLink
	n     int8
}) {
	for c := range setupCells {
		nb := &setupNeighbours[c]
		for _, n := range nb.cells[:nb.n] {
			p, q := min(c, int(n)), max(c, int(n))
			l := setupLink{first: int8(p), second: int8(q)}
			if q == p+1 { // side by side: the cells of a row are consecutive
				l.base = int16(wBeside + p/10*NumRanks*NumRanks)
			} else { // q is behind p
				l.base = int16(wBehind + p/10*NumRanks*NumRanks)
			}
			t[c].links[t[c].n] = l
			t[c].n++
		}
	}
	return t
}()

// setupMirrorCell is the cell on the other side of c's row.
func setupMirrorCell(c int) int { return c/10*10 + 9 - c%10 }

// flagMirror is the weight of what stands across the row from the Flag on c, or 0 when c holds no Flag.
func (ch *setupChain) flagMirror(c int) int32 {
	if ch.cell[c] != Flag {
		return 0
	}
	return int32(ch.w[wFlagMirror+int(ch.cell[setupMirrorCell(c)])])
}

// flagGuard is the weight of the Bombs and pieces around the Flag on c, or 0 when c holds no Flag.
func (ch *setupChain) flagGuard(c int) int32 {
	if ch.cell[c] != Flag {
		return 0
	}
	nb := &setupNeighbours[c]
	bombs, taken := 0, 0
	for _, n := range nb.cells[:nb.n] {
		switch ch.cell[n] {
		case NoRank:
		case Bomb:
			bombs++
			taken++
		default:
			taken++
		}
	}
	return int32(ch.w[flagGuardWeight(int(nb.n), bombs, taken)])
}

// flagGuardWeight is the index of the weight of a Flag with around squares
// next to it, bombs of them Bombs and taken of them holding a piece.
func flagGuardWeight(around, bombs, taken int) int {
	return wFlagGuard + (around*5+bombs)*5 + taken
}

// setup returns the chain's set-up.
func (ch *setupChain) setup() Setup {
	var s Setup
	for c, r := range ch.cell {
		s[c/10][c%10] = r
	}
	return s
}

// setupModel is one learned model and the ranks it knows: an army's rank
// that the model's data never had is placed as its stand-in, and the ranks
// sharing a stand-in then share its squares at random.
type setupModel struct {
	weights *setupWeights
	// flags are the real set-ups whose Flag squares the Flag's square is drawn from.
	flags Variant
	// standIn[r] is the rank whose weights r uses.
	standIn [NumRanks]Rank
}

// flagSquares counts, for each cell, the real set-ups with the Flag there or
// on its mirror image, plus one so that no square is ruled out but those
// open to a Scout at once, plus a share of spread.
type flagSquares [setupCells]int

// barrageFlagSpread is the share of the Barrage Flag's odds spread evenly
// over the squares it may stand on, on top of people's own. With people's
// odds alone an attacker who ran the generator 60,000 times named the Flag
// of a generated Barrage set-up from its taken squares in 49.0% of set-ups,
// against 46.7% of people's set-ups it had not seen; with 8% spread, 45.4%.
// The Flag then stands on the back row in 62% of generated set-ups, against
// 63% of people's (65% before). See setupsecret_test.go.
const barrageFlagSpread = 0.08

// flagSquaresOf counts the Flag squares of setups, with a share spread of
// the odds spread evenly over the squares the Flag may stand on.
func flagSquaresOf(setups []Setup, spread float64) *flagSquares {
	var f flagSquares
	for c := range f {
		f[c] = 1
	}
	for i := range setups {
		for c := range setupCells {
			if setups[i][c/10][c%10] == Flag {
				f[c]++
				f[setupMirrorCell(c)]++
			}
		}
	}
	// The front row's squares with no lake in front are left out: nothing
	// can cover a Flag there from the enemy Scouts' first move. Real players
	// put it there in 4% of Barrage set-ups (172 of 3,944) and 0.5% of
	// Classic ones. Deeper in the zone the Flag is left open to a Scout down
	// an empty column as often as real players leave it (13% in Barrage):
	// always covering it would tell an opponent which pieces are not the
	// Flag (measured: an attacker then named it in 51% of Barrage set-ups,
	// against 47% of real ones).
	for col := range 10 {
		if !SquareAt(col, SetupRows).IsLake() {
			f[col] = 0
		}
	}
	if spread > 0 {
		total, open := 0, 0
		for _, n := range f {
			if n > 0 {
				total += n
				open++
			}
		}
		add := int(spread * float64(total) / float64(open))
		for c, n := range f {
			if n > 0 {
				f[c] = n + add
			}
		}
	}
	return &f
}

// draw picks a cell with odds in proportion to its count.
func (f *flagSquares) draw(rng *rand.Rand) int {
	total := 0
	for _, n := range f {
		total += n
	}
	k := rng.IntN(total)
	for c, n := range f {
		if k -= n; k < 0 {
			return c
		}
	}
	return setupCells - 1
}

// setupStepsPerPiece is how many swaps the chain makes per piece. The
// weights are fitted to this exact chain, so its statistics match the real
// ones although it stops before settling; a change needs a new fit. At 60
// the figures of setupsecret_test.go's report were within a point or two of
// these, at three times the cost.
const setupStepsPerPiece = 20

// The two models: one learned from real Classic set-ups, for armies that fill
// most of the zone, and one from real Barrage set-ups, for small armies.
var (
	classicModel = setupModel{weights: &classicSetupWeights, flags: VariantClassic, standIn: standIns(map[Rank]Rank{
		Infiltrator: Scout, // moves like a Scout; it is then put on a front Scout's square
	})}
	barrageModel = setupModel{weights: &barrageSetupWeights, flags: VariantBarrage, standIn: standIns(map[Rank]Rank{
		// Barrage has no middle ranks: strong ones stand where the General
		// does, weak ones and the Infiltrator where the Scouts do.
		Colonel: General, Major: General,
		Captain: Scout, Lieutenant: Scout, Sergeant: Scout, Infiltrator: Scout,
	})}
)

func standIns(m map[Rank]Rank) (t [NumRanks]Rank) {
	for r := range t {
		t[r] = Rank(r)
	}
	for r, s := range m {
		t[r] = s
	}
	return t
}

// smallArmy is the largest army placed by the Barrage model: up to half the
// zone an army is a few pieces with room around them, as in Barrage.
const smallArmy = 20

// modelFor chooses the model for an army of n pieces.
func modelFor(n int) *setupModel {
	if n <= smallArmy {
		return &barrageModel
	}
	return &classicModel
}

// setupPlaceOrder lists the ranks in the order they claim the zone when an
// invalid army has more pieces than squares: the Flag first.
var setupPlaceOrder = [...]Rank{Flag, Bomb, Marshal, General, Spy, Miner, Infiltrator, Scout, Colonel, Major, Captain, Lieutenant, Sergeant}

// armyPieces lists the army's pieces, at most setupCells of them, the ones
// of setupPlaceOrder first.
func armyPieces(army Army) []Rank {
	out := make([]Rank, 0, setupCells)
	for _, r := range setupPlaceOrder {
		for range int(army[r]) {
			if len(out) == setupCells {
				return out
			}
			out = append(out, r)
		}
	}
	return out
}

// generateSetup draws a set-up of army: the Flag's square from the real
// Flag squares, the rest by the model's chain on the army's stand-ins, drawn
// again (with the same Flag square, which keeps the Flag's odds exact) while
// it is a listed real set-up; then the ranks sharing a stand-in share its
// squares, and a piece is moved if none could step at move 0.
func generateSetup(army Army, rng *rand.Rand) Setup {
	return generateSetupAvoiding(army, rng, loadRealSetups().known)
}

// generateSetupAvoiding is generateSetup with the set-ups it must not make.
// It draws until it makes another one, which takes more than one draw only
// for an army of a listed set-up (Classic's, Barrage's, or one with the same
// stand-ins), and then rarely: their set-ups are too many for any list.
func generateSetupAvoiding(army Army, rng *rand.Rand, listed map[Setup]bool) Setup {
	m := modelFor(len(armyPieces(army)))
	return drawSetup(army, rng, listed, m, loadRealSetups().flagSquares(m.flags))
}

// drawSetup is generateSetupAvoiding with the model and the Flag squares given.
func drawSetup(army Army, rng *rand.Rand, listed map[Setup]bool, m *setupModel, flags *flagSquares) Setup {
	pieces := armyPieces(army)
	placed := make([]Rank, len(pieces))
	for i, r := range pieces {
		placed[i] = m.standIn[r]
	}
	flag := flags.draw(rng)
	var s Setup
	for {
		ch := newSetupChain(m.weights, placed, flag, rng)
		ch.run(setupStepsPerPiece*len(placed), rng)
		if s = ch.setup(); !listed[s] {
			break
		}
	}
	s = shareStandIns(s, pieces, m, rng)
	letPieceStep(&s, rng)
	return s
}

// shareStandIns gives each rank that used a stand-in its share of the
// stand-in's squares, at random, except that an Infiltrator takes a square in
// the front two rows when its group has one: it works in the enemy's zone.
func shareStandIns(s Setup, pieces []Rank, m *setupModel, rng *rand.Rand) Setup {
	var groups [NumRanks][]Rank // by stand-in, the ranks to hand out
	for _, r := range pieces {
		groups[m.standIn[r]] = append(groups[m.standIn[r]], r)
	}
	for si, ranks := range groups {
		if len(ranks) == 0 || allRank(ranks, Rank(si)) {
			continue
		}
		var front, back []setupCell
		for row := range s {
			for col, r := range s[row] {
				if r != Rank(si) {
					continue
				}
				if row < 2 {
					front = append(front, setupCell{row, col})
				} else {
					back = append(back, setupCell{row, col})
				}
			}
		}
		rng.Shuffle(len(front), func(i, j int) { front[i], front[j] = front[j], front[i] })
		rng.Shuffle(len(back), func(i, j int) { back[i], back[j] = back[j], back[i] })
		cells := append(front, back...)
		// Infiltrators take the first cells (front rows first), the rest in random order.
		rest := cells
		for _, r := range ranks {
			if r == Infiltrator {
				s[rest[0].row][rest[0].col] = Infiltrator
				rest = rest[1:]
			}
		}
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		for _, r := range ranks {
			if r != Infiltrator {
				s[rest[0].row][rest[0].col] = r
				rest = rest[1:]
			}
		}
	}
	return s
}

func allRank(ranks []Rank, r Rank) bool {
	for _, k := range ranks {
		if k != r {
			return false
		}
	}
	return true
}

// setupCell is a square of a Setup: row (0 = front) and column (0 = the player's left).
type setupCell struct{ row, col int }

// canStepAtStart reports whether the piece on cell c of s could move at move
// 0: it is movable and has an empty square next to it, in the zone or, on the
// front row, in front of it outside the lakes.
func canStepAtStart(s *Setup, c setupCell) bool {
	if !s[c.row][c.col].Movable() {
		return false
	}
	// Red's front row is board row 3; the square in front of it is on row 4.
	if c.row == 0 && !SquareAt(c.col, SetupRows).IsLake() {
		return true
	}
	nb := &setupNeighbours[c.row*10+c.col]
	for _, n := range nb.cells[:nb.n] {
		if s[n/10][n%10] == NoRank {
			return true
		}
	}
	return false
}

// letPieceStep makes sure some piece of s can step at move 0, which decides
// whether the side can play at all (see Game.canStep): when none can and the
// army has a movable piece, it swaps a random movable piece with a random
// piece or empty square that has room to step. An army of Bombs and a Flag
// cannot be helped.
func letPieceStep(s *Setup, rng *rand.Rand) {
	var movable, open []setupCell
	for row := range s {
		for col, r := range s[row] {
			c := setupCell{row, col}
			if canStepAtStart(s, c) {
				return
			}
			if r.Movable() {
				movable = append(movable, c)
			}
		}
	}
	if len(movable) == 0 {
		return
	}
	// A cell is open when a movable piece there could step.
	for row := range s {
		for col := range s[row] {
			c := setupCell{row, col}
			t := *s
			t[row][col] = Spy
			if s[row][col] != Flag && canStepAtStart(&t, c) { // the Flag stays where it was drawn
				open = append(open, c)
			}
		}
	}
	from, to := movable[rng.IntN(len(movable))], open[rng.IntN(len(open))]
	s[from.row][from.col], s[to.row][to.col] = s[to.row][to.col], s[from.row][from.col]
}

// SetupOdds is, for each square of a set-up (row 0 the front row, column 0
// the owner's left) and each rank, a share: how often the rank stands there.
// The shares of a square sum to 1, NoRank's being an empty square's.
type SetupOdds [SetupRows][10][NumRanks]float64

// oddsChains and oddsSnapshots shape RandomSetupOdds: chains run as the
// generator's, each looked at oddsSnapshots times over its last swaps, one
// swap per piece apart.
const oddsChains, oddsSnapshots = 128, 4

// RandomSetupOdds estimates where RandomSetup puts each rank for rules: what
// an opponent who knows the generator expects of a random set-up. The
// Flag's odds are exact (the real Flag squares it is drawn from); the others
// follow the generator's chain, looked at a few times near its end, so it
// costs about what 128 set-ups do. It gives the same answer every time.
func RandomSetupOdds(rules Rules) *SetupOdds {
	pieces := armyPieces(rules.Army)
	m := modelFor(len(pieces))
	placed := make([]Rank, len(pieces))
	var group [NumRanks][NumRanks]float64 // group[standIn][rank]: pieces of rank placed as standIn
	for i, r := range pieces {
		placed[i] = m.standIn[r]
		group[placed[i]][r]++
	}
	group[NoRank][NoRank] = 1
	flags := loadRealSetups().flagSquares(m.flags)
	rng := rand.New(rand.NewPCG(0x0dd5, setupStream))
	var count [setupCells][NumRanks]float64 // by stand-in
	n := len(placed)
	const samples = 2 * oddsChains * oddsSnapshots // with the mirror images
	for range oddsChains {
		ch := newSetupChain(m.weights, placed, flags.draw(rng), rng)
		ch.run(setupStepsPerPiece*n-(oddsSnapshots-1)*n, rng)
		for i := range oddsSnapshots {
			if i > 0 {
				ch.run(n, rng)
			}
			for c, r := range ch.cell {
				count[c][r] += 1.0 / samples
				count[setupMirrorCell(c)][r] += 1.0 / samples
			}
		}
	}
	if rules.Army[Flag] > 0 {
		// The exact Flag odds in place of the sampled ones.
		total := 0
		for _, k := range flags {
			total += k
		}
		for c := range count {
			exact := float64(flags[c]) / float64(total)
			if others := 1 - count[c][Flag]; others > 0 {
				for r := range count[c] {
					count[c][r] *= (1 - exact) / others
				}
			}
			count[c][Flag] = exact
		}
	}
	odds := &SetupOdds{}
	for si := range group {
		sharePiecesOfGroup(odds, &count, Rank(si), &group[si])
	}
	return odds
}

// sharePiecesOfGroup splits the odds of stand-in si on each square among
// the ranks placed as si, in proportion to their numbers, except that
// Infiltrators take the front two rows' first, as shareStandIns puts them.
func sharePiecesOfGroup(odds *SetupOdds, count *[setupCells][NumRanks]float64, si Rank, group *[NumRanks]float64) {
	size := 0.0
	for _, k := range group {
		size += k
	}
	if size == 0 {
		return
	}
	infiltrators := group[Infiltrator]
	rest := size - infiltrators
	front := 0.0 // stand-ins expected in the front two rows
	for c := range 2 * 10 {
		front += count[c][si]
	}
	back := size - front
	inFront := min(infiltrators, front)
	for c := range setupCells {
		x := count[c][si]
		if x == 0 {
			continue
		}
		// The share of this square's stand-in that is an Infiltrator.
		part := 0.0
		switch {
		case rest == 0:
			part = 1
		case c < 20 && front > 0:
			part = inFront / front
		case c >= 20 && back > 0:
			part = (infiltrators - inFront) / back
		}
		odds[c/10][c%10][Infiltrator] += x * part
		if rest == 0 {
			continue
		}
		for r, k := range group {
			if Rank(r) != Infiltrator {
				odds[c/10][c%10][r] += x * (1 - part) * k / rest
			}
		}
	}
}
