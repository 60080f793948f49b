package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/ai"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/published"
)

const compareUsage = `usage: strategolab compare [-battles] [-published] DIR [DIR2 [DIR3 DIR4 ...]]

Reads the records of an arena run (arena -records DIR) and prints player A's
wins, draws and losses with a 95% confidence interval (Wilson).

With two folders of runs with the same -seed, which played the same set-ups
and sides game by game (arena -first continues a stopped run), the games are
paired by number: it prints A's points in each, the games where DIR2 did
better and worse, and the mean difference a game with its 95% confidence
interval (Student's t). Pairing takes out the luck of the set-ups, which
decides many single games, so it tells a change to a computer player from
noise in far fewer games than two separate scores do.

With more pairs of folders (BEFORE AFTER BEFORE2 AFTER2 ..., each pair of
one -seed, say one per core), each pair is compared as above, and then all
their paired games together.

-battles also breaks each run's battles down by what the attacker knew of the
piece it attacked (its rank, or only that it had moved, or nothing), with what
the attacking side won or lost in them a game, pieces weighed as hard's
evaluation weighs them at the start, and the attacks on hidden moved pieces
made while every enemy piece the attacker does not beat was known (attacks
that risked nothing), and of the others those made while every such piece
that was hidden had never moved (they risked nothing either, though the
attacker could not see it), and the share of attacks on hidden moved pieces
won beside the share an attack on one of them picked at random would have won
(above it, the attacker read the pieces), and those made by a Colonel or
stronger with the share of them lost (to a stronger piece that was hiding);
counts the Marshals taken by the Spy, with the share taken just after taking a
piece where they stood (the bait of the textbook), and the pieces lost while
they stood next to a known piece that beats them when their player could have
stepped them away (and of them, those the taker did not know); counts each
side's Miners taken (and of them the moved ones the enemy had not seen fight,
taken in their own half by a piece their player knew) and lost attacking, and
the games it lost with no Miner left while the enemy kept a Bomb (behind
Bombs, a Flag it could no longer take), those it lost by its Flag taken, with
the pieces the Flag hid among (those the taker had neither seen move nor
fight, the Flag among them) and the pieces that could move left to each side
then, and those it lost to a Miner taking its Flag (and
of them, those where the Miner had been shown 4 or more squares away);
counts the pieces each side's Marshal and General took while the enemy's
Marshal was hidden, known in its own half, known in the other or gone (a
General that attacks hidden pieces risks that Marshal only while it is
hidden); gives the share of games in which each
side's Marshal and General were first shown attacking a piece below a Colonel,
or attacked; and counts, at plies 100 and 200, each side's pieces that had
moved and that the other side had not seen fight (an engine that attacks only
what cannot be a Bomb goes for those), and its pieces that can move but never
did (to the enemy, each may be a Bomb).

-published also splits each run's score for A by how near B's set-up was to
the nearest published set-up of its variant (see game.PublishedSetups) or
that set-up's mirror image: the same as one, 1–4 squares other, 5–10, or 11
or more. A player that recognises published set-ups wins the near ones by
reading them; the far ones show how it plays against a set-up of one's own.

Flags:
`

// arenaRecord is one finished game of an arena run.
type arenaRecord struct {
	number int // the game's number in its run: game-0007.xml is 7
	rec    *game.Record
	aSide  game.Side
	names  [2]string // A's and B's names, as the records give them
	points float64   // A's: 1 for a win, ½ for a draw
}

// compareOptions are compare's flags.
type compareOptions struct {
	battles   bool // break the battles down
	published bool // split the score by B's set-up's nearness to a published one
}

// compareFlags declares compare's flags into o.
func compareFlags(o *compareOptions, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("compare", compareUsage, w)
	fs.BoolVar(&o.battles, "battles", false, "also break the battles down by what the attacker knew, for each player")
	fs.BoolVar(&o.published, "published", false, "also split A's score by how near B's set-up was to a published one")
	return fs
}

// compareOperands checks the number of folders: one, two, or pairs.
func compareOperands(n int) error {
	if n < 1 || n > 2 && n%2 != 0 {
		return errors.New("compare takes one folder of arena records, or two to pair their games (or pairs of them: before, after, before, after…)")
	}
	return nil
}

func runCompare(_ context.Context, args []string, stdout, stderr io.Writer) int {
	var opts compareOptions
	fs := compareFlags(&opts, stdout)
	if err := cli.Parse(fs, args); err != nil { // not ParseFlags: the folders follow the flags
		return cli.UsageFailed(stderr, "strategolab compare", compareUsage, err)
	}
	dirs := fs.Args()
	if err := compareOperands(len(dirs)); err != nil {
		return cli.UsageFailed(stderr, "strategolab compare", compareUsage, err)
	}
	for _, dir := range dirs {
		if err := runFolder(dir); err != nil {
			return cli.UsageFailed(stderr, "strategolab compare", compareUsage, err)
		}
	}
	runs := make([][]arenaRecord, len(dirs))
	for i, dir := range dirs {
		recs, err := readArenaRecords(dir)
		if err != nil {
			fmt.Fprintln(stderr, "strategolab compare:", err)
			return 1
		}
		runs[i] = recs
		writeScore(stdout, dir, recs)
	}
	var pooled pairedGames
	for i := 0; i+1 < len(runs); i += 2 {
		p := pair(runs[i], runs[i+1])
		p.write(stdout, dirs[i], dirs[i+1])
		pooled.merge(p)
	}
	if len(runs) > 2 {
		pooled.write(stdout, fmt.Sprintf("the %d BEFORE runs", len(runs)/2), fmt.Sprintf("the %d AFTER runs", len(runs)/2))
	}
	if opts.battles {
		for i, dir := range dirs {
			writeBattles(stdout, dir, runs[i])
		}
	}
	if opts.published {
		sets := published.NewIndex()
		for i, dir := range dirs {
			if err := writePublished(stdout, dir, runs[i], sets); err != nil {
				fmt.Fprintln(stderr, "strategolab compare:", err)
				return 1
			}
		}
	}
	return 0
}

// runFolder says why dir, named on the command line, is not a folder to
// read a run from; nil when it is one.
func runFolder(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("there is no folder %s: name one that strategolab arena -records wrote", dir)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder: name one that strategolab arena -records wrote", dir)
	}
	return nil
}

