package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/records"
)

const habitsUsage = `usage: strategolab habits [-variant V] RECORD...

Tells how the players of Gravon records (zip archives or XML files) use
their pieces: at plies 50, 100 and 200, for every side of a game that got
that far, the pieces it has moved that the other side has not seen fight,
its pieces that can move but never did, the attacks it has made, how often
the other side has seen its strongest piece, and how many of its Colonels,
Generals and Marshals it has seen. Then, by the rank its Marshal took, how
often a player's Marshal took a piece and stood beside hidden enemy pieces,
and how often the enemy's Spy took it on the next move: the Spy's answer to
a bait. Then, on the turns where one of a player's Captains or stronger
stood beside a hidden enemy piece, how often it attacked that piece, by
whether the piece had ever moved (one that never moved may be a Bomb).
Then, on the turns where a player's pieces stood beside the enemy's Flag
before it had seen it, how often a piece of each kind (Miner; Spy, Scout,
Sergeant or Lieutenant; Captain or stronger) took it, by the Flag's odds:
the chance hard's search gives such a piece of taking it (for a Captain or
stronger, a quarter of the odds). Then, at plies 50, 100 and 200, the
attacks a side has made so far on hidden enemy pieces that had moved, by
the attacker: a Scout; another piece below a Captain; a Captain or Major;
a Colonel or stronger. Then, on the turns where a piece of a player's that
the enemy had seen fight stood beside a hidden enemy piece that had moved,
how often it attacked that piece, by the seen piece's rank (below a Colonel,
or a Colonel and up), by whether the hidden piece beat it (a trap) or not
(prey), and by whether it had just come there or stood: a player that reads
the enemy's pieces attacks traps less often. Last, on the turns where a
player's Colonel, General or Marshal stood beside a hidden enemy piece that
had moved, how often it attacked that piece and won, by whether flight read
the piece as weaker: it had stood beside a piece of the player's shown in a
battle on its own side's turn without attacking it, or run from one, and
every rank it may still be below that one loses to the attacker (or
trades). Demon of Ignorance reads the enemy's pieces so. And at every
fifth ply, how like a person's the move of the side to move is: the mean
natural log of the chance the model of people's moves (game/ai/people.go,
fitted on the archive without its held-out months) gives it, beside that of
every legal move alike (Classic games only: the model is Classic's).
The players of an arena's records are told apart by name ("hard",
"ext:…"); every other player is one of the people, whose figures are the
yardstick for the computer's.

Flags:
`

// habitPlies are the plies at which habits counts.
var habitPlies = [...]int{50, 100, 200}

// habitTally sums, by ply of habitPlies, over the sides of the games that
// reached it.
type habitTally struct {
	sides   [len(habitPlies)]int
	unseen  [len(habitPlies)]int // moved pieces the other side has not seen fight
	still   [len(habitPlies)]int // pieces that can move and never did, not seen
	attacks [len(habitPlies)]int // attacks made so far
	topSeen [len(habitPlies)]int // sides whose strongest piece the other has seen
	bigSeen [len(habitPlies)]int // Colonels, Generals and Marshals the other has seen
}

func habitsFlags(variant *string, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("habits", habitsUsage, w)
	fs.StringVar(variant, "variant", "classic", "the variant of the records to read (others are skipped)")
	return fs
}

