package render

import (
	"fmt"

	"github.com/strategobot/strategobot/game"
)

// ResultText words how a game ended for a reader: "You won: Bob's Flag was
// captured." to a player, "Ann won: Bob resigned." to the public. names are
// Red's and Blue's names as the reader should see them. It is the one wording
// of a result: the pictures say it with the sides' colours for names, the
// bot's messages with the players' names. A game still on has no result text.
func ResultText(r game.Result, names [2]string, reader game.Viewer) string {
	winner, won := r.Winner()
	if !r.Over() {
		return ""
	}
	if !won {
		switch r.Method {
		case game.DrawAgreed:
			return "The game is drawn by agreement."
		case game.NoMovablePieces, game.NoLegalMoves:
			return "The game is drawn: neither side can move."
		case game.MoveLimit:
			return "The game is drawn at the move limit."
		}
		return "The game is drawn."
	}
	s := speaker{names: names, reader: reader}
	loser := winner.Opponent()
	var how string
	switch r.Method {
	case game.FlagCaptured:
		how = s.possessive(loser) + " Flag was captured"
	case game.NoMovablePieces:
		how = s.has(loser) + " no piece left that can move"
	case game.NoLegalMoves:
		how = s.has(loser) + " no legal move left"
	case game.Resignation:
		how = s.subject(loser) + " resigned"
	case game.TimeForfeit:
		how = s.subject(loser) + " ran out of time"
	case game.Awarded:
		how = "a moderator awarded the match"
	default:
		how = r.Method.String()
	}
	switch {
	case s.isReader(winner):
		return "You won: " + how + "."
	case s.isReader(loser):
		return "You lost: " + how + "."
	}
	return fmt.Sprintf("%s won: %s.", names[winner], how)
}

// speaker names the sides inside a sentence for a reader: "you" for the
// reader's own side, the name for the other.
type speaker struct {
	names  [2]string
	reader game.Viewer
}

func (s speaker) isReader(side game.Side) bool {
	me, ok := s.reader.IsPlayer()
	return ok && me == side
}

func (s speaker) subject(side game.Side) string {
	if s.isReader(side) {
		return "you"
	}
	return s.names[side]
}

func (s speaker) possessive(side game.Side) string {
	if s.isReader(side) {
		return "your"
	}
	return s.names[side] + "'s"
}

func (s speaker) has(side game.Side) string {
	if s.isReader(side) {
		return "you have"
	}
	return s.names[side] + " has"
}
