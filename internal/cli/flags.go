package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// NewFlagSet is the flag set of a command whose -h prints usage and the
// flags to w.
func NewFlagSet(name, usage string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprint(w, usage)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args into fs without printing anything for a bad command
// line: the error is returned, for UsageFailed to say once. -h, which
// asks for the usage, prints it (fs.Usage) and returns flag.ErrHelp.
func Parse(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	if errors.Is(err, flag.ErrHelp) {
		usage()
	}
	return err
}

// ParseFlags parses args and refuses anything left after the flags.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// ParseInterleaved parses flags that may come before, between or after the
// operands, and returns the operands.
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := Parse(fs, args); err != nil {
			return operands, err
		}
		if fs.NArg() == 0 {
			return operands, nil
		}
		operands = append(operands, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// UsageFailed reports a bad command line of command (such as "strategobot
// replay"): it returns the exit status, 0 for -h (the usage is already
// printed) and 2 otherwise, after printing err once, the usage's first
// lines (its synopsis) and where to read the rest.
func UsageFailed(stderr io.Writer, command, usage string, err error) int {
	return usageFailed(stderr, command, usage, err, command+" -h describes every flag.")
}

// NoFlagsFailed is UsageFailed for a command that has no flags: its -h
// describes the command, not flags it does not have.
func NoFlagsFailed(stderr io.Writer, command, usage string, err error) int {
	return usageFailed(stderr, command, usage, err, command+" -h describes it.")
}

// usageFailed is UsageFailed, ending with where to read the rest (more).
func usageFailed(stderr io.Writer, command, usage string, err error, more string) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	synopsis, _, _ := strings.Cut(usage, "\n\n")
	fmt.Fprintf(stderr, "%s: %v\n%s\n%s\n", command, err, strings.TrimRight(synopsis, "\n"), more)
	return 2
}
