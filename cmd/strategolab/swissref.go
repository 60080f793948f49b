package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/tournament"
)

const swissRefUsage = `usage: strategolab swiss-reference -bbp PATH [-n EVENTS] [-players N] [-rounds R] [-seed S] [-draws P] [-withdrawals P] [-examples K] [-keep DIR]

Measures how often the Swiss pairings of the tournament package agree with
bbpPairings, an independent implementation of FIDE's Dutch system
(github.com/BieremaBoyzProgramming/bbpPairings, built apart: -bbp names its
executable). It plays random Swiss events with the package — random
ratings, random results with some draws, a few withdrawals during a round —
and before each round writes the event so far as a TRF file, asks
bbpPairings for the round's pairing and pairs it as the bot does
(NextRound, which looks ahead) and without looking ahead (PairSwissRound
with no later rounds). Each round counts as identical (same pairs, same
colours), same pairs with other colours, or different pairs. The events go on with the bot's pairings. It
prints the counts, the share identical by round, the rounds of different
pairs by kind, and a few of them, each player with their score.

Flags:
`

type swissRefConfig struct {
	bbp                string
	events, players    int
	rounds, examples   int
	seed               uint64
	draws, withdrawals float64
	keep               string
	workDir            string // where the TRF files go while running
}

func swissRefFlags(c *swissRefConfig, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("swiss-reference", swissRefUsage, w)
	fs.StringVar(&c.bbp, "bbp", "", "the bbpPairings executable (bbpPairings.exe as its makefile names it)")
	fs.IntVar(&c.events, "n", 200, "how many events to play")
	fs.IntVar(&c.players, "players", 9, "players who join each event")
	fs.IntVar(&c.rounds, "rounds", 5, "rounds of each event (capped as the package caps them)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random events")
	fs.Float64Var(&c.draws, "draws", 0.15, "the chance that a game is drawn")
	fs.Float64Var(&c.withdrawals, "withdrawals", 0.05, "the chance, each round, that a player withdraws while it is played")
	fs.IntVar(&c.examples, "examples", 3, "how many rounds that differ to print")
	fs.StringVar(&c.keep, "keep", "", "a folder to keep the TRF file of each round that differs in")
	return fs
}

func parseSwissRefArgs(args []string, help io.Writer) (swissRefConfig, error) {
	var c swissRefConfig
	if err := cli.ParseFlags(swissRefFlags(&c, help), args); err != nil {
		return c, err
	}
	switch {
	case c.bbp == "":
		return c, errors.New("-bbp names the bbpPairings executable")
	case c.events < 1:
		return c, fmt.Errorf("-n must be at least 1, not %d", c.events)
	case c.players < 2 || c.players > 999:
		return c, fmt.Errorf("-players must be from 2 to 999, not %d", c.players)
	case c.rounds < 1 || c.rounds > tournament.MaxSwissRounds:
		return c, fmt.Errorf("-rounds must be from 1 to %d, not %d", tournament.MaxSwissRounds, c.rounds)
	case c.draws < 0 || c.draws > 1 || c.withdrawals < 0 || c.withdrawals > 1:
		return c, errors.New("-draws and -withdrawals are chances, from 0 to 1")
	case c.examples < 0:
		return c, fmt.Errorf("-examples must not be negative, not %d", c.examples)
	}
	return c, nil
}

func runSwissRef(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseSwissRefArgs(args, stdout)
	if err != nil {
		return cli.UsageFailed(stderr, "strategolab swiss-reference", swissRefUsage, err)
	}
	if c.keep != "" {
		if err := os.MkdirAll(c.keep, 0o755); err != nil {
			fmt.Fprintf(stderr, "strategolab swiss-reference: -keep: %v\n", err)
			return 2
		}
	}
	if c.workDir, err = os.MkdirTemp("", "swiss-reference"); err != nil {
		fmt.Fprintln(stderr, "strategolab swiss-reference:", err)
		return 1
	}
	defer os.RemoveAll(c.workDir)
	var tally swissRefTally
	for event := range c.events {
		if err := ctx.Err(); err != nil {
			fmt.Fprintln(stderr, "strategolab swiss-reference:", err)
			return 1
		}
		if err := playReferenceEvent(ctx, c, event, &tally, stdout); err != nil {
			fmt.Fprintf(stderr, "strategolab swiss-reference: event %d: %v\n", event+1, err)
			return 1
		}
	}
	tally.write(stdout, c)
	return 0
}

