// Package langtest finds English left in texts that should be in another
// language: for the tests of the packages that show text, never for the
// product.
package langtest

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/strategobot/strategobot/internal/lang"
)

// Checker knows the English sentences of the catalogue.
type Checker struct {
	fragments []string // English runs of words, as the catalogue's keys hold them
}

// minLetters and minWords bound a fragment worth looking for: shorter runs
// ("Your move" is the shortest) could be a name or a word shared by the
// languages.
const (
	minWords   = 2
	minLetters = 8
)

var (
	codeRE    = regexp.MustCompile("`[^`]*`")                              // commands and examples, the same in every language
	verbRE    = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)    // a format's verbs
	markupRE  = regexp.MustCompile(`<[@#:/!&][^>]*>|https?://\S+|\*\*|__`) // mentions, timestamps, links, emphasis
	splitRE   = regexp.MustCompile(`[.;:!?·—()\n"“”]+`)                    // between sentences and clauses
	wordRE    = regexp.MustCompile(`\p{L}+`)
	englishRE = regexp.MustCompile(`(?i)\b(the|your|you|and|with|this|that|which|from|when|have|has|needs|placed|there|isn't|can't|won't)\b`)
)

// New returns a Checker of the catalogue's English texts.
func New() *Checker {
	var c Checker
	seen := map[string]bool{}
	others := otherTexts()
	for _, key := range lang.English() {
		for _, piece := range verbRE.Split(codeRE.ReplaceAllString(key, " "), -1) {
			for _, part := range splitRE.Split(piece, -1) {
				f := strings.Join(strings.Fields(strings.Trim(part, " ,'")), " ")
				if seen[f] || !worthIt(f) || slices.ContainsFunc(others, func(t string) bool { return strings.Contains(t, f) }) {
					continue
				}
				seen[f] = true
				c.fragments = append(c.fragments, f)
			}
		}
	}
	return &c
}

// otherTexts returns every translation into the other languages that differs
// from its English: a run of words one of them shares with English (a name,
// "Stratego") is not English.
func otherTexts() []string {
	var out []string
	for _, l := range lang.Languages()[1:] {
		p := lang.For(l.Code)
		for _, key := range lang.English() {
			// A text left in English is what the Checker must find, not
			// evidence that its words are shared.
			if t := p.Sprintf(key); t != key {
				out = append(out, t)
			}
		}
	}
	return out
}

func worthIt(f string) bool {
	words := wordRE.FindAllString(f, -1)
	return len(words) >= minWords && len(strings.Join(words, "")) >= minLetters
}

// Fragments returns how many English runs of words c looks for.
func (c *Checker) Fragments() int { return len(c.fragments) }

// English returns what in text reads English: the catalogue's English runs
// of words it contains, and English words that no other language the bot
// speaks has. Code spans, mentions and links are not read.
func (c *Checker) English(text string) []string {
	text = markupRE.ReplaceAllString(codeRE.ReplaceAllString(text, " "), " ")
	var out []string
	for _, f := range c.fragments {
		if containsWords(text, f) {
			out = append(out, f)
		}
	}
	for _, w := range englishRE.FindAllString(text, -1) {
		if !slices.ContainsFunc(out, func(f string) bool { return strings.Contains(strings.ToLower(f), strings.ToLower(w)) }) {
			out = append(out, "word "+w)
		}
	}
	return out
}

// containsWords reports whether f is in s as whole words.
func containsWords(s, f string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], f)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(f)
		if !letterBefore(s, start) && !letterAt(s, end) {
			return true
		}
		i = start + 1
	}
}

func letterBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r := []rune(s[:i])
	return unicode.IsLetter(r[len(r)-1])
}

func letterAt(s string, i int) bool {
	for _, r := range s[i:] {
		return unicode.IsLetter(r)
	}
	return false
}

// doubledRE finds punctuation written twice: "..", ",.", ";;", "?,". An
// ellipsis ("...") is not.
var doubledRE = regexp.MustCompile(`\.\.|[,;:][.,;:]|[.!?][,;]`)

// Doubled returns the doubled punctuation in text, such as the ".." of a
// sentence whose argument already ended with a full stop, or "".
func Doubled(text string) string {
	text = strings.ReplaceAll(codeRE.ReplaceAllString(text, " "), "...", "…")
	return doubledRE.FindString(text)
}
