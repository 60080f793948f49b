package lang

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Language is one language the bot speaks.
type Language struct {
	Code    string       // "nl": the catalogue's file name and Discord's locale for it
	Tag     language.Tag // its BCP 47 tag
	Name    string       // its name in itself: "Nederlands"
	Discord []string     // Discord's locales that choose it
}

// Languages lists the languages the bot speaks, English first.
func Languages() []Language {
	return []Language{
		{Code: "en", Tag: language.English, Name: "English", Discord: []string{"en-US", "en-GB"}},
		{Code: "nl", Tag: language.Dutch, Name: "Nederlands", Discord: []string{"nl"}},
		{Code: "de", Tag: language.German, Name: "Deutsch", Discord: []string{"de"}},
		{Code: "fr", Tag: language.French, Name: "Français", Discord: []string{"fr"}},
	}
}

//go:embed locales/*.json
var localeFiles embed.FS

// catalogue is built once from the embedded files and only read afterwards.
var catalogue = mustLoad(localeFiles)

// Printer writes texts in one language. The zero Printer writes English. A
// Printer is a small value, safe for concurrent use.
type Printer struct {
	p     *message.Printer
	code  string
	plain map[string]string // see loaded.plain
}

// For returns the Printer for a Discord locale ("nl", "en-US", "pt-BR") or a
// language code; a locale the bot does not speak gets English.
func For(locale string) Printer {
	code := Match(locale)
	return Printer{p: catalogue.printers[code], code: code, plain: catalogue.plain[code]}
}

// Match returns the code of the language the bot speaks for a Discord locale:
// "de" for "de", "en" for "en-GB" and for any language it does not speak.
func Match(locale string) string {
	base, _, _ := strings.Cut(strings.ToLower(locale), "-")
	if _, ok := catalogue.printers[base]; ok {
		return base
	}
	return "en"
}

// Code returns the printer's language code: "en", "nl", "de" or "fr".
func (p Printer) Code() string {
	if p.p == nil {
		return "en"
	}
	return p.code
}

// Sprintf formats the text whose English form is key, in the printer's
// language. key must be a txt constant, never text built at run time.
func (p Printer) Sprintf(key string, args ...any) string {
	if p.p == nil {
		p = For("en")
	}
	if len(args) == 0 {
		if s, ok := p.plain[key]; ok {
			return s
		}
	}
	out := p.p.Sprintf(key, args...)
	if p.code == "fr" {
		out = elide(out, args)
	}
	return out
}

// elide writes French's elision before an argument that starts with a
// vowel, where the translation, written before anyone knew the argument,
// says "de %[2]s", "que %[2]s" or "le %[2]s": "le Drapeau d'Ada", "au tour
// d'Émile", "dès qu'Ada aura confirmé", "l'Éclaireur (2) de Rouge", not "de
// Ada" or "le Éclaireur". A square or a move ("A4", "E5-E6"), read letter
// by letter, keeps its "de".
func elide(s string, args []any) string {
	for _, a := range args {
		t, ok := a.(string)
		if !ok || !elidable(t) {
			continue
		}
		for _, de := range [...][2]string{{"de ", "d'"}, {"De ", "D'"}, {"que ", "qu'"}, {"le ", "l'"}, {"Le ", "L'"}} {
			var b strings.Builder
			rest := s
			for {
				i := strings.Index(rest, de[0]+t)
				if i < 0 {
					break
				}
				before, _ := utf8.DecodeLastRuneInString(rest[:i])
				b.WriteString(rest[:i])
				if i > 0 && (unicode.IsLetter(before) || before == '\'') {
					b.WriteString(de[0]) // the end of a word, as in "monde"
				} else {
					b.WriteString(de[1])
				}
				rest = rest[i+len(de[0]):]
			}
			b.WriteString(rest)
			s = b.String()
		}
	}
	return s
}