// readArenaRecords reads the finished games of DIR/game-NNNN.xml, by number.
func readArenaRecords(dir string) ([]arenaRecord, error) {
	if err := runFolder(dir); err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "game-*.xml"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var out []arenaRecord
	for _, f := range files {
		var n int
		if _, err := fmt.Sscanf(filepath.Base(f), "game-%d.xml", &n); err != nil || n < 1 {
			continue // not a name the arena writes
		}
		r, err := readArenaRecord(f)
		if err != nil {
			return nil, err
		}
		r.number = n
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no arena records (game-0001.xml, …): run strategolab arena with -records %s", dir, dir)
	}
	slices.SortFunc(out, func(a, b arenaRecord) int { return a.number - b.number })
	return out, nil
}

func readArenaRecord(path string) (arenaRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return arenaRecord{}, err
	}
	defer f.Close()
	rec, err := game.ParseGravon(f)
	if err != nil {
		return arenaRecord{}, fmt.Errorf("%s: %w", path, err)
	}
	r := arenaRecord{rec: rec}
	found := false
	for _, side := range []game.Side{game.Red, game.Blue} {
		if isArenaA(rec.Players[side]) {
			r.aSide, found = side, true
		}
	}
	if !found {
		return arenaRecord{}, fmt.Errorf("%s: no player is named \"A (…)\": not a record of strategolab arena", path)
	}
	if !rec.Result.Over() {
		return arenaRecord{}, fmt.Errorf("%s: the game has no result", path)
	}
	r.names = [2]string{rec.Players[r.aSide], rec.Players[r.aSide.Opponent()]}
	r.points = 0.5
	if w, ok := rec.Result.Winner(); ok {
		r.points = 0
		if w == r.aSide {
			r.points = 1
		}
	}
	return r, nil
}

func writeScore(w io.Writer, dir string, recs []arenaRecord) {
	var tally scoreTally
	for _, r := range recs {
		tally.add(r.points)
	}
	n := len(recs)
	lo, hi := wilson(tally.score/float64(n), n)
	fmt.Fprintf(w, "%s: %s against %s: %d–%d–%d (wins, draws, losses) of %d, a score of %.1f%% (95%% CI %.1f–%.1f%%)\n",
		dir, recs[0].names[0], recs[0].names[1], tally.wins, tally.draws, tally.losses, n, 100*tally.score/float64(n), 100*lo, 100*hi)
}

// pairedGames are the games of two runs with the same numbers: A's points
// in each, and how many games had another side or set-up for A.
type pairedGames struct {
	diffs                     []float64 // after less before, game by game
	numbers                   []int     // the game number of each of diffs
	pointsBefore, pointsAfter float64
	better, worse             int
	differentSetups           int
}

// pair pairs the games of two runs by number.
func pair(before, after []arenaRecord) pairedGames {
	byNumber := map[int]arenaRecord{}
	for _, r := range before {
		byNumber[r.number] = r
	}
	var p pairedGames
	for _, a := range after {
		b, ok := byNumber[a.number]
		if !ok {
			continue
		}
		if a.aSide != b.aSide || a.rec.Setups[a.aSide] != b.rec.Setups[b.aSide] {
			p.differentSetups++
		}
		d := a.points - b.points
		p.diffs = append(p.diffs, d)
		p.numbers = append(p.numbers, a.number)
		p.pointsBefore += b.points
		p.pointsAfter += a.points
		switch {
		case d > 0:
			p.better++
		case d < 0:
			p.worse++
		}
	}
	return p
}

// merge adds q's games to p's.
func (p *pairedGames) merge(q pairedGames) {
	p.diffs = append(p.diffs, q.diffs...)
	p.numbers = append(p.numbers, q.numbers...)
	p.pointsBefore += q.pointsBefore
	p.pointsAfter += q.pointsAfter
	p.better += q.better
	p.worse += q.worse
	p.differentSetups += q.differentSetups
}

// write prints the paired games of the runs named before and after.
func (p pairedGames) write(w io.Writer, before, after string) {
	n := len(p.diffs)
	if n == 0 {
		fmt.Fprintf(w, "paired: no game number is in both %s and %s\n", before, after)
		return
	}
	fmt.Fprintf(w, "paired by game number, %d games in both: A scored %s in %s and %s in %s; better in %d, worse in %d, the same in %d\n",
		n, points(p.pointsBefore), before, points(p.pointsAfter), after, p.better, p.worse, n-p.better-p.worse)
	if p.differentSetups > 0 {
		fmt.Fprintf(w, "  warning: in %d of these games A had another side or set-up: were both runs made with the same -seed?\n", p.differentSetups)
	}
	mean, half := meanInterval(p.diffs)
	if n < 2 {
		fmt.Fprintf(w, "  difference %+.3f points a game (one game: no interval)\n", mean)
		return
	}
	fmt.Fprintf(w, "  mean difference %+.3f points a game, 95%% CI %+.3f to %+.3f\n", mean, mean-half, mean+half)
	if byNumber := p.byNumber(); len(byNumber) < n && len(byNumber) >= 2 {
		mean, half := meanInterval(byNumber)
		fmt.Fprintf(w, "  by game number, as the runs' games of one number share their set-ups and often their first moves: %d numbers, mean difference %+.3f points a game, 95%% CI %+.3f to %+.3f\n",
			len(byNumber), mean, mean-half, mean+half)
	}
}

// byNumber returns the mean difference of each game number, for runs that
// repeat numbers (another draw of an opponent's luck): those games are not
// independent, so the interval over numbers is the honest one.
func (p pairedGames) byNumber() []float64 {
	sum, count := map[int]float64{}, map[int]int{}
	var order []int
	for i, d := range p.diffs {
		k := p.numbers[i]
		if count[k] == 0 {
			order = append(order, k)
		}
		sum[k] += d
		count[k]++
	}
	means := make([]float64, len(order))
	for i, k := range order {
		means[i] = sum[k] / float64(count[k])
	}
	return means
}

// points writes a score with its half point, if any.
func points(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// meanInterval returns the mean of xs and the half width of its 95%
// confidence interval by Student's t (0 for fewer than two).
func meanInterval(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	return mean, t975(len(xs)-1) * sd / math.Sqrt(n)
}

// t975 is the 97.5% quantile of Student's t with df degrees of freedom:
// to three decimals from a table up to 20, then by the Cornish–Fisher
// expansion around the normal quantile, as close from there on.
func t975(df int) float64 {
	table := [...]float64{1: 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086}
	if df < 1 {
		return math.Inf(1)
	}
	if df < len(table) {
		return table[df]
	}
	const z = 1.959963984540054
	v := float64(df)
	return z + (z*z*z+z)/(4*v) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*v*v) +
		(3*math.Pow(z, 7)+19*math.Pow(z, 5)+17*z*z*z-15*z)/(384*v*v*v)
}

