package render

import (
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
