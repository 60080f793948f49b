package bot

import (
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// narrator words what happened in a match for one viewer, in the viewer's
// language: "You" and "your" for the viewer's own side, the player's name for
// the other. It reads only the viewer's view and move records, which hold
// public knowledge, so its sentences cannot reveal a hidden rank.
type narrator struct {
	viewer    game.Viewer
	names     [2]string // display names of Red's and Blue's players
	numbering game.Numbering
	p         lang.Printer
}

func (n narrator) isViewer(side game.Side) bool {
	s, ok := n.viewer.IsPlayer()
	return ok && s == side
}

// piece names a rank in the viewer's language and numbering: "Captain (6)".
func (n narrator) piece(r game.Rank) string { return render.PieceName(n.p, r, n.numbering) }

// perspective picks the sentence for who the viewer is: the mover, the
// mover's opponent, or neither.
func (n narrator) perspective(side game.Side, mine, theirs, public string) string {
	switch {
	case n.isViewer(side):
		return mine
	case n.isViewer(side.Opponent()):
		return theirs
	}
	return public
}

// describeMove words one move as the viewer knows it. after is the viewer's view
// right after the move; it tells whether the moved piece's rank is known.
// In every sentence %[1]s is the mover's name, %[2]s the opponent's, %[3]s
// the mover's piece, %[4]s the other piece, %[5]s the move or its target
// square, %[6]s the square it came from.
func (n narrator) describeMove(rec game.MoveRecord, after *game.View) string {
	m := rec.Move
	side, enemy := rec.Side, rec.Side.Opponent()
	battle := func(key string) string {
		return n.p.Sprintf(key, n.names[side], n.names[enemy], n.piece(rec.Attacker), n.piece(rec.Defender), m.To.String(), m.From.String())
	}
	moved := func(key string, rank game.Rank) string {
		return n.p.Sprintf(key, n.names[side], n.names[enemy], n.piece(rank), "", m.String(), m.From.String())
	}
	switch rec.Outcome {
	case game.NoBattle:
		cell := after.Board[m.To]
		switch {
		case n.isViewer(side):
			return moved("You moved your %[3]s %[5]s.", cell.Rank)
		case cell.Rank != game.NoRank:
			return moved("%[1]s's %[3]s moved %[5]s.", cell.Rank)
		case cell.KnownScout:
			return moved("%[1]s moved a Scout %[5]s.", game.Scout)
		}
		return moved("%[1]s moved %[5]s.", game.NoRank)
	case game.AttackerWon:
		switch rec.Defender {
		case game.Flag:
			return battle(n.perspective(side, "Your %[3]s captured %[2]s's Flag on %[5]s!", "%[1]s's %[3]s captured your Flag on %[5]s!", "%[1]s's %[3]s captured %[2]s's Flag on %[5]s!"))
		case game.Bomb:
			return battle(n.perspective(side, "Your %[3]s defused %[2]s's Bomb on %[5]s.", "%[1]s's %[3]s defused your Bomb on %[5]s.", "%[1]s's %[3]s defused %[2]s's Bomb on %[5]s."))
		}
		return battle(n.perspective(side, "Your %[3]s took %[2]s's %[4]s on %[5]s.", "%[1]s's %[3]s took your %[4]s on %[5]s.", "%[1]s's %[3]s took %[2]s's %[4]s on %[5]s."))
	case game.DefenderWon:
		if rec.Defender == game.Bomb {
			return battle(n.perspective(side, "Your %[3]s hit %[2]s's Bomb on %[5]s and was lost.", "%[1]s's %[3]s hit your Bomb on %[5]s and was lost.", "%[1]s's %[3]s hit %[2]s's Bomb on %[5]s and was lost."))
		}
		return battle(n.perspective(side, "Your %[3]s attacked %[2]s's %[4]s on %[5]s and was lost.", "%[1]s's %[3]s attacked your %[4]s on %[5]s and was lost.", "%[1]s's %[3]s attacked %[2]s's %[4]s on %[5]s and was lost."))
	case game.BothRemoved:
		return battle(n.perspective(side, "Your %[3]s and %[2]s's %[4]s removed each other on %[5]s.", "%[1]s's %[3]s and your %[4]s removed each other on %[5]s.", "%[1]s's %[3]s and %[2]s's %[4]s removed each other on %[5]s."))
	case game.GuessedRight, game.GuessedWrong:
		guess := n.piece(rec.Move.Guess)
		key := n.perspective(side,
			"Your Infiltrator on %[6]s named %[2]s's piece on %[5]s a %[4]s: right, it is removed.",
			"%[1]s's Infiltrator on %[6]s named your piece on %[5]s a %[4]s: right, it is removed.",
			"%[1]s's Infiltrator on %[6]s named %[2]s's piece on %[5]s a %[4]s: right, it is removed.")
		if rec.Outcome == game.GuessedWrong {
			key = n.perspective(side,
				"Your Infiltrator on %[6]s named %[2]s's piece on %[5]s a %[4]s: wrong, nothing happens.",
				"%[1]s's Infiltrator on %[6]s named your piece on %[5]s a %[4]s: wrong, nothing happens.",
				"%[1]s's Infiltrator on %[6]s named %[2]s's piece on %[5]s a %[4]s: wrong, nothing happens.")
		}
		return n.p.Sprintf(key, n.names[side], n.names[enemy], "", guess, m.To.String(), m.From.String())
	}
	return n.p.Sprintf("%[1]s played %[2]s.", n.names[side], rec.Notation(n.numbering))
}

// describeResult words the end of a match for the viewer, in the wording the
// pictures use too: "You won: Bob's Flag was captured."
func (n narrator) describeResult(r game.Result) string {
	return render.ResultText(n.p, r, n.names, n.viewer)
}

// describeEnd words how m ended, its result r, for the viewer where they look
// back at it (its history, its board): a moderator's award says first
// which moderator ended it and why, as its final boards and the web board
// do.
func (n narrator) describeEnd(m *storage.Match, r game.Result) string {
	text := n.describeResult(r)
	if r.Over() && r.Method == game.Awarded && m.ModeratorNote != "" {
		text = n.p.Sprintf("A moderator ended the match (%[1]s).", m.ModeratorNote) + " " + text
	}
	return text
}