// battleKind is what the attacker knew of the piece it attacked.
type battleKind int

const (
	onKnown         battleKind = iota // its rank
	onHiddenMoved                     // only that it had moved
	onHiddenUnmoved                   // nothing: it never moved, so it may be a Bomb or the Flag
	battleKinds
)

var battleKindNames = [battleKinds]string{
	onKnown:         "attacks on pieces whose rank it knew",
	onHiddenMoved:   "attacks on hidden pieces that had moved",
	onHiddenUnmoved: "attacks on hidden pieces that never moved",
}

// battleTally counts one run's battles for A (0) and B (1).
type battleTally struct {
	games   int
	attacks [2][battleKinds]int
	net     [2][battleKinds]int // material won minus lost by the attacker
	// leftLost counts the pieces a player lost to a known piece next to
	// them that beats them, when at its turn before it could have stepped
	// them away, and their worth; leftBlind those of them whose rank the
	// taker did not know, and leftForked those of them when another of the
	// player's pieces stood beside a known piece that beats it as well: a
	// fork, where one move saves only one.
	leftLost, leftWorth, leftBlind, leftForked [2]int
	// lateTaken counts the pieces a player lost from ply lateFrom on to an
	// enemy piece whose rank it knew, and lateAnswered those of them lost
	// while it still had a piece that beats the taker: the endgame's
	// raiders, seen coming, that it had an answer to and did not stop.
	lateTaken, lateAnswered [2]int
	// quiet[p][c] counts player p's moves that fought no battle, by the
	// moving piece's class of quietClasses: a player whose weak pieces do
	// the walking offers them to the enemy's strong ones as hidden moved
	// pieces, which cannot be Bombs.
	quiet [2][quietClasses]int
	// marshalTraded counts the games in which the player's Marshal was
	// taken with the enemy's Marshal attacking it, and tradedPoints the
	// player's points in them: the side that starts the trade picks the
	// moment when its next strongest pieces rule the board.
	marshalTraded [2]int
	tradedPoints  [2]float64
	// raided counts the pieces a player lost to raiders, the enemy pieces
	// that took raiderTakes or more of its pieces in a game, and raiders
	// those pieces.
	raided, raiders [2]int
	// fearless and fearlessNet count the attacks on hidden pieces that had
	// moved made while every enemy piece that the attacker does not beat
	// was known (or gone), and what they won: attacks that risked nothing.
	fearless, fearlessNet [2]int
	// fearlessTurns counts a player's turns on which one of its pieces
	// stood beside a hidden moved enemy piece while every enemy piece it
	// does not beat was known: a risk-free attack was there to make;
	// fearlessTaken those on which it made one.
	fearlessTurns, fearlessTaken [2]int
	// stillBeaters and stillBeatersNet count the other attacks on hidden
	// pieces that had moved made while every enemy piece that the attacker
	// does not beat and did not know had never moved, and what they won:
	// attacks that risked nothing either, though the attacker could not see
	// it (a player that never moves its strong pieces makes them).
	stillBeaters, stillBeatersNet [2]int
	// won counts the attacks on hidden pieces that had moved that the
	// attacker won, and atRandom adds up, over those attacks, the share of
	// the enemy's hidden moved pieces that the attacker's rank beats: what
	// it would have won attacking one of them at random. Won above that,
	// it read the pieces; near it, it went for whatever moved.
	won      [2]int
	atRandom [2]float64
	// strong and strongLost count the attacks on hidden moved pieces made
	// by a Colonel or stronger, and those the attacker lost: a strong
	// piece that loses such a battle met a stronger one that was hiding.
	strong, strongLost [2]int
	// spyTook counts the player's Marshals taken by the Spy, and spyBait
	// those of them taken right after the Marshal took a piece where it
	// stood: the bait of the textbook.
	spyTook, spyBait [2]int
	// unseen[p][i] adds up, over the games that reached ply
	// unseenPlies[i], the pieces of player p that had moved and that the
	// other player had not seen fight: the pieces an engine that takes only
	// what cannot be a Bomb may go for. reached[i] counts those games.
	unseen  [2][len(unseenPlies)]int
	reached [len(unseenPlies)]int
	// still[p][i] adds up, the same way, player p's pieces that can move
	// but never did and that the other has not seen fight: to the enemy,
	// each may be a Bomb.
	still [2][len(unseenPlies)]int
	// strongLeft[p][i] adds up, the same way, player p's Colonels, Generals
	// and Marshal on the board, and strongHidden those of them the other
	// has not seen: once the strong ones are known, every hidden moved
	// piece is prey to the enemy's next strongest.
	strongLeft, strongHidden [2][len(unseenPlies)]int
	// shownCheap and shownAttacked count the games in which a player's
	// piece of each of topPieces was first shown attacking a piece below a
	// Colonel (a Bomb or the Flag too), or attacked: showing the strongest
	// pieces for little frees the enemy's next strongest to take hidden
	// pieces at no risk (see fearless).
	shownCheap, shownAttacked [2][len(topPieces)]int
	// topTakes[p][m] counts the pieces player p's Marshal or General took,
	// by what had become of the enemy's Marshal (marshalHidden,
	// marshalHome, marshalAway, marshalGone): a General that attacks hidden
	// pieces risks meeting that Marshal only while it is hidden, and a
	// known one away in the other half guards nothing at home.
	topTakes [2][marshalStates]int
	// minersTaken counts the player's Miners taken by an attacker, and
	// minersLost those that lost a battle they started; lostMinerless
	// counts the games the player lost with no Miner left while the enemy
	// still had a Bomb: with the enemy's Flag behind Bombs, it could no
	// longer win.
	minersTaken, minersLost, lostMinerless [2]int
	// minersRaided counts, of minersTaken, the moved Miners the enemy had
	// not seen fight, taken in the player's own half by a piece the player
	// knew: a raider it saw coming.
	minersRaided [2]int
	// flagByMiner counts the games the player lost to a Miner taking its
	// Flag: the way through its Bombs; flagByShownMiner those of them in
	// which the Miner had been shown while still shownMinerSteps or more
	// squares (rows plus columns) from the Flag, in time to be stopped.
	flagByMiner, flagByShownMiner [2]int
	// flagTaken counts the games the player lost by its Flag taken, and
	// flagHidAmong adds up, over them, its pieces (the Flag among them)
	// the taker had neither seen move nor fight: the pieces the taker had
	// to tell the Flag from. A player that moves every piece leaves its
	// Flag among its Bombs, and the enemy's Miners find it.
	flagTaken, flagHidAmong [2]int
	// flagMovable adds up, over those games, the pieces that could move
	// left to the loser and to the taker once it was taken: whether the
	// game was lost at the Flag or long before.
	flagMovable [2][2]int
	// netBy[p][i] adds up, over the games that reached ply netPlies[i],
	// the material player p's battles had won less lost by then; netReached
	// counts those games. It tells when a lead was made or lost.
	netBy      [2][len(netPlies)]int
	netReached [len(netPlies)]int
	// offers[p] counts the offers of player p's hidden moved pieces to the
	// enemy's known pieces (see offers).
	offers [2]offers
}

