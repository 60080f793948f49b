package game

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math/rand/v2"
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
	//go:embed setups/classic-all.dat.gz
	classicAllSetupData []byte
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
	// known holds every listed set-up and its mirror image: the generator
	// never hands one out.
	known map[Setup]bool
	// classicFlags and barrageFlags count the Flags on each square.
	classicFlags, barrageFlags *flagSquares
}

// flagSquares returns the Flag squares of v's real set-ups (Classic's for
// every variant but Barrage).
func (rs *realSetups) flagSquares(v Variant) *flagSquares {
	if v == VariantBarrage {
		return rs.barrageFlags
	}
	return rs.classicFlags
}

var loadRealSetups = sync.OnceValue(func() *realSetups {
	rs := &realSetups{}
	rs.classic, rs.skippedClassic = decodeSetups(classicSetupData, DefaultRules(VariantClassic))
	rs.barrage, rs.skippedBarrage = decodeSetups(barrageSetupData, DefaultRules(VariantBarrage))
	rs.classicFlags, rs.barrageFlags = flagSquaresOf(rs.classic, 0), flagSquaresOf(rs.barrage, barrageFlagSpread)
	rs.known = make(map[Setup]bool, 2*(len(rs.classic)+len(rs.barrage)))
	for _, list := range [][]Setup{rs.classic, rs.barrage} {
		for _, s := range list {
			rs.known[s] = true
			rs.known[s.Mirror()] = true
		}
	}
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
//
// They shape the statistics of RandomSetup and a computer player's beliefs;
// RandomSetup never returns one of them.
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

// PublishedSetups returns the whole collection of set-ups that real players
// chose on Gravon, as published by Ataraxos: 64,920 Classic set-ups for
// VariantClassic (RealSetups is every 32nd of them), 3,944 Barrage set-ups
// for VariantBarrage (the same as RealSetups). Other variants have none: nil.
// Anyone can read this collection, so a computer player may use it to
// recognise an opponent's set-up, as a strong player recognises a well-known
// one.
//
// It decodes the collection on every call (about 3 MB): keep the result.
func PublishedSetups(v Variant) ([]Setup, error) {
	switch v {
	case VariantClassic:
		zr, err := gzip.NewReader(bytes.NewReader(classicAllSetupData))
		if err != nil {
			return nil, fmt.Errorf("reading the embedded Classic set-ups: %w", err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			return nil, fmt.Errorf("reading the embedded Classic set-ups: %w", err)
		}
		setups, skipped := decodeSetups(string(data), DefaultRules(VariantClassic))
		if skipped > 0 {
			return nil, fmt.Errorf("the embedded Classic set-ups hold %d invalid lines", skipped)
		}
		return setups, nil
	case VariantBarrage:
		return RealSetups(v), nil
	}
	return nil, nil
}

// setupStream is the PCG stream of RandomSetup, so that its numbers differ from
// other users of the same seed.
const setupStream = 0x5e7ab5e7ab5e7ab5

// RandomSetup returns a new set-up for rules with the look of real players'
// ones, the same for the same seed. It is drawn from a model of where real
// players put each rank and which ranks they put next to which (see
// setupgen.go), never copied: it is never one of RealSetups or a mirror image
// of one. An army of Classic's size is placed by the model of Classic
// set-ups; a small army (Barrage, Duel, most Custom ones) by the model of
// Barrage set-ups, its ranks that Barrage lacks standing in for Barrage's. At
// least one piece can move at move 0 whenever the army has a movable piece.
//
// The seed is the whole secret: whoever knows it knows the set-up, so it must
// come from a secret random source.
//
// The set-up is valid whenever rules passes Rules.Validate. For rules that do
// not, it places what fits and never panics.
func RandomSetup(rules Rules, seed uint64) Setup {
	rng := rand.New(rand.NewPCG(seed, setupStream))
	return generateSetup(rules.Army, rng)
}
