// Package cli is what the project's commands share on their command lines:
// a program of subcommands with its usage and help, flag sets whose -h
// describes the command, the stop on SIGINT and SIGTERM, and the -variant
// flag of the commands that play games.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Command is one subcommand: its flags, the arguments it takes after them,
// and what it does.
type Command struct {
	Name    string
	Summary string
	// Flags declares the command's flags, each described, into a new flag
	// set whose -h prints the command's usage, flags and environment to w.
	// Parsing it runs nothing, so a command line can be checked alone.
	Flags func(w io.Writer) *flag.FlagSet
	// Operands checks the number of arguments after the flags; nil takes none.
	Operands func(n int) error
	// Interleaved: flags may also come between and after the operands.
	Interleaved bool
	Run         func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// Program is a command made of subcommands: `NAME COMMAND [arguments]`,
// with `NAME help [COMMAND]` and `NAME -h` listing or describing them.
type Program struct {
	Name string
	// Synopsis is the usage's first lines, each after "usage: " or lined up
	// with the first.
	Synopsis []string
	// Commands, in the order the usage lists them. Adding a subcommand is
	// adding it here.
	Commands []Command
	// Default is the command run with no arguments, or with flags first;
	// "" for none: the program then prints its usage and fails.
	Default string
	// Aliases are other names of commands, such as -version for version.
	Aliases map[string]string
	// Footer, when set, ends the usage, before the line on COMMAND -h.
	Footer string
}

// Lookup returns the command named name.
func (p *Program) Lookup(name string) (Command, bool) {
	for _, c := range p.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// isHelp reports whether a first argument asks for the program's help.
func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// Split returns the command the arguments name and the arguments left for
// it. With no arguments, or flags first, that is the default command (so
// that `strategobot -config PATH` runs the bot); -h and the aliases stay the
// program's own. With no default, no arguments name "".
func (p *Program) Split(args []string) (string, []string) {
	if len(args) == 0 {
		return p.Default, nil
	}
	_, alias := p.Aliases[args[0]]
	if p.Default != "" && strings.HasPrefix(args[0], "-") && !isHelp(args[0]) && !alias {
		return p.Default, args
	}
	return args[0], args[1:]
}

// Dispatch runs the command the arguments name and returns its exit code:
// 2 for a command line it cannot run.
func (p *Program) Dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if line, ok := p.commandAfterFlags(args); ok {
		fmt.Fprintf(stderr, "%s: the command comes first, then its flags: %s\n", p.Name, line)
		return 2
	}
	name, args := p.Split(args)
	if isHelp(name) {
		if name == "help" && len(args) > 0 && !isHelp(args[0]) {
			if _, known := p.Lookup(args[0]); known {
				return p.Dispatch(ctx, []string{args[0], "-h"}, stdout, stderr) // help COMMAND: the command's -h
			}
			fmt.Fprintf(stderr, "%s help: there is no command %q; these are the commands:\n\n", p.Name, args[0])
			p.Usage(stderr)
			return 2
		}
		p.Usage(stdout)
		return 0
	}
	if name == "" {
		fmt.Fprintf(stderr, "%s: no command given\n\n", p.Name)
		p.Usage(stderr)
		return 2
	}
	if alias, ok := p.Aliases[name]; ok {
		name = alias
	}
	cmd, ok := p.Lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "%s: unknown command %q\n\n", p.Name, name)
		p.Usage(stderr)
		return 2
	}
	return cmd.Run(ctx, args, stdout, stderr)
}

// commandAfterFlags is the command line args meant, when they are flags
// of the default command followed by a command's name, such as
// `strategobot -config PATH check`: the default command would refuse the
// name as an argument it does not take. The line names the command
// first, with the flags when it takes them, else with where its flags are
// described.
func (p *Program) commandAfterFlags(args []string) (string, bool) {
	def, ok := p.Lookup(p.Default)
	if !ok || len(args) == 0 || !strings.HasPrefix(args[0], "-") || isHelp(args[0]) {
		return "", false
	}
	if _, alias := p.Aliases[args[0]]; alias {
		return "", false
	}
	fs := def.Flags(io.Discard)
	if Parse(fs, args) != nil || fs.NArg() == 0 {
		return "", false
	}
	cmd, ok := p.Lookup(fs.Arg(0))
	if !ok {
		return "", false
	}
	flags := args[:len(args)-fs.NArg()]
	if n := len(flags) - 1; n >= 0 && flags[n] == "--" {
		// The "--" that ended the flags is left out, unless it is the
		// last one's value (-config --), which those before it tell by
		// not parsing alone: after the command's flags it would end
		// them, and make the rest arguments the command refuses.
		if before := def.Flags(io.Discard); Parse(before, slices.Clone(flags[:n])) == nil && before.NArg() == 0 {
			flags = flags[:n]
		}
	}
	rest := fs.Args()[1:]
	// Whether the command takes the flags is for them alone to say: a
	// mistake in the rest (a flag without its value, one the command does
	// not have) is the command's to name once run, and the line keeps the
	// flags, such as the -config of the file it is to read.
	if err := Parse(cmd.Flags(io.Discard), slices.Clone(flags)); err != nil && !errors.Is(err, flag.ErrHelp) {
		// The flags are the default command's alone.
		return shellLine(append([]string{p.Name, cmd.Name}, rest...)) + " (" + p.Name + " " + cmd.Name + " -h describes its flags)", true
	}
	return shellLine(append(append([]string{p.Name, cmd.Name}, flags...), rest...)), true
}

// shellLine writes words as a shell reads them back.
func shellLine(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\$`&|;<>()*?[]#~!{}") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		quoted[i] = w
	}
	return strings.Join(quoted, " ")
}

// Usage prints the program's usage: the synopsis, each command with its
// summary, the default command's flags and how to learn more.
func (p *Program) Usage(w io.Writer) {
	for i, line := range p.Synopsis {
		if i == 0 {
			fmt.Fprintln(w, "usage: "+line)
		} else {
			fmt.Fprintln(w, "       "+line)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	width := 0
	for _, c := range p.Commands {
		width = max(width, len(c.Name))
	}
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.Name, c.Summary)
	}
	if cmd, ok := p.Lookup(p.Default); ok {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "The flags of %s, the default command:\n", cmd.Name)
		cmd.Flags(w).PrintDefaults()
	}
	fmt.Fprintln(w)
	if p.Footer != "" {
		fmt.Fprint(w, p.Footer)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s COMMAND -h (or %s help COMMAND) describes a command's flags and the\n", p.Name, p.Name)
	fmt.Fprintln(w, "environment variables it reads.")
}