// The battles an offer of a hidden moved piece would have been.
const (
	offerBeats  = iota // the hidden piece beats the known enemy piece beside it
	offerBeaten        // the known enemy piece beats it
	offerKinds
)

// offers counts, turn by turn, the times a hidden moved piece of a player's
// stood beside an enemy piece whose rank the player knew, at the enemy's
// turn, by the battle it would have been (offerBeats: the hidden piece beats
// the enemy's, a trap; offerBeaten: the enemy's beats it), and in taken
// those the enemy attacked. An enemy that cannot read the player's pieces
// attacks traps as often as the rest. Both are split by the known piece's
// rank (below a Colonel, or a Colonel and up: strong pieces attack more, and
// fewer hidden pieces beat them) and by whether the hidden piece had just
// come there (a player whose pieces come beside known ones only when they
// beat them is read at once).
type offers struct {
	turns, taken [offerClasses][offerKinds][2]int // [class][kind][just came]
}

// The classes of known piece offers tells apart.
const (
	offerLow    = iota // below a Colonel
	offerStrong        // a Colonel, General or Marshal
	offerClasses
)

// sum returns the turns of kind, and those attacked, over classes and both
// ways of getting there.
func (o *offers) sum(kind int) (turns, taken int) {
	for class := range o.turns {
		for came := range o.turns[class][kind] {
			turns += o.turns[class][kind][came]
			taken += o.taken[class][kind][came]
		}
	}
	return turns, taken
}

// count counts, at the turn of the side whose view v is, the enemy's hidden
// moved pieces beside a piece of the side's that the enemy knows, by the
// battle it would be, and whether move m attacks one.
func (o *offers) count(g *game.Game, v *game.View, m game.Move) {
	side, _ := v.Viewer.IsPlayer()
	came := game.NoSquare // where the enemy's last move went
	if last, ok := g.LastMove(); ok {
		came = last.Move.To
	}
	besideHiddenMovers(v, side, func(at, n game.Square, a game.Cell) {
		if !a.Revealed { // Revealed: a battle showed its rank to the enemy too
			return
		}
		_, r, _ := g.PieceAt(n)
		kind := offerBeaten
		switch game.Fight(a.Rank, r) {
		case game.DefenderWon:
			kind = offerBeats
		case game.BothRemoved:
			return
		}
		class, just := offerLow, 0
		if a.Rank >= game.Colonel && a.Rank <= game.Marshal {
			class = offerStrong
		}
		if n == came {
			just = 1
		}
		o.turns[class][kind][just]++
		if m.From == at && m.To == n {
			o.taken[class][kind][just]++
		}
	})
}

// besideHiddenMovers calls visit for each movable piece a of side's in its
// view v (on at) and each hidden enemy piece beside it that has moved (on n).
func besideHiddenMovers(v *game.View, side game.Side, visit func(at, n game.Square, a game.Cell)) {
	for at := game.Square(0); at < game.NumSquares; at++ {
		a := v.Board[at]
		if !a.Occupied || a.Side != side || !a.Rank.Movable() {
			continue
		}
		for _, n := range at.Neighbours() {
			if n != game.NoSquare && hiddenMoved(v.Board[n], side.Opponent()) {
				visit(at, n, a)
			}
		}
	}
}

// The states of a side's Marshal as the enemy saw it.
const (
	marshalHidden = iota // on the board, its rank not shown
	marshalHome          // shown, in its own half of the board
	marshalAway          // shown, in the enemy's half: away from the pieces it guards
	marshalGone          // taken, or never in the army
	marshalStates
)

var marshalStateNames = [marshalStates]string{"hidden", "known, at home", "known, away", "gone"}

// marshalState is what view v (the enemy's) shows of side's Marshal.
func marshalState(v *game.View, side game.Side) int {
	if v.Remaining[side][game.Marshal] == 0 {
		return marshalGone
	}
	for sq, c := range v.Board {
		if c.Occupied && c.Side == side && c.Rank == game.Marshal {
			if inOwnHalf(side, game.Square(sq)) {
				return marshalHome
			}
			return marshalAway
		}
	}
	return marshalHidden
}

// inOwnHalf reports whether sq lies in side's half of the board: rows 1–5
// for Red, 6–10 for Blue.
func inOwnHalf(side game.Side, sq game.Square) bool {
	return (sq.Row() < 5) == (side == game.Red)
}

// netPlies are the plies at which battleTally adds up each player's net
// material so far.
var netPlies = [...]int{100, 200, 300}

// topPieces are the ranks whose first showing battleTally counts.
var topPieces = [2]game.Rank{game.Marshal, game.General}

// shownMinerSteps is how far from a Flag a Miner shown there counts as shown
// in time: the walk from there lies beyond the computer's search.
const shownMinerSteps = 4

// unseenPlies are the plies at which battleTally counts each side's moved
// pieces that the other side has not seen fight.
var unseenPlies = [...]int{100, 200}

// markShown marks the Miners the view shows both players standing
// shownMinerSteps or more from the enemy's Flag.
func markShown(shownFar *[game.NumSquares]bool, v *game.View, flags [2]game.Square) {
	for sq, c := range v.Board {
		if c.Occupied && c.Revealed && c.Rank == game.Miner && steps(game.Square(sq), flags[c.Side.Opponent()]) >= shownMinerSteps {
			shownFar[sq] = true
		}
	}
}

// carryShown moves the marks of markShown along with the move m just played.
func carryShown(shownFar *[game.NumSquares]bool, g *game.Game, m game.Move) {
	mark := shownFar[m.From]
	shownFar[m.From] = false
	if s, _, ok := g.PieceAt(m.To); !ok {
		shownFar[m.To] = false
	} else if s != g.ToMove() { // the mover won
		shownFar[m.To] = mark
	}
}

