package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The documents whose command lines TestDocumentedCommandLinesParse checks,
// relative to the repository's root.
var documentedFiles = []string{"README.md", "config.example.toml", "docs/*.md", "docs/deploy/*"}

// TestDocumentedCommandLinesParse finds every command line in the README,
// the example configuration and the docs that runs strategobot (or go run
// ./cmd/strategobot), and checks that its command exists and that its flags
// and arguments parse, without running anything. Placeholders such as PATH,
// DIR, FILES... or SERVER_ID stand for any valid value.
func TestDocumentedCommandLinesParse(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, pattern := range documentedFiles {
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
		name, _ := filepath.Rel(root, file)
		for _, snippet := range commandSnippets(name, string(text)) {
			for _, args := range strategobotInvocations(snippet.text) {
				checked++
				if err := checkCommandLine(args, snippet.inline); err != nil {
					t.Errorf("%s:%d: %q: %v", name, snippet.line, snippet.text, err)
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d command lines found in %v: is the scan broken?", checked, files)
	}
	t.Logf("%d command lines checked", checked)
}

// TestCheckCommandLine: the check refuses what the program would refuse.
func TestCheckCommandLine(t *testing.T) {
	tests := []struct {
		line    string
		mention bool
		ok      bool
	}{
		{"strategobot", false, true},
		{"DISCORD_TOKEN=… strategobot -config PATH", false, true},
		{"strategobot check -guild SERVER_ID -channel CHANNEL_ID -user YOUR_USER_ID", false, true},
		{"go run ./cmd/strategobot replay --two-squares 5 FILES... -more-squares off", false, true},
		{"nice -n 10 ./strategobot loadtest -matches 200 -duration 30s", false, true},
		{`strategobot arena -a hard -b "ext:strategobot agent -level normal" -n GAMES`, false, true},
		{"strategobot compare -battles before after", false, true},
		{"strategobot check …", false, true},
		{"strategobot frobnicate", false, false},
		{"strategobot run -token x", false, false},
		{"strategobot backup", false, false},
		{"strategobot backup a b", false, false},
		{"strategobot arena -n many", false, false},
		{"strategobot demo -out DIR extra", false, false},
		{"strategobot replay", false, false},
		{"strategobot compare a b c", false, false},
		{"strategobot backup", true, true},
		{"strategobot compare -battles", true, true},
		{"strategobot backup a b", true, false},
		{"strategobot frobnicate", true, false},
	}
	for _, tc := range tests {
		invocations := strategobotInvocations(tc.line)
		if len(invocations) != 1 {
			t.Errorf("%q: %d invocations found, want 1", tc.line, len(invocations))
			continue
		}
		if err := checkCommandLine(invocations[0], tc.mention); (err == nil) != tc.ok {
			t.Errorf("%q (mention %v): error %v, want ok=%v", tc.line, tc.mention, err, tc.ok)
		}
	}
	for _, line := range []string{"go test ./cmd/strategobot -run TestCrashes", "go build -o strategobot ./cmd/strategobot",
		"sudo -u postgres createdb --owner strategobot strategobot", "pprof -top strategobot FILE", "cmd/strategobot/ the product"} {
		if got := strategobotInvocations(line); len(got) != 0 {
			t.Errorf("%q taken for a run of strategobot: %q", line, got)
		}
	}
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

// strategobotInvocations returns the arguments of each command of line that
// runs strategobot: the program itself at the head of a command (after
// variable assignments and wrappers such as nice or taskset), or go run
// ./cmd/strategobot.
func strategobotInvocations(line string) [][]string {
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
				if i < len(words) && !strings.HasPrefix(words[i], "-") && !isStrategobot(words[i]) {
					i++ // the option's value
				}
			}
		}
		switch {
		case i+2 < len(words) && words[i] == "go" && words[i+1] == "run" && words[i+2] == "./cmd/strategobot":
			found = append(found, words[i+3:])
		case i < len(words) && isStrategobot(words[i]):
			found = append(found, words[i+1:])
		}
	}
	return found
}

// isStrategobot reports whether word runs the program: strategobot, or a
// path to it.
func isStrategobot(word string) bool {
	return word == "strategobot" || strings.HasSuffix(word, "/strategobot") && !strings.HasSuffix(word, "cmd/strategobot")
}

// checkCommandLine parses a documented command line's arguments as the
// program would, without running the command. An argument "…" or "..."
// ends the check: the rest was left out. A mention may leave out the
// arguments after the flags.
func checkCommandLine(args []string, mention bool) error {
	for i, a := range args {
		if a == "…" || a == "..." {
			args = args[:i]
			break
		}
	}
	cmds := commands()
	name, rest := nameCommand(args)
	switch name {
	case "help", "-h", "-help", "--help", "-version", "--version":
		return nil
	}
	cmd, ok := cmds[name]
	if !ok {
		return fmt.Errorf("unknown command %q", name)
	}
	fs := cmd.flags(io.Discard)
	rest = fillPlaceholders(fs.Lookup, rest)
	var operands []string
	var err error
	if cmd.interleaved {
		operands, err = parseInterleaved(fs, rest)
	} else {
		err = fs.Parse(rest)
		operands = fs.Args()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if cmd.operands == nil {
		if len(operands) > 0 {
			return fmt.Errorf("%s: unexpected argument %q", name, operands[0])
		}
		return nil
	}
	err = cmd.operands(len(operands))
	if err != nil && mention && (cmd.operands(len(operands)+1) == nil || cmd.operands(len(operands)+2) == nil) {
		return nil // the arguments left out of a mention
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
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