// agreement is how a round's pairing compares with bbpPairings'.
type agreement uint8

const (
	identical    agreement = iota // same pairs, same colours
	otherColours                  // same pairs (and bye), some with colours swapped
	otherPairs                    // some pair or the bye differs
	noPairing                     // one of the two found no pairing
	numAgreements
)

var agreementNames = [numAgreements]string{"identical", "same pairs, other colours", "different pairs", "no pairing from one side"}

// swissRefTally counts the rounds compared, for the bot's pairing (ahead)
// and for PairSwissRound without looking ahead (plain).
type swissRefTally struct {
	events, rounds int
	ahead, plain   [numAgreements]int
	shown          int // rounds that differ printed as examples
	// byRound counts, for each round number, the rounds compared and
	// those NextRound pairs as bbpPairings does.
	byRound [][2]int
	// kinds counts the rounds of different pairs (NextRound's) by kind.
	kinds [numDiffKinds]int
}

func (t swissRefTally) write(w io.Writer, c swissRefConfig) {
	fmt.Fprintf(w, "%d events of %d players, %d rounds asked for, seed %d: %d rounds compared with bbpPairings\n",
		t.events, c.players, c.rounds, c.seed, t.rounds)
	for _, row := range []struct {
		name   string
		counts [numAgreements]int
	}{{"NextRound (as the bot pairs)", t.ahead}, {"PairSwissRound (no look-ahead)", t.plain}} {
		fmt.Fprintf(w, "%s:\n", row.name)
		for a, n := range row.counts {
			if n > 0 || agreement(a) != noPairing {
				fmt.Fprintf(w, "  %-28s %5d  %5.1f%%\n", agreementNames[a], n, percent(n, t.rounds))
			}
		}
	}
	fmt.Fprintf(w, "NextRound identical, by round:")
	for r, n := range t.byRound {
		fmt.Fprintf(w, " %d: %.0f%%", r+1, percent(n[1], n[0]))
	}
	fmt.Fprintf(w, "\nNextRound's different pairs, by kind:\n")
	for k, n := range t.kinds {
		fmt.Fprintf(w, "  %-52s %5d\n", diffKindNames[k], n)
	}
}

// countRound counts the round after rounds, identical or not.
func (t *swissRefTally) countRound(rounds []tournament.Round, identical bool) {
	r := len(rounds)
	for len(t.byRound) <= r {
		t.byRound = append(t.byRound, [2]int{})
	}
	t.byRound[r][0]++
	if identical {
		t.byRound[r][1]++
	}
}

// diffKind is how two pairings of different pairs differ, the first of
// these that holds.
type diffKind uint8

const (
	otherBye      diffKind = iota // the bye goes to another player
	fewerMixed                    // ours has fewer pairs across score groups
	moreMixed                     // ours has more pairs across score groups
	otherFloats                   // as many, but other score differences
	otherPartners                 // the same score differences: partners within groups differ
	numDiffKinds
)

var diffKindNames = [numDiffKinds]string{
	"the bye to another player",
	"fewer pairs across score groups than bbpPairings",
	"more pairs across score groups than bbpPairings",
	"as many across groups, other score differences",
	"the same score differences, other partners",
}

// kindOfDifference says how our pairing differs from theirs, score being
// the players' scores before the round.
func kindOfDifference(ours, theirs []tournament.Pairing, score map[string]tournament.Points) diffKind {
	oursBye, oursDiffs := floats(ours, score)
	theirsBye, theirsDiffs := floats(theirs, score)
	switch {
	case oursBye != theirsBye:
		return otherBye
	case len(oursDiffs) < len(theirsDiffs):
		return fewerMixed
	case len(oursDiffs) > len(theirsDiffs):
		return moreMixed
	case !slices.Equal(oursDiffs, theirsDiffs):
		return otherFloats
	}
	return otherPartners
}