// steps is the number of rows plus columns between two squares.
func steps(a, b game.Square) int {
	return abs(a.Row()-b.Row()) + abs(a.Col()-b.Col())
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func tallyBattles(recs []arenaRecord) (battleTally, error) {
	var t battleTally
	for _, r := range recs {
		if err := t.add(r); err != nil {
			return t, fmt.Errorf("game %d: %w", r.number, err)
		}
	}
	return t, nil
}

// add replays one game and counts its battles.
func (t *battleTally) add(r arenaRecord) error {
	rec := r.rec
	g, err := game.NewGame(rec.Rules, rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return err
	}
	t.games++
	player := func(s game.Side) int {
		if s == r.aSide {
			return 0
		}
		return 1
	}
	// Each side's view at its last turn.
	var lastView [2]*game.View
	var shown [2][len(topPieces)]bool                    // by player
	var candidates []game.Rank                           // the ranks of the enemy's hidden moved pieces, before an attack on one
	took := [2]game.Square{game.NoSquare, game.NoSquare} // by side: where its last move took a piece
	var net [2]int                                       // by player: battles' material so far
	var flags [2]game.Square                             // by side
	for sq := game.Square(0); sq < game.NumSquares; sq++ {
		if s, rk, ok := g.PieceAt(sq); ok && rk == game.Flag {
			flags[s] = sq
		}
	}
	var shownFar [game.NumSquares]bool // the Miner on the square was shown far from the enemy's Flag
	var takers takerLog
	for _, m := range rec.Moves {
		t.countUnseen(g, player)
		t.countNet(g, net)
		side := g.ToMove()
		v := g.View(game.ViewerOf(side))
		markShown(&shownFar, &v, flags)
		t.offers[player(side.Opponent())].count(g, &v, m)
		t.countFearless(&v, m, player(side))
		// What the attacker knew of the target, read before the battle
		// shows it; and, for a hidden moved one, what else it might have met.
		kind := onKnown
		if target := v.Board[m.To]; target.Rank == game.NoRank {
			kind = onHiddenUnmoved
			if target.Moved {
				kind = onHiddenMoved
			}
		}
		attackerRevealed := v.Board[m.From].Revealed
		candidates = candidates[:0]
		if kind == onHiddenMoved {
			candidates = hiddenMovedRanks(g, &v, side.Opponent(), candidates)
		}
		res, err := g.Apply(m)
		if err != nil {
			return err
		}
		if res.Defender == game.Flag {
			loser := player(side.Opponent())
			t.flagTaken[loser]++
			t.flagHidAmong[loser] += stillHidden(&v, side.Opponent())
			t.flagMovable[loser][0] += movableLeft(g, side.Opponent())
			t.flagMovable[loser][1] += movableLeft(g, side)
			if res.Attacker == game.Miner {
				t.flagByMiner[loser]++
				if shownFar[m.From] {
					t.flagByShownMiner[loser]++
				}
			}
		}
		carryShown(&shownFar, g, m)
		takers.follow(m, res, player(side))
		lastView[side] = &v
		took[side] = game.NoSquare
		if !res.IsAttack() {
			_, moved, _ := g.PieceAt(m.To)
			t.quiet[player(side)][quietClass(moved)]++
			continue
		}
		p := player(side)
		if res.Attacker == game.Marshal && res.Defender == game.Marshal {
			q := player(side.Opponent())
			t.marshalTraded[q]++
			t.tradedPoints[q] += pointsOf(r, q)
		}
		if res.Outcome == game.AttackerWon {
			took[side] = m.To
			if res.Attacker == game.Marshal || res.Attacker == game.General {
				t.topTakes[p][marshalState(&v, side.Opponent())]++
			}
		}
		if kind == onHiddenMoved {
			t.atRandom[p] += beatenShare(candidates, res.Attacker)
			if res.Outcome == game.AttackerWon {
				t.won[p]++
			}
			if res.Attacker >= game.Colonel && res.Attacker <= game.Marshal {
				t.strong[p]++
				if res.Outcome == game.DefenderWon {
					t.strongLost[p]++
				}
			}
		}
		if res.Defender == game.Miner && res.Outcome != game.DefenderWon {
			q := player(side.Opponent())
			t.minersTaken[q]++
			if kind == onHiddenMoved && inOwnHalf(side.Opponent(), m.To) && attackerRevealed {
				t.minersRaided[q]++
			}
		}
		if res.Attacker == game.Miner && res.Outcome != game.AttackerWon {
			t.minersLost[p]++
		}
		if res.Attacker == game.Spy && res.Defender == game.Marshal && res.Outcome == game.AttackerWon {
			q := player(side.Opponent())
			t.spyTook[q]++
			if took[side.Opponent()] == m.To {
				t.spyBait[q]++
			}
		}
		material := ai.BattleMaterial(res)
		net[p] += material
		t.attacks[p][kind]++
		t.net[p][kind] += material
		if kind == onHiddenMoved && everyBeaterKnown(&v, side, res.Attacker) {
			t.fearless[p]++
			t.fearlessNet[p] += material
		} else if kind == onHiddenMoved && beatenShare(candidates, res.Attacker) == 1 {
			t.stillBeaters[p]++
			t.stillBeatersNet[p] += material
		}
		t.countShown(&shown, p, res.Attacker, res.Defender, true)
		t.countShown(&shown, player(side.Opponent()), res.Defender, res.Attacker, false)
		victim := side.Opponent()
		if res.Outcome == game.AttackerWon && g.Ply() > lateFrom && knewTaker(lastView[victim], m) {
			t.lateTaken[player(victim)]++
			if beaterLeft(&v.Remaining[victim], res.Attacker) {
				t.lateAnswered[player(victim)]++
			}
		}
		if res.Outcome == game.AttackerWon && leftToBeTaken(lastView[victim], m, res.Attacker) {
			t.leftLost[player(victim)]++
			t.leftWorth[player(victim)] += material // what the attacker took
			if v.Board[m.To].Rank == game.NoRank {  // in the taker's view
				t.leftBlind[player(victim)]++
			}
			if threatened(lastView[victim], victim) >= 2 {
				t.leftForked[player(victim)]++
			}
		}
	}
	t.countUnseen(g, player) // a game that ended right at one of unseenPlies
	t.countNet(g, net)
	for _, tk := range takers.takes {
		if tk.n >= raiderTakes {
			t.raiders[1-tk.player]++
			t.raided[1-tk.player] += tk.n
		}
	}
	left := g.View(game.PublicViewer).Remaining
	for side := game.Red; side <= game.Blue; side++ {
		p := player(side)
		lost := r.points == float64(p) // A scored 0, or B's opponent A scored 1
		if lost && left[side][game.Miner] == 0 && left[side.Opponent()][game.Bomb] > 0 {
			t.lostMinerless[p]++
		}
	}
	return nil
}

// countFearless counts, at the turn of player p, whose view v is, whether a
// piece of p's could attack a hidden moved enemy piece beside it at no risk
// (every enemy piece it does not beat known or gone), and whether move m did.
func (t *battleTally) countFearless(v *game.View, m game.Move, p int) {
	side, _ := v.Viewer.IsPlayer()
	chance, taken := false, false
	var fearless [game.NumRanks]int8 // by rank: 0 not asked yet, 1 yes, -1 no
	besideHiddenMovers(v, side, func(at, sq game.Square, a game.Cell) {
		if fearless[a.Rank] == 0 {
			fearless[a.Rank] = -1
			if everyBeaterKnown(v, side, a.Rank) {
				fearless[a.Rank] = 1
			}
		}
		if fearless[a.Rank] < 0 {
			return
		}
		chance = true
		if m.From == at && m.To == sq {
			taken = true
		}
	})
	if chance {
		t.fearlessTurns[p]++
	}
	if taken {
		t.fearlessTaken[p]++
	}
}

// raiderTakes is how many pieces a piece takes in a game to count as a
// raider: one loose among pieces it beats, taking one after another.
const raiderTakes = 3

// takerLog follows the pieces that take through a game, by square, and
// counts what each took.
type takerLog struct {
	at    [game.NumSquares]int // 1 + the index in takes of the piece on the square, 0 for none yet
	takes []taker
}

// taker is a piece that took: its player's index (0 for A) and how many it took.
type taker struct{ player, n int }

// follow records move m of player p, whose outcome was res.
func (l *takerLog) follow(m game.Move, res game.MoveRecord, p int) {
	id := l.at[m.From]
	l.at[m.From] = 0
	switch res.Outcome {
	case game.NoBattle:
		l.at[m.To] = id
	case game.AttackerWon, game.GuessedRight:
		if id == 0 {
			l.takes = append(l.takes, taker{player: p})
			id = len(l.takes)
		}
		l.takes[id-1].n++
		if res.Outcome == game.GuessedRight {
			l.at[m.From], l.at[m.To] = id, 0 // an Infiltrator stays where it was
		} else {
			l.at[m.To] = id
		}
	case game.GuessedWrong:
		l.at[m.From] = id
	case game.BothRemoved:
		l.at[m.To] = 0
	}
}

// countNet adds each player's battles' material so far, net, when g is at
// one of netPlies.
func (t *battleTally) countNet(g *game.Game, net [2]int) {
	i := slices.Index(netPlies[:], g.Ply())
	if i < 0 {
		return
	}
	t.netReached[i]++
	for p := range net {
		t.netBy[p][i] += net[p]
	}
}

// hiddenMovedRanks appends to dst the ranks of enemy's pieces that moved and
// whose rank view v does not show: the pieces an attack on a hidden moved
// piece could have met.
func hiddenMovedRanks(g *game.Game, v *game.View, enemy game.Side, dst []game.Rank) []game.Rank {
	for sq, c := range v.Board {
		if hiddenMoved(c, enemy) {
			if _, r, ok := g.PieceAt(game.Square(sq)); ok {
				dst = append(dst, r)
			}
		}
	}
	return dst
}

// stillHidden counts side's pieces that view v shows neither moved nor
// ranked (see hiddenStill).
func stillHidden(v *game.View, side game.Side) int {
	n := 0
	for _, c := range v.Board {
		if hiddenStill(c, side) {
			n++
		}
	}
	return n
}

// hiddenMoved reports whether c holds a piece of side's that has moved and
// whose rank the viewer does not know.
func hiddenMoved(c game.Cell, side game.Side) bool {
	return c.Occupied && c.Side == side && c.Moved && c.Rank == game.NoRank
}

// movableLeft counts side's pieces on the board of g that can move.
func movableLeft(g *game.Game, side game.Side) int {
	n := 0
	for sq := range game.Square(game.NumSquares) {
		if s, r, ok := g.PieceAt(sq); ok && s == side && r.Movable() {
			n++
		}
	}
	return n
}

// perGame is n over games to two decimals, or "-" for no game.
func perGame(n, games int) string {
	if games == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(n)/float64(games))
}

