package game

import (
	_ "embed"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// The set-ups of real Gravon players, from the Ataraxos research environment
// (MIT licence): see setups/README.md for the source and how they were sampled.
var (
	//go:embed setups/classic.dat
	classicSetupData string
	//go:embed setups/barrage.dat
	barrageSetupData string
)

// ataraxosRanks maps the letters of the set-up files to ranks; 'A' is an empty square.
var ataraxosRanks = map[byte]Rank{
	'A': NoRank, 'B': Bomb, 'C': Spy, 'D': Scout, 'E': Miner, 'F': Sergeant, 'G': Lieutenant,
	'H': Captain, 'I': Major, 'J': Colonel, 'K': General, 'L': Marshal, 'M': Flag,
}

// realSetups holds the embedded set-ups, decoded once on first use. It is never
// changed afterwards; RealSetups hands out copies.
type realSetups struct {
	classic, barrage []Setup
	// skipped counts lines that were not a valid set-up; the shipped files have none.
	skippedClassic, skippedBarrage int
}

var loadRealSetups = sync.OnceValue(func() *realSetups {
	rs := &realSetups{}
	rs.classic, rs.skippedClassic = decodeSetups(classicSetupData, DefaultRules(VariantClassic))
	rs.barrage, rs.skippedBarrage = decodeSetups(barrageSetupData, DefaultRules(VariantBarrage))
	return rs
})

// decodeSetups reads one set-up a line (40 letters, front row first, each row
// from the player's left), skipping comments and returning how many lines were
// not valid for rules.
func decodeSetups(data string, rules Rules) (setups []Setup, skipped int) {
	for line := range strings.Lines(data) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		s, ok := decodeSetupLine(line)
		if !ok || s.Validate(rules) != nil {
			skipped++
			continue
		}
		setups = append(setups, s)
	}
	return setups, skipped
}

func decodeSetupLine(line string) (Setup, bool) {
	var s Setup
	if len(line) != SetupRows*10 {
		return s, false
	}
	for i := range len(line) {
		r, ok := ataraxosRanks[line[i]]
		if !ok {
			return s, false
		}
		s[i/10][i%10] = r
	}
	return s, true
}

// RealSetups returns set-ups that real players chose on Gravon: a sample of
// 2,029 Classic set-ups for VariantClassic and 3,944 Barrage set-ups for
// VariantBarrage, as they were played (not mirrored; a set-up that many players
// used appears more than once). Other variants have none: nil. The slice is a
// fresh copy the caller may change.
func RealSetups(v Variant) []Setup {
	rs := loadRealSetups()
	switch v {
	case VariantClassic:
		return append([]Setup(nil), rs.classic...)
	case VariantBarrage:
		return append([]Setup(nil), rs.barrage...)
	}
	return nil
}

// setupStream is the PCG stream of RandomSetup, so that its numbers differ from
// other users of the same seed.
const setupStream = 0x5e7ab5e7ab5e7ab5

// RandomSetup returns a set-up for rules that a person could have made, the
// same one for the same seed. When the army is Classic's or Barrage's it is a
// real player's set-up, mirrored at random; for Infiltrator's army it is a real
// Classic set-up with one Scout, near the front when possible, turned into the
// Infiltrator. Any other army (Duel, Custom) is placed by rules of thumb that
// players use: the Flag on the back row with Bombs beside or in front of it,
// Miners at the back, Scouts and low ranks at the front, Marshal and General in
// the front two rows in different columns, the Spy next to the General, and a
// small army kept together rather than spread over all 40 squares.
//
// The set-up is valid whenever rules passes Rules.Validate. For rules that do
// not, it places what fits and never panics.
func RandomSetup(rules Rules, seed uint64) Setup {
	rng := rand.New(rand.NewPCG(seed, setupStream))
	rs := loadRealSetups()
	// Choose by army, not variant, so that a Custom army equal to a standard
	// one also gets a real player's set-up.
	switch rules.Army {
	case classicArmy:
		if len(rs.classic) > 0 {
			return pickRealSetup(rs.classic, rng)
		}
	case barrageArmy:
		if len(rs.barrage) > 0 {
			return pickRealSetup(rs.barrage, rng)
		}
	case infiltratorArmy:
		if len(rs.classic) > 0 {
			return withInfiltrator(pickRealSetup(rs.classic, rng), rng)
		}
	}
	return generateSetup(rules.Army, rng)
}