// floats returns who has the bye and the score differences of the pairs
// across score groups, sorted.
func floats(ps []tournament.Pairing, score map[string]tournament.Points) (bye string, diffs []tournament.Points) {
	for _, p := range ps {
		if p.IsBye() {
			bye = p.Red
			continue
		}
		if d := score[p.Red] - score[p.Blue]; d != 0 {
			diffs = append(diffs, max(d, -d))
		}
	}
	slices.Sort(diffs)
	return bye, diffs
}

// scores returns the score of each player still in.
func scores(t *tournament.Tournament) map[string]tournament.Points {
	score := map[string]tournament.Points{}
	for _, p := range t.SwissPlayers() {
		score[p.ID] = p.Score
	}
	return score
}

func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// playReferenceEvent plays one random event, comparing each round's
// pairing with bbpPairings'.
func playReferenceEvent(ctx context.Context, c swissRefConfig, event int, tally *swissRefTally, stdout io.Writer) error {
	rng := rand.New(rand.NewPCG(c.seed, uint64(event)))
	t, err := tournament.New(tournament.DefaultRules(tournament.Swiss, c.rounds))
	if err != nil {
		return err
	}
	for i := range c.players {
		if err := t.Apply(tournament.Join(fmt.Sprintf("p%02d", i+1), 1000+rng.IntN(1400))); err != nil {
			return err
		}
	}
	tally.events++
	for round := 1; ; round++ {
		ev, err := t.NextRound()
		if errors.Is(err, tournament.ErrOver) || (err != nil && len(t.Active()) < 2) {
			return nil
		}
		if err := compareRound(ctx, c, t, ev, err, tally, stdout, fmt.Sprintf("event %d round %d", event+1, round)); err != nil {
			return err
		}
		if ev.Kind != tournament.Paired {
			return nil // the bot found no pairing: the event stops here
		}
		if err := t.Apply(ev); err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		if err := playRound(t, rng, c.draws, c.withdrawals); err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
	}
}

// compareRound asks bbpPairings for the round that ev (or pairErr) pairs and
// counts how the two agree.
func compareRound(ctx context.Context, c swissRefConfig, t *tournament.Tournament, ev tournament.Event, pairErr error, tally *swissRefTally, stdout io.Writer, where string) error {
	trf, seeds, err := writeTRF(t, where)
	if err != nil {
		return err
	}
	theirs, err := runBBP(ctx, c.bbp, c.workDir, trf, seeds)
	if err != nil && !errors.Is(err, errBBPNoPairing) {
		return err
	}
	round := t.NextSwissRound()
	round.Later = 0
	plain, plainErr := tournament.PairSwissRound(t.SwissPlayers(), round)
	tally.rounds++
	a := agree(ev.Games, pairErr, theirs, err)
	tally.ahead[a]++
	tally.countRound(t.Rounds(), a == identical)
	if a == otherPairs {
		tally.kinds[kindOfDifference(ev.Games, theirs, scores(t))]++
	}
	tally.plain[agree(plain, plainErr, theirs, err)]++
	if a == identical {
		return nil
	}
	if c.keep != "" {
		name := filepath.Join(c.keep, strings.ReplaceAll(where, " ", "-")+".trf")
		if err := os.WriteFile(name, trf, 0o644); err != nil {
			return err
		}
	}
	if tally.shown < c.examples && a != otherColours {
		tally.shown++
		fmt.Fprintf(stdout, "%s (%s):\n  strategobot  %s\n  bbpPairings  %s\n", where, agreementNames[a],
			describePairing(ev.Games, pairErr, t), describePairing(theirs, err, t))
	}
	return nil
}

// agree classifies our pairing against theirs, either of which may be an
// error (no pairing).
func agree(ours []tournament.Pairing, oursErr error, theirs []tournament.Pairing, theirsErr error) agreement {
	switch {
	case oursErr != nil && theirsErr != nil:
		return identical
	case oursErr != nil || theirsErr != nil:
		return noPairing
	}
	return comparePairings(ours, theirs)
}

