package clitest

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/cli"
)

// DocumentedFiles are the documents whose command lines
// CheckDocumentedLines checks, relative to the repository's root.
var DocumentedFiles = []string{"README.md", "config.example.toml", "docs/*.md", "docs/deploy/*"}

// A Parser parses the arguments of a command line as a program would,
// without running anything. mention: the line is code in a sentence, which
// may name a command without the arguments it needs ("`strategobot backup`
// copies bbolt files").
type Parser func(args []string, mention bool) error

// CheckDocumentedLines finds every command line in the documents under root
// that runs the program name (by its name, a path to it, or go run
// ./cmd/NAME), and checks that parse accepts its arguments. Placeholders such
// as PATH, DIR, FILES... or SERVER_ID stand for any valid value. Fewer than
// atLeast lines found fails too: the scan would be broken.
func CheckDocumentedLines(t *testing.T, name string, parse Parser, root string, atLeast int) {
	t.Helper()
	var files []string
	for _, pattern := range DocumentedFiles {
		matches, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	checked := 0
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := filepath.Rel(root, file)
		for _, snippet := range commandSnippets(doc, string(text)) {
			for _, args := range Invocations(name, snippet.text) {
				checked++
				if err := parse(args, snippet.inline); err != nil {
					t.Errorf("%s:%d: %q: %v", doc, snippet.line, snippet.text, err)
				}
			}
		}
	}
	if checked < atLeast {
		t.Errorf("only %d command lines of %s found in %v: is the scan broken?", checked, name, files)
	}
	t.Logf("%d command lines of %s checked", checked, name)
}

// snippet is a piece of a document that may hold command lines.
type snippet struct {
	line int
	text string
	// inline: code in a sentence, which may name a command without the
	// arguments it needs ("`strategobot backup` copies bbolt files").
	inline bool
}

var inlineCode = regexp.MustCompile("`([^`]+)`")

// commandSnippets returns the lines of a document's code blocks and its
// inline code spans (which may wrap across lines); in a file that is no
// Markdown or TOML, every line, less a leading comment mark.
func commandSnippets(name, text string) []snippet {
	lines := strings.Split(text, "\n")
	var out []snippet
	switch filepath.Ext(name) {
	case ".md", ".toml":
		prose := make([]string, len(lines)) // the lines outside code blocks; blank inside
		inBlock := false
		for i, line := range lines {
			trimmed := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(trimmed, "```"):
				inBlock = !inBlock
			case inBlock:
				out = append(out, snippet{line: i + 1, text: stripShellComment(strings.TrimPrefix(trimmed, "$ "))})
			default:
				prose[i] = line
			}
		}
		joined := strings.Join(prose, "\n")
		for _, m := range inlineCode.FindAllStringSubmatchIndex(joined, -1) {
			line := strings.Count(joined[:m[0]], "\n") + 1
			out = append(out, snippet{line: line, text: strings.ReplaceAll(joined[m[2]:m[3]], "\n", " "), inline: true})
		}
	default:
		for i, line := range lines {
			line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
			out = append(out, snippet{line: i + 1, text: strings.TrimPrefix(line, "ExecStart=")})
		}
	}
	return out
}

// stripShellComment drops a " # comment" outside quotes.
func stripShellComment(line string) string {
	quote := rune(0)
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' '):
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}

