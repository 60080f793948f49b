package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// textPackages are the packages whose texts members read, relative to this one.
var textPackages = []string{"../../render", "../../bot"}

// sourceText is a txt constant found in the sources.
type sourceText struct {
	key   string
	where string // file:line
}

// sourceTexts reads the non-test Go files of dir: every string constant, or
// string in the value of a variable, whose name starts with "txt"; and every
// call of a Sprintf method (not fmt's) whose format is a literal, which
// would escape the catalogue.
func sourceTexts(t *testing.T, dir string) (texts []sourceText, literals []string) {
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
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Sprintf" || len(n.Args) == 0 {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" {
					return true
				}
				if _, ok := n.Args[0].(*ast.BasicLit); ok {
					literals = append(literals, fset.Position(n.Pos()).String())
				}
			}
			return true
		})
	}
	return texts, literals
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

// verbs returns the numbered verbs of a format, sorted: "%[1]s", "%[2]d".
func verbs(format string) []string {
	v := regexp.MustCompile(`%\[\d+\][a-zA-Z]`).FindAllString(format, -1)
	sort.Strings(v)
	return slices.Compact(v)
}

// plainVerb finds an unnumbered verb such as %s or %d (not %%).
var plainVerb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

func TestCatalogueComplete(t *testing.T) {
	keys := map[string]string{} // key → where it is declared
	for _, dir := range textPackages {
		texts, literals := sourceTexts(t, dir)
		for _, at := range literals {
			t.Errorf("%s: a Printer is given a literal; declare it as a txt constant so it is translated", at)
		}
		for _, st := range texts {
			keys[st.key] = st.where
			if len(verbs(st.key)) > 0 && plainVerb.MatchString(strings.ReplaceAll(st.key, "%%", "")) {
				t.Errorf("%s: %q mixes numbered and plain verbs; number every one so translations can reorder them", st.where, st.key)
			}
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
