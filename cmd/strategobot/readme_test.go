package main

import (
	"bufio"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/bot"
)

// repoRoot is the repository's root, seen from this package's folder.
const repoRoot = "../.."

// configKeys maps every key the configuration parser accepts to the
// environment variable that overrides it, read from the config struct's tags.
func configKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	typ := reflect.TypeOf(config{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		key := f.Tag.Get("toml")
		if key == "" || key == "-" {
			continue
		}
		keys[key] = f.Tag.Get("env")
	}
	if len(keys) == 0 {
		t.Fatal("the config struct has no toml keys")
	}
	return keys
}

// readLines reads a file of the repository as lines.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return strings.Split(string(b), "\n")
}

// TestReadmeConfigurationTable: the README's table names exactly the keys the
// parser accepts, each with its environment variable.
func TestReadmeConfigurationTable(t *testing.T) {
	want := configKeys(t)
	row := regexp.MustCompile("^\\| `([a-z_]+)` \\| `([A-Z_]+)` \\|")
	seen := map[string]bool{}
	for n, line := range readLines(t, "README.md") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key, env := m[1], m[2]
		wantEnv, ok := want[key]
		switch {
		case !ok:
			t.Errorf("README.md:%d: the configuration table names %q, which the parser refuses", n+1, key)
		case env != wantEnv:
			t.Errorf("README.md:%d: %q is overridden by %s, not %s", n+1, key, wantEnv, env)
		case seen[key]:
			t.Errorf("README.md:%d: %q is in the table twice", n+1, key)
		}
		seen[key] = true
	}
	for key := range want {
		if !seen[key] {
			t.Errorf("README.md: the configuration table leaves out %q", key)
		}
	}
}

// TestConfigExampleNamesEveryKey: config.example.toml sets every key, and
// names the environment variable that overrides it.
func TestConfigExampleNamesEveryKey(t *testing.T) {
	text := strings.Join(readLines(t, "config.example.toml"), "\n")
	for key, env := range configKeys(t) {
		if !regexp.MustCompile(`(?m)^` + key + ` = `).MatchString(text) {
			t.Errorf("config.example.toml does not set %q", key)
		}
		if !strings.Contains(text, "("+env+")") {
			t.Errorf("config.example.toml does not name %s beside %q", env, key)
		}
	}
}

// markdownLink finds the target of a Markdown link or image: ](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocumentLinksResolve: every relative link of the README and docs/ names
// a file or folder of the repository, and every #anchor a heading.
func TestDocumentLinksResolve(t *testing.T) {
	docs := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		rel, _ := filepath.Rel(repoRoot, m)
		docs = append(docs, rel)
	}
	for _, doc := range docs {
		lines := readLines(t, doc)
		for n, line := range lines {
			for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				targetLines := lines
				if file != "" {
					path := filepath.Join(repoRoot, filepath.Dir(doc), file)
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s:%d: the link %q names nothing in the repository", doc, n+1, target)
						continue
					}
					if anchor != "" {
						targetLines = readLines(t, filepath.Join(filepath.Dir(doc), file))
					}
				}
				if anchor != "" && !hasAnchor(targetLines, anchor) {
					t.Errorf("%s:%d: the link %q names no heading", doc, n+1, target)
				}
			}
		}
	}
}

// hasAnchor reports whether a Markdown heading of lines has GitHub's anchor
// anchor: lower case, spaces as hyphens, punctuation dropped.
func hasAnchor(lines []string, anchor string) bool {
	for _, line := range lines {
		title, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		title = strings.TrimLeft(title, "#")
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		if b.String() == anchor {
			return true
		}
	}
	return false
}

// TestReadmeIsAManual: the README stays short, wrapped and free of the
// history of its own writing, which belongs in git log.
func TestReadmeIsAManual(t *testing.T) {
	lines := readLines(t, "README.md")
	if len(lines) > 320 {
		t.Errorf("README.md has %d lines; a manual of at most 320 is read, a longer one is not", len(lines))
	}
	history := regexp.MustCompile(`(?i)\b(session|issue)s? \d+`)
	for n, line := range lines {
		if len([]rune(line)) >= 200 {
			t.Errorf("README.md:%d: %d characters; wrap it under 200", n+1, len([]rune(line)))
		}
		if m := history.FindString(line); m != "" {
			t.Errorf("README.md:%d: %q labels a text by the stretch of work it came from", n+1, m)
		}
	}
}

// TestNoHistoryLabels: no file of the project labels a text by the stretch
// of work it came from.
func TestNoHistoryLabels(t *testing.T) {
	// A number after session or issue, or a definite article before issue,
	// ticket or audit, names a stretch of work; "an issue" is plain English.
	history := regexp.MustCompile(`(?i)\b(session|sessions|issue|issues) \d+\b|\b(the|this|that|our|previous|last|earlier) (issue|issues|ticket|tickets|audit)\b`)
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".toml", ".service", ".json":
		default:
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
		for n := 1; sc.Scan(); n++ {
			if m := history.FindString(sc.Text()); m != "" {
				rel, _ := filepath.Rel(repoRoot, path)
				t.Errorf("%s:%d: %q labels a text by the stretch of work it came from", rel, n, m)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadmeInvitePermissions: the permissions the README's invite link and
// its integer ask for are those of the link the bot logs and check prints.
func TestReadmeInvitePermissions(t *testing.T) {
	link, err := url.Parse(bot.InviteLink("1"))
	if err != nil {
		t.Fatal(err)
	}
	want := link.Query().Get("permissions")
	found := 0
	for n, line := range readLines(t, "README.md") {
		for _, m := range regexp.MustCompile("permissions=([0-9]+)|integer `([0-9]+)`").FindAllStringSubmatch(line, -1) {
			found++
			if got := m[1] + m[2]; got != want {
				t.Errorf("README.md:%d: permissions %s, but the bot's invite link asks for %s", n+1, got, want)
			}
		}
	}
	if found == 0 {
		t.Error("README.md names no invite permissions")
	}
}

// TestDependenciesNamesDirectModules: docs/DEPENDENCIES.md, which says what
// each direct module of go.mod is for and how to refresh it, names every
// one of them: by its last path element (gg, pgx, websocket, jsonschema),
// x/NAME for golang.org/x/NAME, and the Prometheus client for its modules.
func TestDependenciesNamesDirectModules(t *testing.T) {
	doc := strings.Join(readLines(t, "docs/DEPENDENCIES.md"), "\n")
	direct := 0
	inRequire := false
	for _, line := range readLines(t, "go.mod") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inRequire = true
			continue
		case line == ")":
			inRequire = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inRequire:
			continue
		}
		if strings.Contains(line, "// indirect") || line == "" {
			continue
		}
		module := strings.Fields(line)[0]
		direct++
		parts := strings.Split(module, "/")
		if regexp.MustCompile(`^v[0-9]+$`).MatchString(parts[len(parts)-1]) {
			parts = parts[:len(parts)-1]
		}
		name := parts[len(parts)-1]
		switch {
		case strings.HasPrefix(module, "golang.org/x/"):
			name = "x/" + name
		case strings.HasPrefix(module, "github.com/prometheus/client_"):
			name = "Prometheus client"
		}
		if !regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_-])`).MatchString(doc) {
			t.Errorf("docs/DEPENDENCIES.md does not name %s (as %q), a direct module of go.mod", module, name)
		}
	}
	if direct == 0 {
		t.Fatal("go.mod lists no direct module: is the test reading it?")
	}
}