// pickRealSetup draws one of setups and mirrors it half of the time.
func pickRealSetup(setups []Setup, rng *rand.Rand) Setup {
	s := setups[rng.IntN(len(setups))]
	if rng.IntN(2) == 1 {
		s = s.Mirror()
	}
	return s
}

// withInfiltrator turns one Scout of s into the Infiltrator, preferring a
// Scout in the front two rows: the Infiltrator works in the enemy's zone, so a
// player puts it where it gets there soon.
func withInfiltrator(s Setup, rng *rand.Rand) Setup {
	var front, back [][2]int
	for row := range s {
		for col, r := range s[row] {
			if r != Scout {
				continue
			}
			if row < 2 {
				front = append(front, [2]int{row, col})
			} else {
				back = append(back, [2]int{row, col})
			}
		}
	}
	pool := front
	if len(pool) == 0 {
		pool = back
	}
	if len(pool) > 0 {
		at := pool[rng.IntN(len(pool))]
		s[at[0]][at[1]] = Infiltrator
	}
	return s
}

// rowWeights says, front row first, how much each rank likes each row of the
// set-up: the rules of thumb of RandomSetup. Zero means "only if nothing else is free".
var rowWeights = [NumRanks][SetupRows]int{
	Marshal:     {3, 2, 0, 0},
	General:     {3, 2, 0, 0},
	Colonel:     {2, 3, 2, 1},
	Major:       {2, 3, 2, 1},
	Captain:     {2, 2, 2, 1},
	Lieutenant:  {3, 2, 2, 1},
	Sergeant:    {3, 2, 2, 1},
	Miner:       {1, 2, 6, 6},
	Scout:       {4, 2, 1, 1},
	Spy:         {1, 3, 2, 0},
	Infiltrator: {4, 2, 1, 0},
	Bomb:        {1, 1, 3, 3},
	Flag:        {0, 0, 0, 1},
}

// placeOrder is the order the generator places ranks in: the most particular
// first, so that they still find the squares they want.
var placeOrder = [...]Rank{Flag, Bomb, Marshal, General, Spy, Miner, Infiltrator, Scout, Colonel, Major, Captain, Lieutenant, Sergeant}

// setupCell is a square of a Setup: row (0 = front) and column (0 = the player's left).
type setupCell struct{ row, col int }

// generator places one army on an empty Setup.
type generator struct {
	s   Setup
	rng *rand.Rand
	// left and width are the columns the army is kept in.
	left, width int
	free        int // empty squares left in the zone
}

// generateSetup places army by the rules of thumb of RandomSetup. Pieces that
// do not fit in the 40 squares of an invalid army are left out.
func generateSetup(army Army, rng *rand.Rand) Setup {
	g := &generator{rng: rng, free: SetupRows * 10}
	// Keep a small army together: about two squares per piece, at least three columns.
	n := army.Total() - int(army[NoRank])
	g.width = min(10, max(3, (2*n+SetupRows-1)/SetupRows))
	g.left = rng.IntN(10 - g.width + 1)

	for _, r := range placeOrder {
		count := int(army[r])
		if r == Bomb {
			count = g.bombFlag(count)
		}
		weight := func(c setupCell) int { return rowWeights[r][c.row] }
		switch r {
		case General:
			// Not in the Marshal's column: players spread their two strongest
			// pieces so that they guard different lanes.
			weight = func(c setupCell) int {
				if g.columnHas(c.col, Marshal) {
					return 0
				}
				return rowWeights[General][c.row]
			}
		case Spy:
			// Next to the General: when the enemy Marshal takes the General,
			// the Spy is there to take the Marshal.
			weight = func(c setupCell) int {
				if g.nextTo(c, General) {
					return 1000
				}
				return rowWeights[Spy][c.row]
			}
		}
		for range count {
			g.put(r, weight)
		}
	}
	return g.s
}

