package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"strings"
	"testing"
)

// testProgram has two commands, which print their name and arguments.
func testProgram(defaultCommand string) *Program {
	cmd := func(name string) Command {
		usage := "usage: prog " + name + "\n\nFlags:\n"
		return Command{Name: name, Summary: "the " + name + " command",
			Flags: func(w io.Writer) *flag.FlagSet {
				fs := NewFlagSet(name, usage, w)
				fs.Bool("v", false, "say more")
				fs.String("n", "", "a name")
				return fs
			},
			Run: func(_ context.Context, args []string, stdout, stderr io.Writer) int {
				if err := ParseFlags(NewFlagSet(name, usage, stderr), args); err != nil {
					return UsageFailed(stderr, "prog "+name, usage, err)
				}
				io.WriteString(stdout, name+" ran")
				return 0
			}}
	}
	return &Program{Name: "prog", Synopsis: []string{"prog COMMAND"}, Default: defaultCommand,
		Commands: []Command{cmd("go"), cmd("stop")}, Aliases: map[string]string{"-stop": "stop"}}
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		def            string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"", []string{"go"}, 0, "go ran", ""},
		{"", nil, 2, "", "prog: no command given"},
		{"go", nil, 0, "go ran", ""},
		{"go", []string{"-x"}, 2, "", "prog go: flag provided but not defined: -x"},
		{"", []string{"-x"}, 2, "", `prog: unknown command "-x"`},
		{"go", []string{"-stop"}, 0, "stop ran", ""},
		{"", []string{"help"}, 0, "  stop  the stop command", ""},
		{"go", []string{"-h"}, 0, "The flags of go, the default command:", ""},
		{"", []string{"help", "stop"}, 0, "", "usage: prog stop"},
		{"", []string{"stop", "now"}, 2, "", `prog stop: unexpected argument "now"`},
		{"go", []string{"go", "-x"}, 2, "", "prog go: flag provided but not defined: -x\nusage: prog go\nprog go -h describes every flag.\n"},
		{"", []string{"help", "nope"}, 2, "", "prog help: there is no command \"nope\"; these are the commands:\n\nusage: prog COMMAND"},
		{"", []string{"help", "-h"}, 0, "  stop  the stop command", ""},
		// The default's flags before a command: the command goes first, with them.
		{"go", []string{"-v", "stop"}, 2, "", "prog: the command comes first, then its flags: prog stop -v\n"},
		{"go", []string{"-v", "go", "a b"}, 2, "", "prog: the command comes first, then its flags: prog go -v 'a b'\n"},
		{"go", []string{"-v", "stop", "-h"}, 2, "", "prog: the command comes first, then its flags: prog stop -v -h\n"},
		// A mistake after the command is the command's to say once run: the flags it takes are kept.
		{"go", []string{"-v", "stop", "-x"}, 2, "", "prog: the command comes first, then its flags: prog stop -v -x\n"},
		{"go", []string{"-v", "stop", "-n"}, 2, "", "prog: the command comes first, then its flags: prog stop -v -n\n"}, // -n without its value
		{"go", []string{"-v", "stop", "-v=maybe", "a"}, 2, "", "prog: the command comes first, then its flags: prog stop -v -v=maybe a\n"},
		// The "--" that ends the flags goes with them: after the command's flags it would end those, and make the rest arguments.
		{"go", []string{"-v", "--", "stop", "-n", "x"}, 2, "", "prog: the command comes first, then its flags: prog stop -v -n x\n"},
		{"go", []string{"-n", "--", "stop"}, 2, "", "prog: the command comes first, then its flags: prog stop -n --\n"}, // -n's value
		{"go", []string{"--", "stop"}, 2, "", "prog: the command comes first, then its flags: prog stop\n"},
		// Else the default command says what is wrong (its Run here takes no -v).
		{"go", []string{"-v", "-stop"}, 2, "", "prog go: flag provided but not defined: -v"},
		{"go", []string{"-v", "frob"}, 2, "", "prog go: flag provided but not defined: -v"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := testProgram(tc.def).Dispatch(context.Background(), tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) ||
			strings.Count(out.String()+errOut.String(), "usage:") > 1 {
			t.Errorf("default %q, %q: exit %d, stdout %q, stderr %q; want %d, %q and %q",
				tc.def, tc.args, code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
}

func TestParseInterleaved(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	v := fs.Bool("v", false, "")
	n := fs.Int("n", 0, "")
	operands, err := ParseInterleaved(fs, []string{"a", "-v", "b", "-n", "3", "c"})
	if err != nil || strings.Join(operands, " ") != "a b c" || !*v || *n != 3 {
		t.Errorf("operands %q, -v %v, -n %d, error %v", operands, *v, *n, err)
	}
}

func TestVariantRules(t *testing.T) {
	rules, err := VariantRules("custom")
	if err != nil || len(rules.Army) == 0 {
		t.Errorf("custom: %v, army %v", err, rules.Army)
	}
	if _, err := VariantRules("chess"); err == nil {
		t.Error("chess: no error")
	}
}
