package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
)

// demoCustomArmy is the army of Custom games played by demo and arena.
const demoCustomArmy = "10 9 8 8 3 3 2 2 2 S I B B F"

// variantHelp describes the -variant flag of demo and arena.
const variantHelp = "classic, barrage, duel, infiltrator or custom (" + demoCustomArmy + ")"

// subcommandFlags is the flag set of a subcommand whose -h prints usage and
// the flags to stderr.
func subcommandFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and refuses anything left after the flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// usageFailed reports a bad command line: it returns the exit status, 0 for
// -h (the usage is already printed) and 2 otherwise, after printing err and
// the usage.
func usageFailed(stderr io.Writer, name, usage string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "strategobot %s: %v\n\n", name, err)
	fmt.Fprint(stderr, usage)
	return 2
}

// variantRules returns the default rules of a variant named on the command
// line; Custom gets demoCustomArmy.
func variantRules(name string) (game.Rules, error) {
	v, err := game.ParseVariant(name)
	if err != nil {
		return game.Rules{}, err
	}
	rules := game.DefaultRules(v)
	if v == game.VariantCustom {
		if rules.Army, err = game.ParseArmy(demoCustomArmy, game.NumberingModern); err != nil {
			return game.Rules{}, err
		}
	}
	return rules, nil
}
