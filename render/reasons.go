package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// The words of a result, one whole sentence for each way a game ends and
// each reader, so that every language can word it its own way: "You won:
// Bob's Flag was captured." to a player, "Ann won: Bob resigned." to the
// public. %[1]s is the winner, %[2]s the loser.
var (
	txtResultWon = [...]string{
		game.FlagCaptured:    "You won: %[2]s's Flag was captured.",
		game.NoMovablePieces: "You won: %[2]s has no piece left that can move.",
		game.NoLegalMoves:    "You won: %[2]s has no legal move left.",
		game.Resignation:     "You won: %[2]s resigned.",
		game.TimeForfeit:     "You won: %[2]s ran out of time.",
		game.Awarded:         "You won: a moderator awarded the match.",
	}
	txtResultLost = [...]string{
		game.FlagCaptured:    "You lost: your Flag was captured.",
		game.NoMovablePieces: "You lost: you have no piece left that can move.",
		game.NoLegalMoves:    "You lost: you have no legal move left.",
		game.Resignation:     "You lost: you resigned.",
		game.TimeForfeit:     "You lost: you ran out of time.",
		game.Awarded:         "You lost: a moderator awarded the match.",
	}
	txtResultOther = [...]string{
		game.FlagCaptured:    "%[1]s won: %[2]s's Flag was captured.",
		game.NoMovablePieces: "%[1]s won: %[2]s has no piece left that can move.",
		game.NoLegalMoves:    "%[1]s won: %[2]s has no legal move left.",
		game.Resignation:     "%[1]s won: %[2]s resigned.",
		game.TimeForfeit:     "%[1]s won: %[2]s ran out of time.",
		game.Awarded:         "%[1]s won: a moderator awarded the match.",
	}
)

// The words of a draw.
const (
	txtDrawAgreed  = "The game is drawn by agreement."
	txtDrawNoMoves = "The game is drawn: neither side can move."
	txtDrawLimit   = "The game is drawn at the move limit."
	txtDrawn       = "The game is drawn."
	txtResultOf    = "%[1]s won: %[2]s." // winner, how the game ended, for an ending without words of its own
)

// ResultText words how a game ended for a reader, in p's language: "You won:
// Bob's Flag was captured." to a player, "Ann won: Bob resigned." to the
// public. names are Red's and Blue's names as the reader should see them. It
// is the one wording of a result: the pictures say it with the sides' colours
// for names, the bot's messages with the players' names. A game still on has
// no result text.
func ResultText(p lang.Printer, r game.Result, names [2]string, reader game.Viewer) string {
	if !r.Over() {
		return ""
	}
	winner, won := r.Winner()
	if !won {
		switch r.Method {
		case game.DrawAgreed:
			return p.Sprintf(txtDrawAgreed)
		case game.NoMovablePieces, game.NoLegalMoves:
			return p.Sprintf(txtDrawNoMoves)
		case game.MoveLimit:
			return p.Sprintf(txtDrawLimit)
		}
		return p.Sprintf(txtDrawn)
	}
	loser := winner.Opponent()
	texts := txtResultOther
	if me, ok := reader.IsPlayer(); ok {
		texts = txtResultLost
		if me == winner {
			texts = txtResultWon
		}
	}
	if int(r.Method) >= len(texts) || texts[r.Method] == "" {
		return p.Sprintf(txtResultOf, names[winner], r.Method.String())
	}
	return p.Sprintf(texts[r.Method], names[winner], names[loser])
}

// Reason words a reason of the rules engine (why a move or a set-up is
// refused) in p's language, for a reader who numbers the pieces in n. A list
// of reasons (game.Lines) takes a line each.
func Reason(p lang.Printer, n game.Numbering, t game.Text) string {
	return p.Sprintf(t.Key, ReasonArgs(p, n, t.Args)...)
}

