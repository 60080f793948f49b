package render

import (
	"fmt"
	"strings"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/nametext"
)

// TextBoardLimit is the most characters a text board has, so that it fits
// in one Discord message (2,000 characters) inside a ``` code block.
const TextBoardLimit = 2000 - len("```\n\n```")

// TextBoard returns v as a text diagram for a monospace code block and for
// screen readers: a line saying the moment and whose move it is, who sits
// where, the board with a row number before every row and the column letters
// above and below, turned like the picture (the viewer's army at the bottom),
// the last move, and a key. The viewer's own pieces show their rank labels
// in o's numbering (with * when the opponent knows the rank); a hidden piece
// is "?", or "?m" once it has moved; another piece whose rank the viewer
// knows is its side's letter and its label, such as "b5". Like the pictures
// it is written from v alone. It is at most TextBoardLimit characters.
func TextBoard(v game.View, o Options) (string, error) {
	if err := checkView(&v, o); err != nil {
		return "", err
	}
	d := newDescriber(&v, o, nametext.Code)
	bottom := game.Red
	if d.isPlayer {
		bottom = d.me
	}
	var b strings.Builder
	status := strings.Join(d.status(), " ")
	p := d.w.p
	b.WriteString(p.Sprintf(txtBoardTitle, d.w.variant(v.Rules.Variant), d.when(), status) + "\n")
	sides := txtBoardSides
	if d.isPlayer {
		sides = txtBoardSidesYou
	}
	b.WriteString(p.Sprintf(sides, d.who[bottom], d.who[bottom.Opponent()]) + "\n")

	// Columns and rows in the order the picture shows them.
	cols, rows := make([]int, 10), make([]int, 10)
	for i := range 10 {
		cols[i], rows[i] = i, 9-i
		if bottom == game.Blue {
			cols[i], rows[i] = 9-i, i
		}
	}
	letters := "   "
	for _, c := range cols {
		letters += fmt.Sprintf(" %-3c", 'A'+c)
	}
	letters = strings.TrimRight(letters, " ")
	b.WriteString(letters + "\n")
	for _, row := range rows {
		line := fmt.Sprintf("%2d ", row+1)
		for _, col := range cols {
			line += fmt.Sprintf(" %-3s", d.textCell(game.SquareAt(col, row)))
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString(letters + "\n")

	if _, ok := v.LastMove(); ok {
		b.WriteString(strings.Join(d.lastMove(), " ") + "\n")
	}
	if d.isPlayer {
		opp := d.me.Opponent()
		b.WriteString(p.Sprintf(txtBoardKeyPlayer, d.w.side(opp), sideLetter[opp]) + "\n")
	} else {
		b.WriteString(p.Sprintf(txtBoardKeyPublic) + "\n")
	}
	b.WriteString(p.Sprintf(txtBoardRanks, rankList(d.w, d.n, &v.Rules.Army)))
	return shorten(b.String(), TextBoardLimit), nil
}

// textCell writes square s as the viewer knows it, in at most three characters.
func (d *describer) textCell(s game.Square) string {
	if s.IsLake() {
		return symLake
	}
	c := d.v.Board[s]
	if !c.Occupied {
		return symEmpty
	}
	rank := knownRank(c)
	own := d.isPlayer && c.Side == d.me
	switch {
	case own && (c.Revealed || c.KnownScout):
		return rank.Label(d.n) + symKnown
	case own:
		return rank.Label(d.n)
	case rank != game.NoRank:
		return sideLetter[c.Side] + rank.Label(d.n)
	}
	out := symHidden
	if !d.isPlayer {
		out = sideLetter[c.Side] + out
	}
	if c.Moved {
		out += symMoved
	}
	return out
}