func runHabits(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var variantName string
	files, variant, exit, ok := parseRecordArgs(habitsFlags(&variantName, stdout), args, &variantName, "habits", habitsUsage, stderr)
	if !ok {
		return exit
	}
	recs, skipped, err := records.Read(files, variant)
	if err != nil {
		fmt.Fprintln(stderr, "strategolab habits:", err)
		return 1
	}
	tallies := map[string]*habitTally{}
	answers := map[string]*spyAnswers{}
	officers := map[string]*officerAttacks{}
	takers := map[string]*flagTakers{}
	movers := map[string]*moverAttacks{}
	readers := map[string]*offers{}
	flights := map[string]*flightReads{}
	likeness := map[string]*peopleLikeness{}
	var players []string // in the order first met
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			fmt.Fprintln(stderr, "strategolab habits:", err)
			return 1
		}
		var sides [2]*habitTally
		var spies [2]*spyAnswers
		var offs [2]*officerAttacks
		var takes [2]*flagTakers
		var movs [2]*moverAttacks
		var reads [2]*offers
		var flies [2]*flightReads
		var likes [2]*peopleLikeness
		for side, name := range r.Record.Players {
			p := habitPlayer(name)
			if tallies[p] == nil {
				tallies[p], answers[p], officers[p], takers[p], movers[p], readers[p] = new(habitTally), new(spyAnswers), new(officerAttacks), new(flagTakers), new(moverAttacks), new(offers)
				flights[p], likeness[p] = new(flightReads), new(peopleLikeness)
				players = append(players, p)
			}
			sides[side], spies[side], offs[side], takes[side], movs[side], reads[side] = tallies[p], answers[p], officers[p], takers[p], movers[p], readers[p]
			flies[side], likes[side] = flights[p], likeness[p]
		}
		if err := addHabits(r.Record, sides); err != nil {
			fmt.Fprintf(stderr, "strategolab habits: %s: %v\n", r.Name, err)
			return 1
		}
		if err := addTurns(r.Record, turnTallies{spies, offs, takes, movs, reads, flies, likes}); err != nil {
			fmt.Fprintf(stderr, "strategolab habits: %s: %v\n", r.Name, err)
			return 1
		}
	}
	reached := false
	for _, t := range tallies {
		reached = reached || t.sides[0] > 0
	}
	if !reached {
		fmt.Fprintf(stderr, "strategolab habits: no game of %d reached ply %d (skipped: %v)\n", len(recs), habitPlies[0], skipped)
		return 1
	}
	fmt.Fprintf(stdout, "%d %s games, a side:\n", len(recs), variant)
	for _, p := range players {
		t := tallies[p]
		fmt.Fprintf(stdout, "%s\n  %-5s %6s %22s %22s %15s %15s %21s\n", p, "ply", "sides", "moved, not seen fight", "can move, never moved",
			"attacks so far", "strongest seen", "Colonels and up seen")
		for i, ply := range habitPlies {
			n := t.sides[i]
			if n == 0 {
				continue
			}
			per := func(x int) float64 { return float64(x) / float64(n) }
			fmt.Fprintf(stdout, "  %-5d %6d %22.2f %22.2f %15.2f %14.1f%% %21.2f\n", ply, n, per(t.unseen[i]), per(t.still[i]),
				per(t.attacks[i]), 100*per(t.topSeen[i]), per(t.bigSeen[i]))
		}
	}
	writeSpyAnswers(stdout, players, answers)
	writeOfficerAttacks(stdout, players, officers)
	writeFlagTakers(stdout, players, takers)
	writeMoverAttacks(stdout, players, movers)
	writeReaders(stdout, players, readers)
	writeFlightReads(stdout, players, flights)
	writeLikeness(stdout, players, likeness)
	return 0
}

// officerAttacks counts the turns on which one of a player's Captains or
// stronger stood beside a hidden enemy piece (once for each such pair), by
// the officer (Captain to Major, or Colonel and up) and by whether the enemy
// piece had ever moved, and the turns on which the officer attacked it.
type officerAttacks struct {
	beside, attacked [2][2]int // [officer class][never moved, moved]
}

// countOfficers counts, into t, the turn of side (to make move m in view v)
// for each of its officers beside a hidden enemy piece.
func (t *officerAttacks) countOfficers(v game.View, side game.Side, m game.Move) {
	for sq, c := range v.Board {
		if !c.Occupied || c.Side != side || c.Rank < game.Captain || c.Rank > game.Marshal {
			continue
		}
		class := 0
		if c.Rank >= game.Colonel {
			class = 1
		}
		for _, n := range game.Square(sq).Neighbours() {
			if n == game.NoSquare {
				continue
			}
			e := v.Board[n]
			if !e.Occupied || e.Side == side || e.Rank != game.NoRank {
				continue
			}
			moved := 0
			if e.Moved {
				moved = 1
			}
			t.beside[class][moved]++
			if m.From == game.Square(sq) && m.To == n {
				t.attacked[class][moved]++
			}
		}
	}
}