// shellWords splits a command line into words as a shell would (quotes,
// no expansion), and into commands at ;, &&, || and |.
func shellWords(line string) [][]string {
	var commands [][]string
	var words []string
	var word strings.Builder
	inWord, quote := false, rune(0)
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			endWord()
		case r == ';' || r == '&' || r == '|':
			endWord()
			if len(words) > 0 {
				commands = append(commands, words)
				words = nil
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	endWord()
	if len(words) > 0 {
		commands = append(commands, words)
	}
	return commands
}

var (
	envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	// placeholder is a word that stands for a value: PATH, SERVER_ID, FILES...
	placeholder = regexp.MustCompile(`^[A-Z][A-Z0-9_]*(\.\.\.|…)?$`)
	// wrappers run the command that follows their options.
	wrappers = map[string]bool{"sudo": true, "nice": true, "taskset": true, "exec": true, "env": true, "time": true, "nohup": true}
)

// Invocations returns the arguments of each command of line that runs the
// program named name: the program itself at the head of a command (after
// variable assignments and wrappers such as nice or taskset), or go run
// ./cmd/NAME.
func Invocations(name, line string) [][]string {
	var found [][]string
	for _, words := range shellWords(line) {
		i := 0
		for i < len(words) && envAssignment.MatchString(words[i]) {
			i++
		}
		for i < len(words) && wrappers[words[i]] {
			i++
			for i < len(words) && strings.HasPrefix(words[i], "-") {
				i++
				if i < len(words) && !strings.HasPrefix(words[i], "-") && !runs(name, words[i]) {
					i++ // the option's value
				}
			}
		}
		switch {
		case i+2 < len(words) && words[i] == "go" && words[i+1] == "run" && words[i+2] == "./cmd/"+name:
			found = append(found, words[i+3:])
		case i < len(words) && runs(name, words[i]):
			found = append(found, words[i+1:])
		}
	}
	return found
}

// runs reports whether word runs the program named name: the name, or a
// path to it (not its source folder, cmd/NAME).
func runs(name, word string) bool {
	return word == name || strings.HasSuffix(word, "/"+name) && !strings.HasSuffix(word, "cmd/"+name)
}

// ProgramParser parses a command line of a program of subcommands: its
// command must exist and take the flags and arguments given. An argument "…"
// or "..." ends the check: the rest was left out.
func ProgramParser(p *cli.Program) Parser {
	return func(args []string, mention bool) error {
		args = uptoEllipsis(args)
		name, rest := p.Split(args)
		switch name {
		case "help", "-h", "-help", "--help":
			return nil
		case "":
			if mention {
				return nil // the program named in a sentence
			}
			return fmt.Errorf("no command: %s needs one", p.Name)
		}
		if alias, ok := p.Aliases[name]; ok {
			name = alias
		}
		cmd, ok := p.Lookup(name)
		if !ok {
			return fmt.Errorf("unknown command %q", name)
		}
		if err := parseCommand(cmd, rest, mention); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
}

// CommandParser parses a command line of a program that is one command.
func CommandParser(cmd cli.Command) Parser {
	return func(args []string, mention bool) error {
		return parseCommand(cmd, uptoEllipsis(args), mention)
	}
}

// uptoEllipsis is args up to an argument "…" or "...", which stands for
// the rest, left out.
func uptoEllipsis(args []string) []string {
	for i, a := range args {
		if a == "…" || a == "..." {
			return args[:i]
		}
	}
	return args
}

// parseCommand parses a command's flags and arguments. A mention may leave
// out the arguments after the flags.
func parseCommand(cmd cli.Command, args []string, mention bool) error {
	fs := cmd.Flags(io.Discard)
	args = fillPlaceholders(fs.Lookup, args)
	var operands []string
	var err error
	if cmd.Interleaved {
		operands, err = cli.ParseInterleaved(fs, args)
	} else {
		err = fs.Parse(args)
		operands = fs.Args()
	}
	if err != nil {
		return err
	}
	if cmd.Operands == nil {
		if len(operands) > 0 {
			return fmt.Errorf("unexpected argument %q", operands[0])
		}
		return nil
	}
	err = cmd.Operands(len(operands))
	if err != nil && mention && (cmd.Operands(len(operands)+1) == nil || cmd.Operands(len(operands)+2) == nil) {
		return nil // the arguments left out of a mention
	}
	return err
}

// fillPlaceholders gives each flag whose value is a placeholder its default
// value instead, a valid one of the flag's type.
func fillPlaceholders(lookup func(string) *flag.Flag, args []string) []string {
	out := append([]string(nil), args...)
	for i := 0; i < len(out); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(out[i], "-"), "=")
		if !strings.HasPrefix(out[i], "-") {
			continue
		}
		f := lookup(name)
		if f == nil || isBoolFlag(f) {
			continue
		}
		switch {
		case hasValue && placeholder.MatchString(value):
			out[i] = "-" + name + "=" + f.DefValue
		case !hasValue && i+1 < len(out):
			if placeholder.MatchString(out[i+1]) {
				out[i+1] = f.DefValue
			}
			i++
		}
	}
	return out
}

// isBoolFlag reports whether f takes no value (-v rather than -v true).
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
