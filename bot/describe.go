package bot

import (
	"fmt"

	"github.com/strategobot/strategobot/game"
)

// narrator words what happened in a match for one viewer: "You" and "your" for
// the viewer's own side, the player's name for the other. It reads only the
// viewer's view and move records, which hold public knowledge, so its sentences
// cannot reveal a hidden rank.
type narrator struct {
	viewer    game.Viewer
	names     [2]string // display names of Red's and Blue's players
	numbering game.Numbering
}

func (n narrator) isViewer(side game.Side) bool {
	s, ok := n.viewer.IsPlayer()
	return ok && s == side
}

// subject is who acted: "You" or "Alice".
func (n narrator) subject(side game.Side) string {
	if n.isViewer(side) {
		return "You"
	}
	return n.names[side]
}

// owner is a possessive at the start of a sentence: "Your" or "Alice's".
func (n narrator) owner(side game.Side) string {
	if n.isViewer(side) {
		return "Your"
	}
	return n.names[side] + "'s"
}

// ownerMid is a possessive inside a sentence: "your" or "Alice's".
func (n narrator) ownerMid(side game.Side) string {
	if n.isViewer(side) {
		return "your"
	}
	return n.names[side] + "'s"
}

// describeMove words one move as the viewer knows it. after is the viewer's view
// right after the move; it tells whether the moved piece's rank is known.
func (n narrator) describeMove(rec game.MoveRecord, after *game.View) string {
	m := rec.Move
	side, enemy := rec.Side, rec.Side.Opponent()
	a, d := rec.Attacker.Describe(n.numbering), rec.Defender.Describe(n.numbering)
	switch rec.Outcome {
	case game.NoBattle:
		cell := after.Board[m.To]
		switch {
		case cell.Rank != game.NoRank && n.isViewer(side):
			return fmt.Sprintf("You moved your %s %s.", cell.Rank.Describe(n.numbering), m)
		case cell.Rank != game.NoRank:
			return fmt.Sprintf("%s %s moved %s.", n.owner(side), cell.Rank.Describe(n.numbering), m)
		case cell.KnownScout:
			return fmt.Sprintf("%s moved a Scout %s.", n.subject(side), m)
		}
		return fmt.Sprintf("%s moved %s.", n.subject(side), m)
	case game.AttackerWon:
		switch rec.Defender {
		case game.Flag:
			return fmt.Sprintf("%s %s captured %s Flag on %s!", n.owner(side), a, n.ownerMid(enemy), m.To)
		case game.Bomb:
			return fmt.Sprintf("%s %s defused %s Bomb on %s.", n.owner(side), a, n.ownerMid(enemy), m.To)
		}
		return fmt.Sprintf("%s %s took %s %s on %s.", n.owner(side), a, n.ownerMid(enemy), d, m.To)
	case game.DefenderWon:
		if rec.Defender == game.Bomb {
			return fmt.Sprintf("%s %s hit %s Bomb on %s and was lost.", n.owner(side), a, n.ownerMid(enemy), m.To)
		}
		return fmt.Sprintf("%s %s attacked %s %s on %s and was lost.", n.owner(side), a, n.ownerMid(enemy), d, m.To)
	case game.BothRemoved:
		return fmt.Sprintf("%s %s and %s %s removed each other on %s.", n.owner(side), a, n.ownerMid(enemy), d, m.To)
	case game.GuessedRight:
		return fmt.Sprintf("%s Infiltrator on %s named %s piece on %s a %s: right, it is removed.",
			n.owner(side), m.From, n.ownerMid(enemy), m.To, rec.Move.Guess.Describe(n.numbering))
	case game.GuessedWrong:
		return fmt.Sprintf("%s Infiltrator on %s named %s piece on %s a %s: wrong, nothing happens.",
			n.owner(side), m.From, n.ownerMid(enemy), m.To, rec.Move.Guess.Describe(n.numbering))
	}
	return fmt.Sprintf("%s played %s.", n.subject(side), rec.Notation(n.numbering))
}

// describeResult words the end of a match: "You won: you captured Alice's Flag."
func (n narrator) describeResult(r game.Result) string {
	winner, won := r.Winner()
	if !r.Over() {
		return ""
	}
	if !won {
		switch r.Method {
		case game.DrawAgreed:
			return "The game is drawn by agreement."
		case game.NoMovablePieces, game.NoLegalMoves:
			return "The game is drawn: neither side has a piece that can move."
		case game.MoveLimit:
			return "The game is drawn: the move limit was reached."
		}
		return "The game is drawn."
	}
	loser := winner.Opponent()
	var how string
	switch r.Method {
	case game.FlagCaptured:
		how = fmt.Sprintf("%s Flag was captured", n.ownerMid(loser))
	case game.NoMovablePieces:
		how = fmt.Sprintf("%s no piece left that can move", n.hasPhrase(loser))
	case game.NoLegalMoves:
		how = fmt.Sprintf("%s no legal move left", n.hasPhrase(loser))
	case game.Resignation:
		how = fmt.Sprintf("%s resigned", n.subjectMid(loser))
	case game.TimeForfeit:
		how = fmt.Sprintf("%s ran out of time", n.subjectMid(loser))
	default:
		how = r.Method.String()
	}
	if n.isViewer(winner) {
		return "You won: " + how + "."
	}
	if n.isViewer(loser) {
		return "You lost: " + how + "."
	}
	return fmt.Sprintf("%s won: %s.", n.names[winner], how)
}

func (n narrator) subjectMid(side game.Side) string {
	if n.isViewer(side) {
		return "you"
	}
	return n.names[side]
}

func (n narrator) hasPhrase(side game.Side) string {
	if n.isViewer(side) {
		return "you have"
	}
	return n.names[side] + " has"
}