// writeOfficerAttacks writes, for each player whose officers stood beside
// hidden enemy pieces, the share of those turns they attacked.
func writeOfficerAttacks(w io.Writer, players []string, tallies map[string]*officerAttacks) {
	header := false
	for _, p := range players {
		t := tallies[p]
		if t.beside == ([2][2]int{}) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "a Captain or stronger beside a hidden enemy piece on its side's turn, and the share of those turns it attacked it:")
			header = true
		}
		fmt.Fprintln(w, p)
		for class, name := range [2]string{"Captain to Major", "Colonel and up"} {
			fmt.Fprintf(w, "  %-17s never moved %7d turns, %s attacked; moved %7d turns, %s attacked\n", name,
				t.beside[class][0], sharePercent(t.attacked[class][0], t.beside[class][0]),
				t.beside[class][1], sharePercent(t.attacked[class][1], t.beside[class][1]))
		}
	}
}

// spyAnswers counts, by the rank a player's Marshal took, the captures that
// left it beside hidden enemy pieces, and those the enemy's Spy answered by
// taking it on the next move.
type spyAnswers struct {
	taken, answered [game.NumRanks]int
}

// turnTallies are the tallies addTurns counts into, each side's player's.
type turnTallies struct {
	spies    [2]*spyAnswers
	officers [2]*officerAttacks
	takers   [2]*flagTakers
	movers   [2]*moverAttacks
	readers  [2]*offers // what a side's known pieces did beside hidden movers
	flights  [2]*flightReads
	likeness [2]*peopleLikeness
}

// addTurns replays rec once and counts, into each side's player's tallies,
// its Marshal's captures and the Spy's answers, its officers' turns beside
// hidden enemy pieces, its pieces' turns beside the enemy's hidden Flag, its
// attacks on hidden pieces that moved and its known pieces' turns beside
// them, and at every fifth ply of a Classic game how like a person's its
// move was. It replays with the rules addHabits replays with
// (records.ReplayRules), without the repetition rules Gravon's players did
// not always play by; a record those rules still stop early is counted up
// to there.
func addTurns(rec *game.Record, tt turnTallies) error {
	spies, officers, takers, movers, readers, flights, likeness := tt.spies, tt.officers, tt.takers, tt.movers, tt.readers, tt.flights, tt.likeness
	g, err := game.NewGame(records.ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return nil
	}
	// A Flag never moves: each side's stands where it was set up.
	flags := [2]game.Square{game.NoSquare, game.NoSquare}
	for sq := range game.Square(game.NumSquares) {
		if s, r, ok := g.PieceAt(sq); ok && r == game.Flag {
			flags[s] = sq
		}
	}
	bait := game.NoRank // what the Marshal of the side that just moved took, beside hidden pieces
	var at game.Square
	var so moverCounts // each side's attacks on hidden moved pieces so far
	var bounds flightBounds
	var last game.MoveRecord // the move before, once there is one
	for i, m := range rec.Moves {
		side := g.ToMove()
		v := g.View(game.ViewerOf(side))
		if i > 0 {
			bounds.after(&v, last)
		}
		officers[side].countOfficers(v, side, m)
		if err := takers[side].count(g, &v, flags[side.Opponent()], m); err != nil {
			return fmt.Errorf("ply %d: %w", len(g.Moves())+1, err)
		}
		so.count(v, side, m, len(g.Moves()), movers)
		readers[side].count(g, &v, m)
		flights[side].count(g, &v, &bounds, m)
		if rec.Rules.Variant == game.VariantClassic && i%5 == 4 {
			if err := likeness[side].count(v, m); err != nil {
				return fmt.Errorf("ply %d: %w", i+1, err)
			}
		}
		r, err := g.Apply(m)
		if err != nil {
			return nil
		}
		last = r
		if bait != game.NoRank && m.To == at && r.Attacker == game.Spy && r.Outcome == game.AttackerWon {
			spies[side.Opponent()].answered[bait]++
		}
		bait = game.NoRank
		if r.Attacker != game.Marshal || r.Outcome != game.AttackerWon || !besideHidden(g.View(game.ViewerOf(side)), m.To, side) {
			continue
		}
		spies[side].taken[r.Defender]++
		bait, at = r.Defender, m.To
	}
	so.addTo(movers, len(g.Moves())) // a game that ends at one of habitPlies
	return nil
}

// The kinds of piece flagTakers tells apart, and their names.
const (
	takerMiner = iota
	takerLow   // Spy, Scout, Sergeant or Lieutenant: worth no more than a Miner
	takerHigh  // Captain or stronger
	numTakerKinds
)