// comparePairings says whether two pairings of a round have the same pairs
// (the bye as a pair of one) and the same colours.
func comparePairings(ours, theirs []tournament.Pairing) agreement {
	if len(ours) != len(theirs) {
		return otherPairs
	}
	exact, pairs := map[[2]string]bool{}, map[[2]string]bool{}
	for _, p := range ours {
		exact[[2]string{p.Red, p.Blue}] = true
		pairs[pairKey(p)] = true
	}
	a := identical
	for _, p := range theirs {
		switch {
		case !pairs[pairKey(p)]:
			return otherPairs
		case !exact[[2]string{p.Red, p.Blue}]:
			a = otherColours
		}
	}
	return a
}

// pairKey names a pair whatever its colours.
func pairKey(p tournament.Pairing) [2]string {
	if p.Blue != "" && p.Blue < p.Red {
		return [2]string{p.Blue, p.Red}
	}
	return [2]string{p.Red, p.Blue}
}

// describePairing writes a round's pairs as "Red–Blue", each player with
// their score, the bye last.
func describePairing(ps []tournament.Pairing, err error, t *tournament.Tournament) string {
	if err != nil {
		return "no pairing: " + err.Error()
	}
	score := scores(t)
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b tournament.Pairing) int { return boolCmp(a.IsBye(), b.IsBye()) })
	parts := make([]string, len(sorted))
	for i, p := range sorted {
		if p.IsBye() {
			parts[i] = fmt.Sprintf("bye %s(%s)", p.Red, score[p.Red])
			continue
		}
		parts[i] = fmt.Sprintf("%s(%s)–%s(%s)", p.Red, score[p.Red], p.Blue, score[p.Blue])
	}
	return strings.Join(parts, " ")
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// playRound gives every game of the round just paired a random result:
// Red or Blue wins, or (with the chance draws) a draw. With the chance
// withdrawals, a player withdraws first, forfeiting their game.
func playRound(t *tournament.Tournament, rng *rand.Rand, draws, withdrawals float64) error {
	if active := t.Active(); len(active) > 2 && rng.Float64() < withdrawals {
		if err := t.Apply(tournament.Withdraw(active[rng.IntN(len(active))], tournament.WithdrewByChoice)); err != nil {
			return err
		}
	}
	rounds := t.Rounds()
	r := rounds[len(rounds)-1]
	for _, b := range r.Pending() {
		res := tournament.RedWon
		switch x := rng.Float64(); {
		case x < draws:
			res = tournament.Drawn
		case x < draws+(1-draws)/2:
			res = tournament.BlueWon
		}
		if err := t.Apply(tournament.Record(r.Number, b+1, res)); err != nil {
			return err
		}
	}
	return nil
}

// errBBPNoPairing: bbpPairings found no legal pairing (its exit code 1).
var errBBPNoPairing = errors.New("bbpPairings found no legal pairing")

// runBBP asks bbpPairings to pair the next round of the event in trf;
// seeds maps its pairing numbers to the players.
func runBBP(ctx context.Context, bbp, dir string, trf []byte, seeds []string) ([]tournament.Pairing, error) {
	in, out := filepath.Join(dir, "event.trf"), filepath.Join(dir, "pairing.txt")
	if err := os.WriteFile(in, trf, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bbp, "--dutch", in, "-p", out)
	msg, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return nil, errBBPNoPairing
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", bbp, err, strings.TrimSpace(string(msg)))
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := parseBBPPairing(f, seeds)
	if err != nil {
		return nil, fmt.Errorf("bbpPairings' output: %w", err)
	}
	return ps, nil
}

// parseBBPPairing reads bbpPairings' pairing of a round: the number of
// pairs, then a line "WHITE BLACK" of pairing numbers for each, BLACK 0 for
// the bye. seeds[n-1] is the player of pairing number n; White is Red.
func parseBBPPairing(r io.Reader, seeds []string) ([]tournament.Pairing, error) {
	sc := bufio.NewScanner(r)
	var lines []string
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, errors.New("empty")
	}
	n, err := strconv.Atoi(lines[0])
	if err != nil || n != len(lines)-1 {
		return nil, fmt.Errorf("first line %q is not the number of the %d pairs that follow", lines[0], len(lines)-1)
	}
	player := func(field string, byeOK bool) (string, error) {
		k, err := strconv.Atoi(field)
		switch {
		case err == nil && k == 0 && byeOK:
			return "", nil
		case err != nil || k < 1 || k > len(seeds):
			return "", fmt.Errorf("%q is not a pairing number from 1 to %d", field, len(seeds))
		}
		return seeds[k-1], nil
	}
	ps := make([]tournament.Pairing, 0, n)
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("line %q is not two pairing numbers", line)
		}
		red, err := player(f[0], false)
		if err != nil {
			return nil, err
		}
		blue, err := player(f[1], true)
		if err != nil {
			return nil, err
		}
		ps = append(ps, tournament.Pairing{Red: red, Blue: blue})
	}
	return ps, nil
}

