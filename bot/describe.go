package bot

import (
	"fmt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
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

// describeResult words the end of a match for the viewer, in the wording the
// pictures use too: "You won: Bob's Flag was captured."
func (n narrator) describeResult(r game.Result) string {
	return render.ResultText(r, n.names, n.viewer)
}