// hiddenStill reports whether c holds a piece of side's that the viewer has
// neither seen move nor fight: to the viewer, it may be a Bomb or the Flag.
func hiddenStill(c game.Cell, side game.Side) bool {
	return c.Occupied && c.Side == side && !c.Moved && c.Rank == game.NoRank
}

// beatenShare is the share of ranks that a piece of rank a beats.
func beatenShare(ranks []game.Rank, a game.Rank) float64 {
	if len(ranks) == 0 {
		return 0
	}
	n := 0
	for _, r := range ranks {
		if game.Fight(a, r) == game.AttackerWon {
			n++
		}
	}
	return float64(n) / float64(len(ranks))
}

// countShown counts how player p's piece of rank r, in a battle with one of
// rank other, was shown, when r is one of topPieces not shown before.
func (t *battleTally) countShown(shown *[2][len(topPieces)]bool, p int, r, other game.Rank, attacking bool) {
	i := slices.Index(topPieces[:], r)
	if i < 0 || shown[p][i] {
		return
	}
	shown[p][i] = true
	switch {
	case !attacking:
		t.shownAttacked[p][i]++
	case other < game.Colonel || other > game.Marshal:
		t.shownCheap[p][i]++
	}
}

// countUnseen adds each player's moved pieces that the other has not seen
// fight, when g is at one of unseenPlies.
func (t *battleTally) countUnseen(g *game.Game, player func(game.Side) int) {
	i := slices.Index(unseenPlies[:], g.Ply())
	if i < 0 {
		return
	}
	t.reached[i]++
	for side := game.Red; side <= game.Blue; side++ {
		other := g.View(game.ViewerOf(side.Opponent()))
		for sq, c := range other.Board {
			if s, r, ok := g.PieceAt(game.Square(sq)); ok && s == side && r >= game.Colonel && r <= game.Marshal {
				t.strongLeft[player(side)][i]++
				if c.Rank == game.NoRank {
					t.strongHidden[player(side)][i]++
				}
			}
			switch {
			case hiddenMoved(c, side):
				t.unseen[player(side)][i]++
			case hiddenStill(c, side):
				if _, r, _ := g.PieceAt(game.Square(sq)); r.Movable() {
					t.still[player(side)][i]++
				}
			}
		}
	}
}