// writeTRF writes the event so far in FIDE's Tournament Report File format
// (TRF-16 with the XXR and XXC codes of TRF(x)), ready for its next round
// to be paired: pairing numbers are the seeds (before round 1, as the first
// pairing will fix them), White is Red, and a withdrawn player is absent
// ("0000 - -") from every round after their last game and from the next.
// It returns the file and the player of each pairing number.
func writeTRF(t *tournament.Tournament, title string) ([]byte, []string, error) {
	players := seeded(t.Players())
	seedOf := make(map[string]int, len(players))
	seeds := make([]string, len(players))
	for i, p := range players {
		seedOf[p.ID], seeds[i] = i+1, p.ID
	}
	rules, rounds := t.Rules(), t.Rounds()
	total := t.TotalRounds()
	if len(rounds) == 0 {
		total = min(rules.Rounds, tournament.SwissRoundsAtMost(len(players)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "012 %s\nXXR %d\nXXC white1\n", title, total)
	for i, p := range players {
		var cells strings.Builder
		var score tournament.Points
		for _, r := range rounds {
			cell, pts, err := trfCell(r, p.ID, seedOf, rules)
			if err != nil {
				return nil, nil, fmt.Errorf("round %d: %w", r.Number, err)
			}
			cells.WriteString(cell)
			score += pts
		}
		if p.Withdrawn {
			cells.WriteString("  0000 - -")
		}
		fmt.Fprintf(&b, "001 %4d %-4s %-33.33s %4d %-3s %11s %10s %4.1f %4d%s\n",
			i+1, "", p.ID, p.Rating, "", "", "", float64(score)/2, i+1, cells.String())
	}
	return []byte(b.String()), seeds, nil
}

// seeded returns the players in seed order: as the tournament has them once
// it has begun, by rating then order of joining before.
func seeded(players []tournament.Player) []tournament.Player {
	if len(players) > 0 && players[0].Seed == 0 {
		slices.SortStableFunc(players, func(a, b tournament.Player) int { return b.Rating - a.Rating })
	}
	return players
}

// trfCell writes a player's round as the ten columns of a TRF player line
// ("  OOOO C R": opponent, colour, result) and the points it gave them.
func trfCell(r tournament.Round, id string, seedOf map[string]int, rules tournament.Rules) (string, tournament.Points, error) {
	for _, g := range r.Games {
		colour, ok := g.ColourOf(id)
		if !ok {
			continue
		}
		if g.IsBye() {
			return "  0000 - U", rules.Bye, nil
		}
		red, blue := g.Result.Points(rules)
		code, err := trfResult(g.Result, colour)
		if err != nil {
			return "", 0, err
		}
		pts, c := red, 'w'
		if colour == tournament.Blue {
			pts, c = blue, 'b'
		}
		return fmt.Sprintf("  %4d %c %c", seedOf[g.Opponent(id)], c, code), pts, nil
	}
	return "  0000 - -", 0, nil // withdrawn before the round
}

// trfResult is the TRF code of a game's result for the player of colour.
func trfResult(r tournament.Result, colour tournament.Colour) (byte, error) {
	red := map[tournament.Result][2]byte{
		tournament.RedWon:        {'1', '0'},
		tournament.BlueWon:       {'0', '1'},
		tournament.Drawn:         {'=', '='},
		tournament.RedForfeited:  {'-', '+'},
		tournament.BlueForfeited: {'+', '-'},
		tournament.DoubleForfeit: {'-', '-'},
	}
	codes, ok := red[r]
	if !ok {
		return 0, fmt.Errorf("no TRF code for a game %s", r)
	}
	if colour == tournament.Blue {
		return codes[1], nil
	}
	return codes[0], nil
}
