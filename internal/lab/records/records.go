// Package records reads Gravon game records for the computer's lab: from
// zip archives or XML files, one variant at a time, and replays them.
package records

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/strategobot/strategobot/game"
)

// Named is one game read from a file, named by the file (and the entry of
// a zip archive).
type Named struct {
	Name   string
	Record *game.Record
}

// Read reads the records of variant v in the files, zip archives of
// Gravon XML records or XML records, in the order given (a zip archive's
// entries in archive order). Records of other variants, or that cannot be
// read, are counted in skipped by reason.
func Read(files []string, v game.Variant) (recs []Named, skipped map[string]int, err error) {
	skipped = map[string]int{}
	add := func(name string, r io.Reader) {
		rec, err := game.ParseGravon(r)
		var unsup *game.UnsupportedError
		switch {
		case errors.As(err, &unsup):
			skipped[unsup.Reason]++
		case err != nil:
			skipped["unreadable"]++
		case rec.Rules.Variant != v:
			skipped["not "+v.String()]++
		default:
			recs = append(recs, Named{Name: name, Record: rec})
		}
	}
	for _, path := range files {
		if strings.EqualFold(filepath.Ext(path), ".zip") {
			zr, err := zip.OpenReader(path)
			if err != nil {
				return nil, nil, err
			}
			for _, f := range zr.File {
				if f.FileInfo().IsDir() || !strings.EqualFold(filepath.Ext(f.Name), ".xml") {
					continue
				}
				rc, err := f.Open()
				if err != nil {
					zr.Close()
					return nil, nil, fmt.Errorf("%s/%s: %w", path, f.Name, err)
				}
				add(path+"/"+f.Name, rc)
				rc.Close()
			}
			zr.Close()
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		add(path, f)
		f.Close()
	}
	return recs, skipped, nil
}

// ReplayRules are the rules a record is replayed with: its own, without the
// repetition rules, which changed over the years on Gravon (every Classic
// game of the archive replays without an illegal move so).
func ReplayRules(rec *game.Record) game.Rules {
	rules := game.DefaultRules(rec.Rules.Variant)
	rules.Army = rec.Rules.Army
	rules.ScoutStrikesAtRange = rec.Rules.ScoutStrikesAtRange
	rules.TwoSquares = 0
	rules.MoreSquares = false
	return rules
}

// Positions replays rec and calls visit with the game after each of plies
// (ascending) that the game reaches. It stops at the first move the rules
// refuse and returns that error.
func Positions(rec *game.Record, plies []int, visit func(ply int, g *game.Game) error) error {
	g, err := game.NewGame(ReplayRules(rec), rec.Setups[game.Red], rec.Setups[game.Blue])
	if err != nil {
		return err
	}
	next := 0
	for i := 0; i <= len(rec.Moves) && next < len(plies); i++ {
		if i == plies[next] {
			if err := visit(i, g); err != nil {
				return err
			}
			next++
		}
		if i == len(rec.Moves) || g.Result().Over() {
			break
		}
		if _, err := g.Apply(rec.Moves[i]); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return nil
}

// HeldOut reports whether the Gravon archive file path (a monthly zip, or a
// record inside one) belongs to the held-out part: never fitted on.
func HeldOut(path string) bool {
	for _, m := range heldOutMonths {
		if strings.Contains(filepath.ToSlash(path), m) {
			return true
		}
	}
	return false
}

var heldOutMonths = []string{"strados2014-2.zip", "strados2014-3.zip"}

// FitOnly refuses a list of files to fit a model on that names a held-out
// one, so that a figure measured on the held-out months stays a measure of
// games the model has never seen.
func FitOnly(paths []string) error {
	for _, p := range paths {
		if HeldOut(p) {
			return fmt.Errorf("%s is held out for scoring: fit on the other files", p)
		}
	}
	return nil
}