var takerKindNames = [numTakerKinds]string{"Miner", "Spy to Lieutenant", "Captain and up"}

func takerKind(r game.Rank) int {
	switch {
	case r == game.Miner:
		return takerMiner
	case r >= game.Captain:
		return takerHigh
	}
	return takerLow
}

// flagOddsBands are the upper ends of the bands of the Flag's odds that
// flagTakers counts by; the last band is open.
var flagOddsBands = [...]float64{0.1, 0.2, 0.3, 1}

// flagTakers counts the turns on which a player had pieces beside the
// enemy's Flag while it had not seen it, once for each kind of piece beside
// it, by the Flag's odds (ai.FlagOdds, from the enemy's view), and the
// turns a piece of that kind took it.
type flagTakers struct {
	beside, took [numTakerKinds][len(flagOddsBands)]int
	odds         [numTakerKinds][len(flagOddsBands)]float64 // summed
}

// count counts the turn of the side to move in g, whose view is v, to make
// move m; flag is the square of the enemy's Flag (NoSquare: none).
func (t *flagTakers) count(g *game.Game, v *game.View, flag game.Square, m game.Move) error {
	side, enemy := g.ToMove(), g.ToMove().Opponent()
	if flag == game.NoSquare || v.Board[flag].Rank != game.NoRank {
		return nil
	}
	var kinds [numTakerKinds]bool
	for _, n := range flag.Neighbours() {
		if n == game.NoSquare {
			continue
		}
		if s, r, ok := g.PieceAt(n); ok && s == side && r.Movable() {
			kinds[takerKind(r)] = true
		}
	}
	if kinds == ([numTakerKinds]bool{}) {
		return nil
	}
	odds, _, err := ai.FlagOdds(g.View(game.ViewerOf(enemy)))
	if err != nil {
		return err
	}
	band := 0
	for odds >= flagOddsBands[band] && band < len(flagOddsBands)-1 {
		band++
	}
	_, mover, _ := g.PieceAt(m.From)
	for k, there := range kinds {
		if !there {
			continue
		}
		t.beside[k][band]++
		t.odds[k][band] += odds
		if m.To == flag && takerKind(mover) == k {
			t.took[k][band]++
		}
	}
	return nil
}

// writeFlagTakers writes, for each player whose pieces stood beside the
// enemy's hidden Flag, by kind of piece and band of the Flag's odds, the
// turns, the share of them a piece of that kind took the Flag, and the
// mean odds.
func writeFlagTakers(w io.Writer, players []string, tallies map[string]*flagTakers) {
	header := false
	for _, p := range players {
		t := tallies[p]
		if t.beside == ([numTakerKinds][len(flagOddsBands)]int{}) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "pieces beside the enemy's hidden Flag on their side's turn, by the Flag's odds: turns, the share a piece of the kind took it, and the mean odds:")
			fmt.Fprintf(w, "  %-17s", "")
			lo := 0.0
			for i, hi := range flagOddsBands {
				band := fmt.Sprintf("odds %.1f-%.1f", lo, hi)
				if i == len(flagOddsBands)-1 {
					band = fmt.Sprintf("odds %.1f and up", lo)
				}
				fmt.Fprintf(w, " %24s", band)
				lo = hi
			}
			fmt.Fprintln(w)
			header = true
		}
		fmt.Fprintln(w, p)
		for k, name := range takerKindNames {
			fmt.Fprintf(w, "  %-17s", name)
			for b := range flagOddsBands {
				if n := t.beside[k][b]; n > 0 {
					fmt.Fprintf(w, " %6d, %5.1f%% took, %.2f", n, 100*float64(t.took[k][b])/float64(n), t.odds[k][b]/float64(n))
				} else {
					fmt.Fprintf(w, " %24s", "-")
				}
			}
			fmt.Fprintln(w)
		}
	}
}

// besideHidden reports whether a piece of side's enemy that side has not
// seen stands next to sq in v.
func besideHidden(v game.View, sq game.Square, side game.Side) bool {
	for _, n := range sq.Neighbours() {
		if n == game.NoSquare {
			continue
		}
		if c := v.Board[n]; c.Occupied && c.Side != side && c.Rank == game.NoRank {
			return true
		}
	}
	return false
}