// everyBeaterKnown reports whether, in side's view v, every enemy piece left
// that a piece of rank a does not beat (its equals too) is known: a hidden
// piece that has moved is then one that a beats, whatever it is.
func everyBeaterKnown(v *game.View, side game.Side, a game.Rank) bool {
	enemy := side.Opponent()
	var shown game.Army
	for _, c := range v.Board {
		if c.Occupied && c.Side == enemy && c.Rank != game.NoRank {
			shown[c.Rank]++
		}
	}
	for r, left := range v.Remaining[enemy] {
		rank := game.Rank(r)
		if rank.Movable() && game.Fight(a, rank) != game.AttackerWon && left > shown[rank] {
			return false
		}
	}
	return true
}

// leftToBeTaken reports whether the piece taken by move m stood, at its
// player's last turn (view v), already next to the piece that took it,
// known there and able to beat it, and could have stepped to an empty
// square out of its reach.
func leftToBeTaken(v *game.View, m game.Move, attacker game.Rank) bool {
	if v == nil || !game.Adjacent(m.From, m.To) {
		return false // no turn yet, or taken from afar by a Scout
	}
	taker, mine := v.Board[m.From], v.Board[m.To]
	if !taker.Occupied || taker.Side == mine.Side || taker.Rank != attacker || !mine.Occupied ||
		game.Fight(attacker, mine.Rank) != game.AttackerWon {
		return false
	}
	legal, err := v.LegalMoves()
	if err != nil {
		return false
	}
	for _, l := range legal {
		if l.From == m.To && !v.Board[l.To].Occupied && !game.Adjacent(l.To, m.From) {
			return true
		}
	}
	return false
}

// The classes of pieces battleTally.quiet counts moves of.
const (
	quietWeak   = iota // below a Captain: the Spy, Scouts, Miners, Sergeants and Lieutenants
	quietMiddle        // Captains and Majors
	quietStrong        // Colonels, Generals and the Marshal
	quietClasses
)

var quietClassNames = [quietClasses]string{"below a Captain", "Captains and Majors", "Colonels and stronger"}

// quietClass is the class of quietClasses of a piece of rank r. Other
// variants' pieces (an Infiltrator) count with the middle ones.
func quietClass(r game.Rank) int {
	switch {
	case r == game.Spy || r == game.Scout || r == game.Miner || r == game.Sergeant || r == game.Lieutenant:
		return quietWeak
	case r == game.Colonel || r == game.General || r == game.Marshal:
		return quietStrong
	}
	return quietMiddle
}

// pointsOf is player p's points in the game of r: A's, or B's.
func pointsOf(r arenaRecord, p int) float64 {
	if p == 0 {
		return r.points
	}
	return 1 - r.points
}

// lateFrom is the ply from which lateTaken counts: by then most games have
// lost their opening's pieces, and what is left is hunted.
const lateFrom = 300

// knewTaker reports whether the piece making move m stood, at the victim's
// turn before (v, its view), where the victim knew its rank.
func knewTaker(v *game.View, m game.Move) bool {
	return v != nil && v.Board[m.From].Rank != game.NoRank
}

// beaterLeft reports whether an army still has a piece that beats a piece
// of rank r when it attacks it.
func beaterLeft(army *game.Army, r game.Rank) bool {
	for rk, left := range army {
		if left > 0 && game.Rank(rk).Movable() && game.Fight(game.Rank(rk), r) == game.AttackerWon {
			return true
		}
	}
	return false
}

// threatened counts side's pieces in v, side's view, that stand beside an
// enemy piece whose rank side knows and that beats them when it attacks.
func threatened(v *game.View, side game.Side) int {
	count := 0
	for sq := game.Square(0); sq < game.NumSquares; sq++ {
		mine := v.Board[sq]
		if !mine.Occupied || mine.Side != side {
			continue
		}
		for _, n := range sq.Neighbours() {
			if n == game.NoSquare {
				continue
			}
			e := v.Board[n]
			if e.Occupied && e.Side != side && e.Rank != game.NoRank && e.Rank.Movable() && game.Fight(e.Rank, mine.Rank) == game.AttackerWon {
				count++
				break
			}
		}
	}
	return count
}

// share writes part/whole to two decimals, "-" for no whole.
func share(part, whole int) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(part)/float64(whole))
}

// bracketed writes sum/whole in brackets, "" for no whole.
func bracketed(sum float64, whole int) string {
	if whole == 0 {
		return ""
	}
	return fmt.Sprintf("(%.2f)", sum/float64(whole))
}