// bombFlag puts Bombs on the free squares beside and in front of each Flag,
// in random order, and returns how many Bombs are left to place.
func (g *generator) bombFlag(bombs int) int {
	for row := range g.s {
		for col := range g.s[row] {
			if g.s[row][col] != Flag {
				continue
			}
			around := g.freeNeighbours(setupCell{row, col})
			// Keep to the army's columns, as the square in front of a Flag there is.
			if in := slices.DeleteFunc(slices.Clone(around), func(c setupCell) bool { return !g.inBand(c) }); len(in) > 0 {
				around = in
			}
			g.rng.Shuffle(len(around), func(i, j int) { around[i], around[j] = around[j], around[i] })
			// Humans often leave one side open rather than use every Bomb on the Flag.
			use := min(bombs, len(around))
			if use == len(around) && use > 1 && bombs < 2*len(around) && g.rng.IntN(3) == 0 {
				use--
			}
			for _, c := range around[:use] {
				g.set(c, Bomb)
				bombs--
			}
		}
	}
	return bombs
}

// put places one piece of rank r on a free square chosen by pick; when the
// zone is full (only for an invalid army) r is left out.
func (g *generator) put(r Rank, weight func(setupCell) int) {
	if c, ok := g.pick(weight); ok {
		g.set(c, r)
	}
}

// set puts r on the empty square c.
func (g *generator) set(c setupCell, r Rank) {
	g.s[c.row][c.col] = r
	g.free--
}

// pick chooses a free square at random with the given weights, first among the
// army's columns and then anywhere; when every free square weighs 0 it falls
// back to weight 1 for all, so a piece always finds a square while one is free.
func (g *generator) pick(weight func(setupCell) int) (setupCell, bool) {
	if g.free == 0 {
		return setupCell{}, false
	}
	anywhere := func(setupCell) bool { return true }
	one := func(setupCell) int { return 1 }
	for _, try := range []struct {
		where  func(setupCell) bool
		weight func(setupCell) int
	}{{g.inBand, weight}, {anywhere, weight}, {g.inBand, one}, {anywhere, one}} {
		if c, ok := g.pickFrom(try.where, try.weight); ok {
			return c, true
		}
	}
	return setupCell{}, false
}

// pickFrom draws a free square where where holds, with probability
// proportional to weight; false when all such squares weigh 0.
func (g *generator) pickFrom(where func(setupCell) bool, weight func(setupCell) int) (setupCell, bool) {
	total := 0
	g.eachFree(where, func(c setupCell) { total += max(0, weight(c)) })
	if total == 0 {
		return setupCell{}, false
	}
	k := g.rng.IntN(total)
	var chosen setupCell
	found := false
	g.eachFree(where, func(c setupCell) {
		if found {
			return
		}
		if k -= max(0, weight(c)); k < 0 {
			chosen, found = c, true
		}
	})
	return chosen, found
}

// eachFree calls f for every empty square where where holds, front row first, left to right.
func (g *generator) eachFree(where func(setupCell) bool, f func(setupCell)) {
	for row := range g.s {
		for col, r := range g.s[row] {
			if c := (setupCell{row, col}); r == NoRank && where(c) {
				f(c)
			}
		}
	}
}

// inBand reports whether c is in the columns the army is kept in.
func (g *generator) inBand(c setupCell) bool { return c.col >= g.left && c.col < g.left+g.width }

// freeNeighbours lists the empty squares beside and in front of c (not behind:
// the Flag is on the back row, and a Bomb behind would stand beyond the zone).
func (g *generator) freeNeighbours(c setupCell) []setupCell {
	var out []setupCell
	for _, d := range [...]setupCell{{0, -1}, {0, 1}, {-1, 0}} {
		n := setupCell{c.row + d.row, c.col + d.col}
		if n.row >= 0 && n.row < SetupRows && n.col >= 0 && n.col < 10 && g.s[n.row][n.col] == NoRank {
			out = append(out, n)
		}
	}
	return out
}

// columnHas reports whether a piece of rank r stands in column col.
func (g *generator) columnHas(col int, r Rank) bool {
	for row := range g.s {
		if g.s[row][col] == r {
			return true
		}
	}
	return false
}

// nextTo reports whether c is beside, in front of or behind a piece of rank r.
func (g *generator) nextTo(c setupCell, r Rank) bool {
	for _, d := range [...]setupCell{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
		n := setupCell{c.row + d.row, c.col + d.col}
		if n.row >= 0 && n.row < SetupRows && n.col >= 0 && n.col < 10 && g.s[n.row][n.col] == r {
			return true
		}
	}
	return false
}
