package render

import (
	"fmt"
	"strings"
	"sync"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// words writes the pieces of sentences in one language.
type words struct{ p lang.Printer }

// rank returns the name of a piece of rank r: "Marshal".
func (w words) rank(r game.Rank) string {
	if int(r) >= len(txtRankNames) || txtRankNames[r] == "" {
		return r.String()
	}
	return w.p.Sprintf(txtRankNames[r])
}

// rankLabelled returns "Captain (6)" in numbering n, or "Bomb" for a piece without a number.
func (w words) rankLabelled(r game.Rank, n game.Numbering) string {
	switch r {
	case game.Spy, game.Infiltrator, game.Bomb, game.Flag:
		return w.rank(r)
	}
	return w.p.Sprintf(txtRankLabelled, w.rank(r), r.Label(n))
}

// missesNot returns what an Infiltrator that named r missed: " misses: not a
// Marshal". A rank that has no text (none the game lets be named) is
// written by its name.
func (w words) missesNot(r game.Rank) string {
	if int(r) >= len(txtMissesNot) || txtMissesNot[r] == "" {
		return " ≠ " + w.rank(r)
	}
	return w.p.Sprintf(txtMissesNot[r])
}

// guessOf returns the rank an Infiltrator named, as rankLabelled with its
// article: "a Captain (6)", "an Infiltrator", "the Flag".
func (w words) guessOf(r game.Rank, n game.Numbering) string {
	if int(r) >= len(txtAltGuessOf) || txtAltGuessOf[r] == "" {
		return w.rankLabelled(r, n)
	}
	switch r {
	case game.Spy, game.Infiltrator, game.Bomb, game.Flag:
		return w.p.Sprintf(txtAltGuessOf[r])
	}
	return w.p.Sprintf(txtAltGuessOf[r], r.Label(n))
}

// list joins items, with "and 3 more" for those past limit. The whole
// sentence is one text, so that each language joins the last part its own
// way: German, French and Dutch put no comma before "and".
func (w words) list(items []string, limit int) string {
	sep := w.p.Sprintf(txtListSeparator)
	if len(items) > limit {
		return w.p.Sprintf(txtMoreItems, len(items)-limit, strings.Join(items[:limit], sep))
	}
	return strings.Join(items, sep)
}

// rankCount returns n pieces of rank r: "1 Spy", "8 Scouts".
func (w words) rankCount(n int, r game.Rank) string {
	if int(r) >= len(txtRankCounts) || txtRankCounts[r] == "" {
		return fmt.Sprintf("%d %s", n, r)
	}
	return w.p.Sprintf(txtRankCounts[r], n)
}

// side returns "Red" or "Blue".
func (w words) side(s game.Side) string {
	if s == game.Blue {
		return w.p.Sprintf(txtBlue)
	}
	return w.p.Sprintf(txtRed)
}

// sides returns both sides' names, indexed by side.
func (w words) sides() [2]string { return [2]string{w.side(game.Red), w.side(game.Blue)} }

// variant returns the name of a variant: "Classic".
func (w words) variant(v game.Variant) string {
	if int(v) >= len(txtVariantNames) || txtVariantNames[v] == "" {
		return v.String()
	}
	return w.p.Sprintf(txtVariantNames[v])
}

// moves returns "30 moves".
func (w words) moves(n int) string { return w.p.Sprintf(txtMoves, n) }

// PieceName names a piece for messages in p's language, with its label in
// numbering n where it has one: "Captain (6)", "Kapitein (6)", "Bomb".
func PieceName(p lang.Printer, r game.Rank, n game.Numbering) string {
	return words{p}.rankLabelled(r, n)
}

// RankName names a piece in p's language without its number: "Marshal",
// "Maarschalk".
func RankName(p lang.Printer, r game.Rank) string { return words{p}.rank(r) }

// RankNamed reads a piece's name as RankName and RankCount write it in any
// language the bot speaks, one or many ("Maarschalk", "bommen",
// "Feldmarschälle"), case not mattering. No name means two ranks in two
// languages (TestRankNamedIsOneRank).
func RankNamed(name string) (game.Rank, bool) {
	r, ok := rankNames()[strings.ToLower(strings.TrimSpace(name))]
	return r, ok
}

// rankNames maps every language's names of the pieces, in lower case, to
// their ranks.
var rankNames = sync.OnceValue(func() map[string]game.Rank {
	m := map[string]game.Rank{}
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		for _, r := range game.Ranks {
			m[strings.ToLower(RankName(p, r))] = r
			m[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(RankCount(p, 2, r), "2")))] = r
		}
	}
	return m
})

// RankCount writes n pieces of rank r in p's language: "1 Spy", "8 Scouts".
func RankCount(p lang.Printer, n int, r game.Rank) string { return words{p}.rankCount(n, r) }

// SideName names a side in p's language: "Red", "Rood".
func SideName(p lang.Printer, s game.Side) string { return words{p}.side(s) }

// VariantName names a variant in p's language: "Classic", "Klassiek".
func VariantName(p lang.Printer, v game.Variant) string { return words{p}.variant(v) }