// ReasonArgs shows the typed arguments of a text in p's language: a rank as
// its piece name in numbering n ("Captain (6)"), a number of pieces, a side,
// a variant, an ordinal, a nested reason; squares and moves as their names.
// Other arguments are left as they are. The rules engine's reasons
// (game.Text) carry such arguments, so that they are worded in the reader's
// language while game knows nothing of languages.
func ReasonArgs(p lang.Printer, n game.Numbering, args []any) []any {
	out := make([]any, len(args))
	for k, a := range args {
		switch a := a.(type) {
		case game.Text:
			out[k] = Reason(p, n, a)
		case game.Texts:
			parts := make([]string, len(a))
			for j, t := range a {
				parts[j] = Reason(p, n, t)
			}
			out[k] = strings.Join(parts, p.Sprintf("; "))
		case game.Rank:
			out[k] = PieceName(p, a, n)
		case game.Lines:
			parts := make([]string, len(a))
			for j, t := range a {
				parts[j] = Reason(p, n, t)
			}
			out[k] = strings.Join(parts, "\n")
		case game.Counts:
			parts := make([]string, len(a))
			for j, c := range a {
				parts[j] = rankCount(p, c)
			}
			out[k] = strings.Join(parts, p.Sprintf(txtListSeparator))
		case game.Count:
			out[k] = rankCount(p, a)
		case game.Piece:
			out[k] = RankName(p, game.Rank(a))
		case game.Pieces:
			// The plural name: the count's form for 2 without its number.
			out[k] = strings.TrimPrefix(RankCount(p, 2, game.Rank(a)), "2 ")
		case game.Quantity:
			out[k] = quantity(p, a)
		case game.Labels:
			out[k] = labels(p, a)
		case game.Side:
			out[k] = SideName(p, a)
		case game.Variant:
			out[k] = VariantName(p, a)
		case game.Ordinal:
			out[k] = ordinal(p, int(a))
		case game.Square:
			out[k] = a.String()
		case game.Move:
			out[k] = a.String()
		case string:
			out[k] = Typed(a)
		default:
			out[k] = a
		}
	}
	return out
}

// quantity writes a number of rows or pieces: "1 row", "3 pieces".
func quantity(p lang.Printer, q game.Quantity) string {
	switch q.Noun {
	case game.NounRow:
		return p.Sprintf(txtRows, q.N)
	case game.NounPiece:
		return p.Sprintf(txtPieces, q.N)
	}
	return q.String()
}

// labels lists what a player may write for the pieces of an army, each
// with its name in p's language: "10 (Maarschalk), 9 (Generaal), …". The
// labels stay as they are: they are what the set-up reads in any language.
func labels(p lang.Printer, l game.Labels) string {
	var parts []string
	for _, r := range game.Ranks {
		if l.Army[r] > 0 {
			parts = append(parts, r.Label(l.Numbering)+" ("+RankName(p, r)+")")
		}
	}
	return strings.Join(parts, p.Sprintf(txtListSeparator))
}

// Numbers of things, with their plural forms.
const (
	txtRows   = "%[1]d rows"
	txtPieces = "%[1]d pieces"
)

// txtOrdinal writes an ordinal number in the languages other than English,
// which writes game.Ordinal's own "1st", "2nd", "4th".
const txtOrdinal = "%[1]sth"

// ordinal writes n as an ordinal: "4th", "4e", "4.", "4e".
func ordinal(p lang.Printer, n int) string {
	if p.Code() == "en" {
		return game.Ordinal(n).String()
	}
	return p.Sprintf(txtOrdinal, strconv.Itoa(n))
}

// rankCount writes a number of pieces: "1 Bomb", and in English "no Bombs".
func rankCount(p lang.Printer, c game.Count) string {
	if p.Code() == "en" {
		return c.String()
	}
	return RankCount(p, c.N, c.Rank)
}

// Typed is text a member typed, shown back to them. With %q it stands in
// plain double quotes, as typed: Go's quoting would show the member
// backslashes (`"\"7\""`) that they never wrote. Other verbs print it as
// a string.
type Typed string

// Format implements fmt.Formatter.
func (t Typed) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprint(f, "\""+string(t)+"\"")
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), string(t))
}