// writeSpyAnswers writes, for each player whose Marshal took a piece beside
// hidden enemy pieces, those captures by the rank taken and the share the
// enemy's Spy answered.
func writeSpyAnswers(w io.Writer, players []string, answers map[string]*spyAnswers) {
	header := false
	for _, p := range players {
		a := answers[p]
		if a.taken == ([game.NumRanks]int{}) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "a Marshal that took a piece beside hidden enemy pieces, by the piece taken, and the Spy taking it on the next move:")
			header = true
		}
		fmt.Fprintln(w, p)
		for _, r := range game.Ranks {
			if n := a.taken[r]; n > 0 {
				fmt.Fprintf(w, "  %-11s %6d taken, %5d answered by the Spy (%.2f)\n", r, n, a.answered[r], float64(a.answered[r])/float64(n))
			}
		}
	}
}

// habitPlayer is whom a record's player counts as: an arena's player by
// its name ("A (hard)" is hard), anyone else as one of the people.
func habitPlayer(name string) string {
	for _, part := range []string{arenaA, arenaB} {
		if strings.HasPrefix(name, part) && strings.HasSuffix(name, ")") {
			return name[len(part) : len(name)-1]
		}
	}
	return "people"
}

// addHabits replays rec and counts each side, into its player's tally, at
// each of habitPlies the game reaches.
func addHabits(rec *game.Record, tallies [2]*habitTally) error {
	return records.Positions(rec, habitPlies[:], func(ply int, g *game.Game) error {
		i := 0
		for habitPlies[i] != ply {
			i++
		}
		var attacks [2]int
		for _, m := range g.Moves() {
			if m.IsAttack() {
				attacks[m.Side]++
			}
		}
		for side := game.Red; side <= game.Blue; side++ {
			t := tallies[side]
			t.sides[i]++
			t.attacks[i] += attacks[side]
			other := g.View(game.ViewerOf(side.Opponent()))
			strongest, seen := game.NoRank, false
			for sq, c := range other.Board {
				if !c.Occupied || c.Side != side {
					continue
				}
				_, r, _ := g.PieceAt(game.Square(sq))
				switch {
				case hiddenMoved(c, side):
					t.unseen[i]++
				case c.Rank == game.NoRank && r.Movable():
					t.still[i]++
				}
				if c.Rank != game.NoRank && r >= game.Colonel && r <= game.Marshal {
					t.bigSeen[i]++
				}
				if r >= game.Spy && r <= game.Marshal && (strongest == game.NoRank || r > strongest) {
					strongest, seen = r, c.Rank != game.NoRank
				} else if r == strongest && c.Rank == game.NoRank {
					seen = false // another of that rank is still hidden
				}
			}
			if seen {
				t.topSeen[i]++
			}
		}
		return nil
	})
}

// The kinds of attacker moverAttacks tells apart, and their names.
const (
	moverScout = iota
	moverLow   // any other piece below a Captain
	moverMid   // a Captain or Major
	moverHigh  // a Colonel or stronger
	numMoverKinds
)

var moverKindNames = [numMoverKinds]string{"Scout", "below a Captain", "Captain or Major", "Colonel and up"}

func moverKind(r game.Rank) int {
	switch {
	case r == game.Scout:
		return moverScout
	case r >= game.Colonel && r <= game.Marshal:
		return moverHigh
	case r >= game.Captain && r <= game.Major:
		return moverMid
	}
	return moverLow
}

// moverAttacks sums, by ply of habitPlies, over the sides of the games that
// reached it, the attacks each side had made so far on hidden enemy pieces
// that had moved, by the kind of attacker.
type moverAttacks struct {
	sides   [len(habitPlies)]int
	attacks [len(habitPlies)][numMoverKinds]int
}

// moverCounts is one game's attacks on hidden moved pieces so far, a side.
type moverCounts [2][numMoverKinds]int

// count counts move m of side, made in view v at ply (the moves before it),
// if it attacks a hidden enemy piece that moved; first it adds the counts
// so far to movers when ply is one of habitPlies.
func (c *moverCounts) count(v game.View, side game.Side, m game.Move, ply int, movers [2]*moverAttacks) {
	c.addTo(movers, ply)
	if d := v.Board[m.To]; hiddenMoved(d, side.Opponent()) {
		c[side][moverKind(v.Board[m.From].Rank)]++
	}
}