// elidable reports whether a word starting t takes the elided "d'": it starts
// with a vowel and goes on with a letter (not a square's digit).
func elidable(t string) bool {
	first, n := utf8.DecodeRuneInString(t)
	if !strings.ContainsRune("AEIOUÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouàâæéèêëîïôœùûü", first) {
		return false
	}
	next, _ := utf8.DecodeRuneInString(t[n:])
	return unicode.IsLetter(next)
}

// Translations returns key in every language the bot speaks besides
// English, by Discord locale, for Discord's name and description
// localizations. Arguments are not allowed there, so key has none.
func Translations(key string) map[string]string {
	out := map[string]string{}
	for _, l := range Languages()[1:] {
		s := For(l.Code).Sprintf(key)
		for _, d := range l.Discord {
			out[d] = s
		}
	}
	return out
}

// entry is one message of a catalogue file: a translation, or plural forms.
type entry struct {
	text  string
	forms map[string]string
}

func (e *entry) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &e.text); err == nil {
		return nil
	}
	if err := json.Unmarshal(b, &e.forms); err != nil {
		return fmt.Errorf("a message is a string or an object of plural forms: %w", err)
	}
	if e.forms["other"] == "" {
		return fmt.Errorf("plural forms without \"other\"")
	}
	return nil
}

// file is a catalogue file: locales/<code>.json.
type file struct {
	Messages map[string]entry `json:"messages"`
}

// loaded holds every language's printer and, for tests, the raw catalogues.
type loaded struct {
	printers map[string]*message.Printer
	files    map[string]file
	// plain holds, per language, the texts of the keys that take no
	// argument, already looked up: x/text's lookup and formatting cost 4% of
	// the bot's CPU per move, most of it on such words (sides, ranks).
	plain map[string]map[string]string
}

func mustLoad(fsys fs.FS) loaded {
	l, err := load(fsys)
	if err != nil {
		panic(err) // the embedded catalogues are checked by the tests
	}
	return l
}

// pluralForms are the CLDR plural categories, in the order x/text takes them.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

func load(fsys fs.FS) (loaded, error) {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	l := loaded{printers: map[string]*message.Printer{}, files: map[string]file{}, plain: map[string]map[string]string{}}
	for _, lang := range Languages() {
		name := path.Join("locales", lang.Code+".json")
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return loaded{}, fmt.Errorf("lang: read %s: %w", name, err)
		}
		var f file
		if err := json.Unmarshal(raw, &f); err != nil {
			return loaded{}, fmt.Errorf("lang: %s: %w", name, err)
		}
		keys := make([]string, 0, len(f.Messages))
		for k := range f.Messages {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, key := range keys {
			e := f.Messages[key]
			var err error
			if e.forms == nil {
				err = b.SetString(lang.Tag, key, e.text)
			} else {
				var cases []any
				for _, form := range pluralForms {
					if s, ok := e.forms[form]; ok {
						cases = append(cases, form, s)
					}
				}
				err = b.Set(lang.Tag, key, plural.Selectf(1, "%d", cases...))
			}
			if err != nil {
				return loaded{}, fmt.Errorf("lang: %s: %q: %w", name, key, err)
			}
		}
		l.files[lang.Code] = f
		l.printers[lang.Code] = message.NewPrinter(lang.Tag, message.Catalog(b))
	}
	// The keys are the English texts; a language without a key falls back
	// to English.
	for code, p := range l.printers {
		plain := map[string]string{}
		for _, f := range l.files {
			for key := range f.Messages {
				if !strings.Contains(key, "%") {
					plain[key] = p.Sprintf(key)
				}
			}
		}
		l.plain[code] = plain
	}
	return l, nil
}

// English returns every English text of the catalogue: each key, and the
// plural forms English gives some of them. The tests that look for English
// left in a translated text read it.
func English() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, f := range catalogue.files {
		for key := range f.Messages {
			add(key)
		}
	}
	for _, e := range catalogue.files["en"].Messages {
		for _, form := range e.forms {
			add(form)
		}
	}
	sort.Strings(out)
	return out
}
