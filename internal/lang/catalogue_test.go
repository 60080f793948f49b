package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// textPackages finds the packages whose texts members read: those that
// declare txt constants or variables (the convention of the package doc),
// anywhere in the module, as folders relative to this one.
func textPackages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() && declaresTexts(t, path) {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// declaresTexts reports whether a folder's non-test Go files declare a txt
// constant or variable.
func declaresTexts(t *testing.T, dir string) bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
				continue
			}
			for _, spec := range g.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if strings.HasPrefix(id.Name, "txt") {
						return true
					}
				}
			}
		}
	}
	return false
}

// TestTextPackagesFound: the scan finds the packages known to hold texts.
func TestTextPackagesFound(t *testing.T) {
	got := strings.Join(textPackages(t), " ")
	for _, want := range []string{"../../bot", "../../game", "../../render"} {
		if !strings.Contains(got, want) {
			t.Errorf("the packages with texts are %s; %s is missing", got, want)
		}
	}
}

// sourceText is a txt constant found in the sources.
type sourceText struct {
	key   string
	where string // file:line
}

// keyTakers are the functions and methods whose arguments at these
// positions are catalogue keys: a Printer's Sprintf, the bot's say (after the
// interaction), and the bot's helpers that pick one key among several.
var keyTakers = map[string][]int{
	"Sprintf": {0}, "say": {1}, "perspective": {1, 2, 3}, "battle": {0}, "moved": {0},
	"friendly": {0}, "friendlyf": {0}, "matchOpt": {0}, "squareOpt": {1}, "reply": {0},
}

// sourceTexts reads the non-test Go files of dir: every string constant, or
// string in the value of a variable, whose name starts with "txt"; and the
// literal key of every call of a Printer's Sprintf (not fmt's) or of say.
// A key built at run time (a call, a concatenation with a variable) cannot
// be checked: those calls are returned as unchecked.
func sourceTexts(t *testing.T, dir string) (texts []sourceText, unchecked []string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if !strings.HasPrefix(id.Name, "txt") || i >= len(n.Values) {
						continue
					}
					for _, s := range stringsIn(n.Values[i]) {
						texts = append(texts, sourceText{key: s, where: fset.Position(id.Pos()).String()})
					}
				}
			case *ast.KeyValueExpr:
				// A slash command's or option's description: Discord shows
				// its translations (bot.localizeCommands).
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Description" {
					for _, s := range stringsIn(n.Value) {
						texts = append(texts, sourceText{key: s, where: fset.Position(n.Pos()).String()})
					}
				}
			case *ast.CallExpr:
				var name string
				switch fn := n.Fun.(type) {
				case *ast.SelectorExpr:
					if pkg, ok := fn.X.(*ast.Ident); ok && (pkg.Name == "fmt" || pkg.Name == "strconv") {
						return true
					}
					name = fn.Sel.Name
				case *ast.Ident:
					name = fn.Name
				}
				for _, arg := range keyTakers[name] {
					if arg >= len(n.Args) {
						continue
					}
					switch key := n.Args[arg].(type) {
					case *ast.BasicLit:
						for _, s := range stringsIn(key) {
							texts = append(texts, sourceText{key: s, where: fset.Position(n.Pos()).String()})
						}
					case *ast.BinaryExpr:
						if s := stringsIn(key); len(s) == 1 {
							texts = append(texts, sourceText{key: s[0], where: fset.Position(n.Pos()).String()})
						} else {
							unchecked = append(unchecked, fset.Position(n.Pos()).String())
						}
					case *ast.CallExpr:
						// A key chosen by a function: its name says it returns txt constants.
						if !keyChooser(key.Fun) {
							unchecked = append(unchecked, fset.Position(n.Pos()).String())
						}
					}
					// A variable or an element of a table holds one of the txt
					// constants, which are collected where they are declared.
				}
			}
			return true
		})
	}
	return texts, unchecked
}

// keyChooser reports whether a function returns one of the keys it is given
// (a keyTaker) or a txt constant (its name starts with txt).
func keyChooser(fn ast.Expr) bool {
	var name string
	switch fn := fn.(type) {
	case *ast.Ident:
		name = fn.Name
	case *ast.SelectorExpr:
		name = fn.Sel.Name
	}
	_, takes := keyTakers[name]
	// string(f) converts a friendly error, a txt constant, back to its key.
	return takes || strings.HasPrefix(name, "txt") || name == "string"
}