// addTo adds the counts so far to movers if ply is one of habitPlies: the
// game has reached it.
func (c *moverCounts) addTo(movers [2]*moverAttacks, ply int) {
	for i, p := range habitPlies {
		if p != ply {
			continue
		}
		for side, t := range movers {
			t.sides[i]++
			for k, n := range c[side] {
				t.attacks[i][k] += n
			}
		}
	}
}

// writeMoverAttacks writes, for each player whose side reached ply 50 and
// attacked a hidden piece that moved, the attacks a side made so far.
func writeMoverAttacks(w io.Writer, players []string, tallies map[string]*moverAttacks) {
	header := false
	for _, p := range players {
		t := tallies[p]
		if t.attacks == ([len(habitPlies)][numMoverKinds]int{}) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "attacks on hidden enemy pieces that had moved, made so far, a side, by the attacker:")
			header = true
		}
		fmt.Fprintf(w, "%s\n  %-5s %6s", p, "ply", "sides")
		for _, name := range moverKindNames {
			fmt.Fprintf(w, " %16s", name)
		}
		fmt.Fprintln(w)
		for i, ply := range habitPlies {
			n := t.sides[i]
			if n == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-5d %6d", ply, n)
			for _, a := range t.attacks[i] {
				fmt.Fprintf(w, " %16.2f", float64(a)/float64(n))
			}
			fmt.Fprintln(w)
		}
	}
}

// writeReaders writes, for each player whose known pieces stood beside
// hidden enemy pieces that had moved, the share of those turns it attacked,
// by the known piece's rank, whether the hidden piece beat it and whether it
// had just come.
func writeReaders(w io.Writer, players []string, tallies map[string]*offers) {
	header := false
	for _, p := range players {
		t := tallies[p]
		if t.turns == ([offerClasses][offerKinds][2]int{}) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "a piece the enemy had seen beside a hidden enemy piece that moved, on its side's turn, and the share of those turns it attacked it,")
			fmt.Fprintln(w, "by whether the hidden piece beat it (a trap) or not (prey), and whether it had just come or stood there:")
			header = true
		}
		fmt.Fprintf(w, "%s\n  %-15s %15s %15s %15s %15s\n", p, "known piece", "trap, came", "trap, stood", "prey, came", "prey, stood")
		for class, name := range [offerClasses]string{offerLow: "below a Colonel", offerStrong: "Colonel and up"} {
			fmt.Fprintf(w, "  %-15s", name)
			for _, k := range [...]int{offerBeats, offerBeaten} {
				for _, came := range [...]int{1, 0} {
					n, a := t.turns[class][k][came], t.taken[class][k][came]
					fmt.Fprintf(w, " %7d %s", n, sharePercent(a, n))
				}
			}
			fmt.Fprintln(w)
		}
	}
}

// sharePercent is part over whole as a percentage, or "-" for none.
func sharePercent(part, whole int) string {
	if whole == 0 {
		return "     -"
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(part)/float64(whole))
}

// peopleLikeness sums, over a player's moves at every fifth ply, the log
// of the chance the model of people's moves gives each, and that of every
// legal move alike.
type peopleLikeness struct {
	model, alike float64
	moves        int
}

func (t *peopleLikeness) count(v game.View, m game.Move) error {
	model, alike, err := ai.PeopleLogLikelihood(v, m)
	if err != nil {
		return err
	}
	t.model += model
	t.alike += alike
	t.moves++
	return nil
}

func writeLikeness(w io.Writer, players []string, tallies map[string]*peopleLikeness) {
	header := false
	for _, p := range players {
		t := tallies[p]
		if t.moves == 0 {
			continue // not Classic: the model is Classic's
		}
		if !header {
			fmt.Fprintln(w, "how like a person's its moves are, at every fifth ply of Classic games: the mean log-likelihood of the move")
			fmt.Fprintln(w, "under the model of people's moves, and with every legal move alike:")
			header = true
		}
		n := float64(t.moves)
		fmt.Fprintf(w, "%s\n  %7d moves, %.4f, alike %.4f\n", p, t.moves, t.model/n, t.alike/n)
	}
}
