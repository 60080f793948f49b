package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/internal/lab/published"
	"github.com/strategobot/strategobot/internal/lab/records"
)

const demonSetupsUsage = `usage: strategolab demon-setups -o FILE [-far] RECORD...
       strategolab demon-setups -o FILE -random N

Writes the Classic set-ups of Gravon records (zip archives or XML files) that
are not published (neither a set-up of game.PublishedSetups nor its mirror
image), each once (a set-up and its mirror image count as one), in the order
of the records, Red's before Blue's, as a set-up file of Demon of Ignorance:
for each set-up, 40 pairs of bytes, the column (0 to 9) and the row (0, the
back row, to 3) of each piece in the order of Demon's tray: Flag, Spy,
Marshal, General, Colonels, Majors, Captains, Lieutenants, Sergeants,
Miners, Scouts, Bombs. An ai.cfg line "FILE,N" makes Demon set up with the
N-th (docs/COMPUTER.md tells how the lab uses it). With -far, only the
set-ups that differ from every published one and its mirror image in 11 or
more squares are written: those recognition has next to nothing to read.
With -random N, no records: N Classic set-ups of the Random button
(game.RandomSetup with seeds 1 to N), those a member who does not set up by
hand plays with.

Flags:
`

// demonTray is the order in which Demon of Ignorance places its pieces.
var demonTray = [...]game.Rank{game.Flag, game.Spy, game.Marshal, game.General, game.Colonel, game.Major,
	game.Captain, game.Lieutenant, game.Sergeant, game.Miner, game.Scout, game.Bomb}

// demonSetupSize is the bytes of one set-up in Demon's file.
const demonSetupSize = 2 * game.SetupRows * 10

func demonSetupsFlags(out *string, far *bool, random *int, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet("demon-setups", demonSetupsUsage, w)
	fs.StringVar(out, "o", "", "the file to write (required)")
	fs.BoolVar(far, "far", false, fmt.Sprintf("only set-ups %d or more squares from every published one", published.FarFrom))
	fs.IntVar(random, "random", 0, "instead of records' set-ups, this many of the Random button's")
	return fs
}

func runDemonSetups(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var out string
	var far bool
	var random int
	files, err := cli.ParseInterleaved(demonSetupsFlags(&out, &far, &random, stdout), args)
	switch {
	case err != nil:
	case random < 0:
		err = errors.New("-random takes how many set-ups to write: 1 or more")
	case random > 0 && (len(files) > 0 || far):
		err = errors.New("-random writes the Random button's set-ups: give it no records and no -far")
	case random == 0:
		err = atLeastOneRecord(len(files))
	}
	if err == nil && out == "" {
		err = errors.New("name the file to write with -o FILE")
	}
	if err != nil {
		return cli.UsageFailed(stderr, "strategolab demon-setups", demonSetupsUsage, err)
	}
	if random > 0 {
		list := randomSetups(random)
		if err := writeDemonSetups(out, list); err != nil {
			fmt.Fprintln(stderr, "strategolab demon-setups:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %d set-ups of the Random button to %s\n", len(list), out)
		return 0
	}
	recs, _, err := records.Read(files, game.VariantClassic)
	if err != nil {
		fmt.Fprintln(stderr, "strategolab demon-setups:", err)
		return 1
	}
	nearest := 1
	if far {
		nearest = published.FarFrom
	}
	list, skipped, err := unpublishedSetups(ctx, recs, nearest)
	if err != nil {
		fmt.Fprintln(stderr, "strategolab demon-setups:", err)
		return 1
	}
	if err := writeDemonSetups(out, list); err != nil {
		fmt.Fprintln(stderr, "strategolab demon-setups:", err)
		return 1
	}
	near := ""
	if far {
		near = fmt.Sprintf(", %d near a published one", skipped.near)
	}
	fmt.Fprintf(stdout, "wrote %d set-ups to %s (left out: %d published%s, %d seen before, %d not a full Classic army)\n",
		len(list), out, skipped.published, near, skipped.repeated, skipped.invalid)
	return 0
}

// randomSetups returns n Classic set-ups of the Random button, drawn with
// seeds 1 to n.
func randomSetups(n int) []game.Setup {
	rules := game.DefaultRules(game.VariantClassic)
	list := make([]game.Setup, n)
	for i := range list {
		list[i] = game.RandomSetup(rules, uint64(i+1))
	}
	return list
}

// setupSkips counts the set-ups unpublishedSetups left out, by reason.
type setupSkips struct{ published, near, repeated, invalid int }

// unpublishedSetups returns the records' set-ups that differ from every
// published one and its mirror image in at least nearest squares (1: all
// that are not published), each once, a set-up and its mirror image counted
// as one.
func unpublishedSetups(ctx context.Context, recs []records.Named, nearest int) ([]game.Setup, setupSkips, error) {
	rules := game.DefaultRules(game.VariantClassic)
	sets := published.NewIndex()
	seen := map[game.Setup]bool{}
	var list []game.Setup
	var skipped setupSkips
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return nil, skipped, err
		}
		for _, s := range r.Record.Setups {
			if s.Validate(rules) != nil {
				skipped.invalid++
				continue
			}
			if seen[s] || seen[s.Mirror()] {
				skipped.repeated++
				continue
			}
			d, _, err := sets.Nearest(game.VariantClassic, s)
			if err != nil {
				return nil, skipped, err
			}
			switch {
			case d == 0:
				skipped.published++
				continue
			case d < nearest:
				skipped.near++
				continue
			}
			seen[s] = true
			list = append(list, s)
		}
	}
	return list, skipped, nil
}

// demonSetup encodes s as Demon places it when it plays Red: its back row
// is Demon's row 0, and column 0 stays column 0. (Playing Blue, Demon sets
// up the mirror image.)
func demonSetup(s *game.Setup) []byte {
	b := make([]byte, 0, demonSetupSize)
	var placed [game.SetupRows][10]bool
	for _, r := range demonTray {
		for row := game.SetupRows - 1; row >= 0; row-- {
			for col := range s[row] {
				if s[row][col] == r && !placed[row][col] {
					placed[row][col] = true
					b = append(b, byte(col), byte(game.SetupRows-1-row))
				}
			}
		}
	}
	return b
}

func writeDemonSetups(path string, list []game.Setup) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for i := range list {
		if _, err := w.Write(demonSetup(&list[i])); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