// stringsIn returns the string literals of an expression: a literal, a sum
// of literals, or the elements of a composite literal.
func stringsIn(e ast.Expr) []string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return nil
		}
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			return nil
		}
		return []string{s}
	case *ast.BinaryExpr:
		l, r := stringsIn(e.X), stringsIn(e.Y)
		if e.Op == token.ADD && len(l) == 1 && len(r) == 1 {
			return []string{l[0] + r[0]}
		}
	case *ast.CompositeLit:
		var out []string
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			out = append(out, stringsIn(el)...)
		}
		return out
	case *ast.CallExpr: // a conversion: friendly("…")
		if len(e.Args) == 1 {
			return stringsIn(e.Args[0])
		}
	}
	return nil
}

// verbRE finds the verbs of a format: %s, %[2]d, %%.
var verbRE = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0-9.]*([a-zA-Z%])`)

// verbs returns the verbs of a format with the argument each formats, sorted:
// "1s", "2d". A verb without an index takes the argument after the previous
// one, as fmt does.
func verbs(format string) []string {
	var out []string
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		n := next
		if m[1] != "" {
			n, _ = strconv.Atoi(m[1])
		}
		out = append(out, strconv.Itoa(n)+m[2])
		next = n + 1
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func TestCatalogueComplete(t *testing.T) {
	keys := map[string]string{} // key → where it is declared
	for _, dir := range textPackages(t) {
		texts, unchecked := sourceTexts(t, dir)
		for _, at := range unchecked {
			t.Errorf("%s: the text's key is built at run time; use a literal or a txt constant so the catalogue can be checked", at)
		}
		for _, st := range texts {
			keys[st.key] = st.where
		}
	}
	if len(keys) < 100 {
		t.Fatalf("found only %d texts: is the scan reading the right packages?", len(keys))
	}
	for _, l := range Languages() {
		f := catalogue.files[l.Code]
		var missing []string
		for key, where := range keys {
			e, ok := f.Messages[key]
			if !ok {
				if l.Code != "en" {
					missing = append(missing, where+": "+strconv.Quote(key))
				}
				continue
			}
			want := verbs(key)
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for form, text := range forms {
				got := verbs(text)
				if form == "" || form == "other" {
					if !slices.Equal(got, want) {
						t.Errorf("%s: %q (%s) uses %v, the English text %v", l.Code, key, form, got, want)
					}
				} else if len(slices.DeleteFunc(got, func(v string) bool { return slices.Contains(want, v) })) > 0 {
					t.Errorf("%s: %q (%s) uses arguments the English text has not", l.Code, key, form)
				}
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s lacks %d translations:\n%s", l.Name, len(missing), strings.Join(missing, "\n"))
		}
		for key := range f.Messages {
			if _, ok := keys[key]; !ok {
				t.Errorf("%s: %q is no longer a text of the code; remove it from locales/%s.json", l.Code, key, l.Code)
			}
		}
	}
	// English needs an entry exactly for the texts with plural forms.
	for _, l := range Languages()[1:] {
		for key, e := range catalogue.files[l.Code].Messages {
			if _, ok := catalogue.files["en"].Messages[key]; (e.forms != nil) != ok {
				t.Errorf("%s: %q: a text has plural forms in English exactly when it has them in the other languages", l.Code, key)
			}
		}
	}
}

// TestPlainTexts: a text that takes no argument, looked up ahead, is what
// x/text gives for it, in every language, and texts with arguments or plural
// forms are still formatted.
func TestPlainTexts(t *testing.T) {
	for _, l := range Languages() {
		p := For(l.Code)
		if len(p.plain) == 0 {
			t.Fatalf("%s: no plain texts", l.Code)
		}
		for key := range catalogue.files["nl"].Messages {
			if want := p.p.Sprintf(key); p.Sprintf(key) != want {
				t.Errorf("%s: %q gives %q, x/text %q", l.Code, key, p.Sprintf(key), want)
			}
			if _, ok := p.plain[key]; ok && strings.Contains(key, "%") {
				t.Errorf("%s: %q takes arguments, yet is looked up ahead", l.Code, key)
			}
		}
	}
	if one, two := For("en").Sprintf("%[1]d Bombs", 1), For("en").Sprintf("%[1]d Bombs", 2); one != "1 Bomb" || two != "2 Bombs" {
		t.Errorf("plural forms: %q and %q, want \"1 Bomb\" and \"2 Bombs\"", one, two)
	}
}

// doubledRE finds punctuation written twice: "..", ",.", ";;", "?,". An
// ellipsis ("...") and the text board's empty-square symbol (" . ") are not.
var doubledRE = regexp.MustCompile(`\.\.|[,;:][.,;:]|[.!?][,;]`)

// TestPunctuation: no text, in any language or plural form, ends in ".." or
// has a mark of punctuation doubled, the slip of a translation that added
// its own full stop to one already there.
func TestPunctuation(t *testing.T) {
	for _, l := range Languages() {
		for key, e := range catalogue.files[l.Code].Messages {
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for form, text := range forms {
				plain := strings.ReplaceAll(text, "...", "…")
				if m := doubledRE.FindString(plain); m != "" {
					t.Errorf("%s: %q (%s) has %q: %q", l.Code, key, form, m, text)
				}
			}
		}
	}
	// The English texts, which are the keys.
	for key := range catalogue.files["nl"].Messages {
		if m := doubledRE.FindString(strings.ReplaceAll(key, "...", "…")); m != "" {
			t.Errorf("en: %q has %q", key, m)
		}
	}
}

// informalFrench finds the words by which a language addresses the reader in
// the register it does not use: the French texts say "vous", as the French
// Stratego rules do, so a "tu" slipped into one text reads as a different,
// over-familiar voice. It finds the pronouns, and the imperatives of the
// verbs the texts use ("Choisis" where they say "Choisissez").
var informalFrench = regexp.MustCompile(`(^|[\s(«])(?i:tu|ton|ta|tes|toi|te)\b|(^|\s)(?i:t’|t')|` +
	`\b(Choisis|Retire|Lance|Envoie|Appuie|Tape|Essaie|Réessaie|Utilise|Attends|Réponds|Rejoins|Quitte|Regarde|Donne|Fais|Mets|Omets|Écris|Vérifie|Ouvre|Indique|Clique|Ajoute|Garde|Propose|Accepte|Refuse|Copie|Renvoie)\b|` +
	// and the imperatives with a pronoun after them ("Entres-y", "Vas-y").
	`\b\p{L}+s-(y|en|le|la|les|moi)\b`)

// politeGerman finds a "du" written with the capital of a letter's courtesy
// inside a sentence ("während Deine Uhr stillstand"): the German texts write
// du, dein and dich in small letters there, as a sentence's first word alone
// takes a capital (and a text after a verb, "%[2]s Deine Suche", which
// may be one).
var politeGerman = regexp.MustCompile(`(?:^|[^\]])[\p{Ll},] (Du|Dein|Deine|Deinen|Deinem|Deiner|Deines|Dich|Dir|Ihr|Euch|Euer|Eure|Euren|Eurem|Eurer)\b`)

// TestOneRegister: each language addresses the reader one way throughout.
func TestOneRegister(t *testing.T) {
	for _, tc := range []struct {
		lang, says string
		re         *regexp.Regexp
	}{
		{"fr", "vous", informalFrench},
		{"de", "du, in small letters inside a sentence", politeGerman},
	} {
		for key, e := range catalogue.files[tc.lang].Messages {
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for form, text := range forms {
				if m := tc.re.FindString(text); m != "" {
					t.Errorf("%s: %q (%s) says %q, where the texts say %s: %q", tc.lang, key, form, strings.TrimSpace(m), tc.says, text)
				}
			}
		}
	}
}

// TestOneApostrophe: each language writes its apostrophe one way, so that
// texts written at different times do not mix ' and ’ on one screen.
func TestOneApostrophe(t *testing.T) {
	for _, l := range Languages()[1:] {
		var straight, curly []string
		for key, e := range catalogue.files[l.Code].Messages {
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for _, text := range forms {
				if strings.Contains(text, "'") {
					straight = append(straight, key)
				}
				if strings.Contains(text, "’") {
					curly = append(curly, key)
				}
			}
		}
		if len(straight) > 0 && len(curly) > 0 {
			sort.Strings(curly)
			t.Errorf("%s: %d texts write ' and %d write ’, such as %q: choose one", l.Code, len(straight), len(curly), curly[0])
		}
	}
}

// TestOneWordOneThing: a language does not name two things of the bot with
// one word, where a reader would take one for the other. A player's rating
// and a tournament's standings (or the leaderboard) meet in the same
// messages: "unrated" read as "no effect on the standings" says the
// opposite of what a deadline does to a tournament's games.
func TestOneWordOneThing(t *testing.T) {
	tests := []struct {
		lang      string
		english   *regexp.Regexp // the thing, in the key
		forbidden *regexp.Regexp // the other thing's word, in its translation
	}{
		// French: a rating is a cote, rated games classées, the
		// standings and the leaderboard a classement.
		{"fr", regexp.MustCompile(`(?i)\b(rating|unrated)`), regexp.MustCompile(`(?i)\bclassement`)},
		{"fr", regexp.MustCompile(`(?i)\b(standings|leaderboard)\b`), regexp.MustCompile(`(?i)\bcotes?\b`)},
	}
	for _, tc := range tests {
		for key, e := range catalogue.files[tc.lang].Messages {
			if !tc.english.MatchString(key) {
				continue
			}
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for _, text := range forms {
				if m := tc.forbidden.FindString(text); m != "" {
					t.Errorf("%s: %q says %q for another thing: %q", tc.lang, key, m, text)
				}
			}
		}
	}
}

// TestDatePrepositions: a full date (Discord's <t:…:f>, which each reader's
// client writes as "7 december 2026 00:00", "7. Dezember 2026 00:00", "7
// décembre 2026 00:00") takes the preposition and article its language
// puts before a date: "begint op", "beginnt am", "vom … bis zum", "seit
// dem", "commence le", "du … au", "depuis le". Without them ("Runde 1
// beginnt 7. Dezember", "absent de 7 décembre") a native reader stops.
func TestDatePrepositions(t *testing.T) {
	date := `\s+<t:%\[\d+\]s:f>`
	bare := map[string]*regexp.Regexp{
		"nl": regexp.MustCompile(`(?i)\b(begint|beginnen|begon|begonnen)` + date),
		"de": regexp.MustCompile(`(?i)\b(beginnt|beginnen|begann|begannen|seit|von|bis|auf)` + date),
		"fr": regexp.MustCompile(`(?i)(\bcommencent|\bcommence|\bdepuis|\bde|\bà|\bdu \S+ à)` + date),
	}
	for lang, re := range bare {
		for key, e := range catalogue.files[lang].Messages {
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for _, text := range forms {
				if m := re.FindString(text); m != "" {
					t.Errorf("%s: %q says %q, without the article a date takes: %q", lang, key, m, text)
				}
			}
		}
	}
}

// TestMarkupKept: a translation keeps its English text's Discord markup,
// as many times: bold, strike-through, code (and code blocks), timestamps,
// mentions of members, roles and channels, and its line breaks. A bold
// left open, or a <t:…:R> lost, shows the member raw markup or a text
// without its time.
func TestMarkupKept(t *testing.T) {
	marks := []string{"**", "~~", "||", "`", "<t:", "<@&", "<@", "<#", "\n"}
	count := func(s, mark string) int {
		n := strings.Count(s, mark)
		if mark == "<@" {
			n -= strings.Count(s, "<@&")
		}
		return n
	}
	for _, l := range Languages()[1:] {
		for key, e := range catalogue.files[l.Code].Messages {
			forms := map[string]string{"": e.text}
			if e.forms != nil {
				forms = e.forms
			}
			for form, text := range forms {
				for _, mark := range marks {
					if got, want := count(text, mark), count(key, mark); got != want {
						t.Errorf("%s: %q (%s) has %q %d times, the English text %d: %q", l.Code, key, form, mark, got, want, text)
					}
				}
			}
		}
	}
}