func writeBattles(w io.Writer, dir string, recs []arenaRecord) {
	t, err := tallyBattles(recs)
	if err != nil {
		fmt.Fprintf(w, "%s: battles: %v\n", dir, err)
		return
	}
	g := float64(t.games)
	fmt.Fprintf(w, "%s: battles of %s and %s, a game, with the attacker's material won less lost:\n", dir, recs[0].names[0], recs[0].names[1])
	fmt.Fprintf(w, "  %-55s %6s %8s %6s %8s\n", "", "A", "net", "B", "net")
	for k := range battleKinds {
		fmt.Fprintf(w, "  %-55s %6.2f %+8.1f %6.2f %+8.1f\n", battleKindNames[k],
			float64(t.attacks[0][k])/g, float64(t.net[0][k])/g, float64(t.attacks[1][k])/g, float64(t.net[1][k])/g)
		if k == onHiddenMoved {
			fmt.Fprintf(w, "  %-55s %6.2f %+8.1f %6.2f %+8.1f\n", "  of them, with every enemy piece it does not beat known",
				float64(t.fearless[0])/g, float64(t.fearlessNet[0])/g, float64(t.fearless[1])/g, float64(t.fearlessNet[1])/g)
			fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f %8s\n", "    turns with such an attack to make (made)",
				float64(t.fearlessTurns[0])/g, bracketed(float64(t.fearlessTaken[0]), t.fearlessTurns[0]),
				float64(t.fearlessTurns[1])/g, bracketed(float64(t.fearlessTaken[1]), t.fearlessTurns[1]))
			fmt.Fprintf(w, "  %-55s %6.2f %+8.1f %6.2f %+8.1f\n", "  of the rest, the hidden ones it does not beat unmoved",
				float64(t.stillBeaters[0])/g, float64(t.stillBeatersNet[0])/g, float64(t.stillBeaters[1])/g, float64(t.stillBeatersNet[1])/g)
			fmt.Fprintf(w, "  %-55s %6s %8s %6s %8s\n", "  share won (attacking one of them at random)",
				share(t.won[0], t.attacks[0][k]), bracketed(t.atRandom[0], t.attacks[0][k]),
				share(t.won[1], t.attacks[1][k]), bracketed(t.atRandom[1], t.attacks[1][k]))
			fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f %8s\n", "  of them, by a Colonel or stronger (share lost)",
				float64(t.strong[0])/g, bracketed(float64(t.strongLost[0]), t.strong[0]),
				float64(t.strong[1])/g, bracketed(float64(t.strongLost[1]), t.strong[1]))
		}
	}
	fmt.Fprintf(w, "  %-55s %6.2f %8.1f %6.2f %8.1f\n", "pieces left beside a known piece that took them (worth)",
		float64(t.leftLost[0])/g, float64(t.leftWorth[0])/g, float64(t.leftLost[1])/g, float64(t.leftWorth[1])/g)
	fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", "  of them, taken by a piece that did not know them",
		float64(t.leftBlind[0])/g, "", float64(t.leftBlind[1])/g)
	fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", "  of them, in a fork: another beside a known beater",
		float64(t.leftForked[0])/g, "", float64(t.leftForked[1])/g)
	fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f %8s\n", fmt.Sprintf("pieces lost from ply %d to a known taker (beater left)", lateFrom),
		float64(t.lateTaken[0])/g, bracketed(float64(t.lateAnswered[0]), t.lateTaken[0]),
		float64(t.lateTaken[1])/g, bracketed(float64(t.lateAnswered[1]), t.lateTaken[1]))
	for c, name := range quietClassNames {
		fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", "moves without a battle, by pieces "+name,
			float64(t.quiet[0][c])/g, "", float64(t.quiet[1][c])/g)
	}
	fmt.Fprintf(w, "  %-55s %6d %8s %6d %8s\n", "games its Marshal fell to the enemy's attacking (score)",
		t.marshalTraded[0], bracketed(t.tradedPoints[0], t.marshalTraded[0]), t.marshalTraded[1], bracketed(t.tradedPoints[1], t.marshalTraded[1]))
	for k, name := range [offerKinds]string{offerBeats: "hidden moved by known piece it beats", offerBeaten: "hidden moved by known piece beating it"} {
		turnsA, takenA := t.offers[0].sum(k)
		turnsB, takenB := t.offers[1].sum(k)
		fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f %8s\n", name+": turns (attacked)",
			float64(turnsA)/g, bracketed(float64(takenA), turnsA), float64(turnsB)/g, bracketed(float64(takenB), turnsB))
	}
	fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f %8s\n", fmt.Sprintf("pieces lost to raiders, pieces that took %d+ (raiders)", raiderTakes),
		float64(t.raided[0])/g, bracketed(float64(t.raiders[0]), t.games), float64(t.raided[1])/g, bracketed(float64(t.raiders[1]), t.games))
	fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f %8s\n", "Marshal taken by the Spy (share: just after it took)",
		float64(t.spyTook[0])/g, bracketed(float64(t.spyBait[0]), t.spyTook[0]),
		float64(t.spyTook[1])/g, bracketed(float64(t.spyBait[1]), t.spyTook[1]))
	fmt.Fprintf(w, "  %-55s %6.2f %8.2f %6.2f %8.2f\n", "Miners taken by the enemy (lost attacking)",
		float64(t.minersTaken[0])/g, float64(t.minersLost[0])/g, float64(t.minersTaken[1])/g, float64(t.minersLost[1])/g)
	fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", "  of them, moved, at home, by a piece it knew",
		float64(t.minersRaided[0])/g, "", float64(t.minersRaided[1])/g)
	fmt.Fprintf(w, "  %-55s %6d %8s %6d\n", "games lost without a Miner, the enemy keeping a Bomb",
		t.lostMinerless[0], "", t.lostMinerless[1])
	fmt.Fprintf(w, "  %-55s %6d %8s %6d %8s\n", "games lost by the Flag taken (pieces it hid among)",
		t.flagTaken[0], bracketed(float64(t.flagHidAmong[0]), t.flagTaken[0]), t.flagTaken[1], bracketed(float64(t.flagHidAmong[1]), t.flagTaken[1]))
	fmt.Fprintf(w, "  %-55s %6s %8s %6s %8s\n", "  of them, pieces that move left: its, the taker's",
		perGame(t.flagMovable[0][0], t.flagTaken[0]), perGame(t.flagMovable[0][1], t.flagTaken[0]),
		perGame(t.flagMovable[1][0], t.flagTaken[1]), perGame(t.flagMovable[1][1], t.flagTaken[1]))
	fmt.Fprintf(w, "  %-55s %6d %8s %6d\n", "games lost to a Miner taking the Flag",
		t.flagByMiner[0], "", t.flagByMiner[1])
	fmt.Fprintf(w, "  %-55s %6d %8s %6d\n", fmt.Sprintf("  of them, the Miner shown %d or more squares away", shownMinerSteps),
		t.flagByShownMiner[0], "", t.flagByShownMiner[1])
	for m, name := range marshalStateNames {
		fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", "pieces taken by its Marshal or General, the enemy's Marshal "+name,
			float64(t.topTakes[0][m])/g, "", float64(t.topTakes[1][m])/g)
	}
	for i, r := range topPieces {
		fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", fmt.Sprintf("%s first shown attacking below a Colonel (games)", r),
			float64(t.shownCheap[0][i])/g, "", float64(t.shownCheap[1][i])/g)
		fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", fmt.Sprintf("%s first shown attacked (games)", r),
			float64(t.shownAttacked[0][i])/g, "", float64(t.shownAttacked[1][i])/g)
	}
	for i, ply := range netPlies {
		if n := float64(t.netReached[i]); n > 0 {
			fmt.Fprintf(w, "  %-55s %6s %+8.1f %6s %+8.1f\n", fmt.Sprintf("all battles by ply %d (games: %d)", ply, t.netReached[i]),
				"", float64(t.netBy[0][i])/n, "", float64(t.netBy[1][i])/n)
		}
	}
	for i, ply := range unseenPlies {
		if n := float64(t.reached[i]); n > 0 {
			fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", fmt.Sprintf("moved pieces not seen fighting, at ply %d (games: %d)", ply, t.reached[i]),
				float64(t.unseen[0][i])/n, "", float64(t.unseen[1][i])/n)
			fmt.Fprintf(w, "  %-55s %6.2f %8s %6.2f\n", fmt.Sprintf("pieces that can move, never moved, not seen, at ply %d", ply),
				float64(t.still[0][i])/n, "", float64(t.still[1][i])/n)
			fmt.Fprintf(w, "  %-55s %6.2f %8.2f %6.2f %8.2f\n", fmt.Sprintf("Colonels and stronger not seen (left), at ply %d", ply),
				float64(t.strongHidden[0][i])/n, float64(t.strongLeft[0][i])/n, float64(t.strongHidden[1][i])/n, float64(t.strongLeft[1][i])/n)
		}
	}
}
