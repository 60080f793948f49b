package render

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/nametext"
)

// AltTextLimit is the most characters Discord accepts in an attachment's
// description (its alt text), counted as UTF-16 code units.
const AltTextLimit = 1024

// AltText returns the description of the picture Board or Reveal draws of v,
// for people who cannot see it: Discord shows it as the attachment's alt
// text. Like the picture it is written from v alone, so it says only what
// v's viewer knows: who plays and whose move it is, the last move and its
// battle, what that move took, the pieces each side has left, and which
// pieces' ranks the viewer knows and where they stand. It is at most
// AltTextLimit characters: long lists are cut short first ("and 9 more").
func AltText(v game.View, o Options) (string, error) {
	if err := checkView(&v, o); err != nil {
		return "", err
	}
	d := newDescriber(&v, o, nametext.Plain)
	var s string
	for _, limit := range []int{game.MaxPieces, 12, 6, 3, 0} {
		if s = d.altText(limit); utf16Len(s) <= AltTextLimit {
			return s, nil
		}
	}
	return shorten(s, AltTextLimit), nil
}

// describer writes the sentences of alt texts and text boards from a view.
type describer struct {
	v        *game.View
	n        game.Numbering
	me       game.Side // the viewer's side, when isPlayer
	isPlayer bool
	who      [2]string // each player as "Ada (Red)"
	clocks   [2]string // each side's time left on a game clock, or ""
	// calledOff is a match called off with no result (Options.CalledOff).
	calledOff bool
	w         words // the language
}

// newDescriber describes v with o, each player's name written by name: by
// nametext.Plain for an alt text, which shows text as it is, by
// nametext.Code for the text board, which goes in a code block (package
// nametext's rule). A name that shows nothing (nametext.Blank) leaves the
// side's name alone.
func newDescriber(v *game.View, o Options, name func(string) string) describer {
	d := describer{v: v, n: o.Numbering, clocks: o.Clocks, calledOff: o.CalledOff, w: words{o.Lang}}
	d.me, d.isPlayer = v.Viewer.IsPlayer()
	for _, side := range []game.Side{game.Red, game.Blue} {
		d.who[side] = d.w.side(side)
		if !nametext.Blank(o.Names[side]) {
			d.who[side] = d.w.p.Sprintf(txtWhoSide, name(o.Names[side]), d.w.side(side))
		}
	}
	return d
}

// altText writes the alt text with at most limit items in each list.
func (d *describer) altText(limit int) string {
	v := d.v
	var out []string
	if d.isPlayer {
		out = append(out, d.w.p.Sprintf(txtAltPlayer, d.w.variant(v.Rules.Variant), d.when(), d.who[d.me], d.who[d.me.Opponent()]))
	} else {
		out = append(out, d.w.p.Sprintf(txtAltPublic, d.w.variant(v.Rules.Variant), d.when(), d.who[game.Red], d.who[game.Blue]))
		if v.Result.Over() && d.hiddenCount() == 0 {
			out = append(out, d.w.p.Sprintf(txtAltEveryPiece))
		}
	}
	out = append(out, d.status()...)
	out = append(out, d.lastMove()...)
	sides := []game.Side{game.Red, game.Blue}
	if d.isPlayer {
		sides = []game.Side{d.me, d.me.Opponent()}
	}
	for _, side := range sides {
		out = append(out, d.left(side, limit))
	}
	out = append(out, d.knowledge(limit)...)
	if c := d.clocks; (c[0] != "" || c[1] != "") && !v.Result.Over() {
		out = append(out, d.w.p.Sprintf(txtAltClocks, d.who[game.Red], c[game.Red], d.who[game.Blue], c[game.Blue]))
	}
	return strings.Join(out, " ")
}

// when says which moment the view shows: "after move 30".
func (d *describer) when() string {
	switch {
	case d.v.Result.Over():
		return d.w.p.Sprintf(txtAltEnd, d.w.moves(d.v.Ply()))
	case d.v.Ply() == 0:
		return d.w.p.Sprintf(txtAltStart)
	}
	return d.w.p.Sprintf(txtAltAfter, d.v.Ply())
}

// status says whose move it is and whether a draw is offered, or how the game ended.
func (d *describer) status() []string {
	v := d.v
	if v.Result.Over() {
		out := []string{ResultText(d.w.p, v.Result, d.w.sides(), v.Viewer)}
		if winner, won := v.Result.Winner(); won {
			return append(out, d.w.p.Sprintf(txtAltWinner, d.who[winner]))
		}
		return append(out, d.w.p.Sprintf(txtAltNoWinner))
	}
	if d.calledOff {
		return []string{d.w.p.Sprintf(txtAltCalledOff)}
	}
	var out []string
	if v.DrawOffered {
		out = append(out, d.w.p.Sprintf(txtAltDrawOffer, d.who[v.DrawOfferBy]))
	}
	if d.isPlayer && v.ToMove == d.me {
		return append(out, d.w.p.Sprintf(txtAltYourMove))
	}
	return append(out, d.w.p.Sprintf(txtAltToMove, d.who[v.ToMove]))
}

// knownRank returns the rank of the piece in c as the viewer knows it, or NoRank.
func knownRank(c game.Cell) game.Rank {
	if c.Rank == game.NoRank && c.KnownScout {
		return game.Scout // it moved more than one square: everyone knows
	}
	return c.Rank
}

// lastMove describes the last move, its battle and what it took.
func (d *describer) lastMove() []string {
	v := d.v
	rec, ok := v.LastMove()
	if !ok {
		return []string{d.w.p.Sprintf(txtAltNoMove)}
	}
	ply, from, to := v.Ply(), rec.Move.From.String(), rec.Move.To.String()
	att, def := rec.Side, rec.Side.Opponent()
	piece := func(r game.Rank) string { return d.w.rankLabelled(r, d.n) }
	var out []string
	switch {
	case rec.Move.IsInfiltration():
		outcome := d.w.p.Sprintf(txtAltGuessWrong)
		if rec.Outcome == game.GuessedRight {
			outcome = d.w.p.Sprintf(txtAltGuessRight)
		}
		if d.isPlayer && att == d.me {
			out = append(out, d.w.p.Sprintf(txtAltYourGuess, ply, from, to, d.w.guessOf(rec.Move.Guess, d.n), outcome))
			break
		}
		out = append(out, d.w.p.Sprintf(txtAltInfiltrate, ply, d.who[att], from, to, d.w.guessOf(rec.Move.Guess, d.n), outcome))
	case rec.IsAttack():
		// side, piece, side, piece; a Bomb's own texts name it, so that
		// each language writes its article (die Bombe, la Bombe) as it
		// writes the others'.
		key, args := txtAltBeats, []any{d.w.side(att), piece(rec.Attacker), d.w.side(def), piece(rec.Defender)}
		switch {
		case rec.Outcome == game.AttackerWon && rec.Defender == game.Flag:
			key = txtAltCaptures
		case rec.Defender == game.Bomb && rec.Outcome == game.AttackerWon:
			key, args = txtAltBeatsBomb, args[:3]
		case rec.Defender == game.Bomb:
			key, args = txtAltLosesToBomb, args[:3]
		case rec.Outcome == game.DefenderWon:
			key = txtAltLosesTo
		case rec.Outcome == game.BothRemoved:
			key = txtAltBothFall
		}
		battle := d.w.p.Sprintf(key, args...)
		if d.isPlayer && att == d.me {
			// The viewer's own attack, told as their moves are.
			out = append(out, d.w.p.Sprintf(txtAltAttackYours, ply, from, to, battle))
			break
		}
		out = append(out, d.w.p.Sprintf(txtAltAttack, ply, d.who[att], from, to, battle))
	default:
		rank := knownRank(v.Board[rec.Move.To])
		switch {
		case d.isPlayer && att == d.me:
			out = append(out, d.w.p.Sprintf(txtAltMoveYours, ply, piece(rank), from, to))
		case rank != game.NoRank:
			out = append(out, d.w.p.Sprintf(txtAltMoveKnown, ply, d.who[att], piece(rank), from, to))
		default:
			out = append(out, d.w.p.Sprintf(txtAltMoveHidden, ply, d.who[att], from, to))
		}
	}
	lost := func(side game.Side, r game.Rank) {
		out = append(out, d.w.p.Sprintf(txtAltLost, d.w.side(side), d.w.rankCount(1, r)))
	}
	switch rec.Outcome {
	case game.AttackerWon, game.GuessedRight:
		lost(def, rec.Defender)
	case game.DefenderWon:
		lost(att, rec.Attacker)
	case game.BothRemoved:
		lost(att, rec.Attacker)
		lost(def, rec.Defender)
	}
	return out
}

// left says how many pieces side has left and which it lost.
func (d *describer) left(side game.Side, limit int) string {
	army, left := d.v.Rules.Army.Total(), d.v.Remaining[side].Total()
	var lost []string
	for _, r := range game.Ranks {
		if n := int(d.v.Captured[side][r]); n > 0 {
			lost = append(lost, d.w.rankCount(n, r))
		}
	}
	if len(lost) == 0 {
		return d.w.p.Sprintf(txtAltLeftAll, d.w.side(side), left)
	}
	return d.w.p.Sprintf(txtAltLeftSome, d.w.side(side), left, army, d.w.list(lost, max(limit, 4)))
}

// pieces returns side's pieces on the board whose rank the viewer knows, as
// "Captain (6) on A5" (own pieces only when the opponent knows them too),
// and counts the others and how many of them moved.
func (d *describer) pieces(side game.Side) (known []string, hidden, moved int) {
	own := d.isPlayer && side == d.me
	for s, c := range d.v.Board {
		if !c.Occupied || c.Side != side {
			continue
		}
		rank := knownRank(c)
		switch {
		case own && (c.Revealed || c.KnownScout):
			known = append(known, d.w.p.Sprintf(txtAltPieceOn, d.w.rankLabelled(rank, d.n), game.Square(s)))
		case own:
		case rank != game.NoRank:
			known = append(known, d.w.p.Sprintf(txtAltPieceOn, d.w.rankLabelled(rank, d.n), game.Square(s)))
		default:
			hidden++
			if c.Moved {
				moved++
			}
		}
	}
	return known, hidden, moved
}

// hiddenCount counts the pieces whose rank the viewer does not know.
func (d *describer) hiddenCount() int {
	_, red, _ := d.pieces(game.Red)
	_, blue, _ := d.pieces(game.Blue)
	return red + blue
}

// hiddenText says how many of side's pieces are hidden and how many of
// those moved, each number with its plural form ("Rouge : 2 cachées, dont 1
// a bougé."); one hidden piece is told by itself ("Blue: 1 hidden piece,
// which has moved.").
func (d *describer) hiddenText(side game.Side, hidden, moved int) string {
	if hidden == 1 {
		if moved > 0 {
			return d.w.p.Sprintf(txtAltOneHiddenMoved, d.w.side(side))
		}
		return d.w.p.Sprintf(txtAltOneHiddenStill, d.w.side(side))
	}
	movedText := d.w.p.Sprintf(txtAltNoneMoved)
	if moved > 0 {
		movedText = d.w.p.Sprintf(txtAltMoved, moved)
	}
	return d.w.p.Sprintf(txtAltHidden, hidden, d.w.side(side), movedText)
}

// knowledge says which ranks the viewer knows and where those pieces stand.
func (d *describer) knowledge(limit int) []string {
	var out []string
	if d.isPlayer {
		opp := d.me.Opponent()
		known, hidden, moved := d.pieces(opp)
		total := d.v.Remaining[opp].Total()
		// Each says how many pieces the opponent has, the count its
		// plural forms follow: "You know Blue's only piece: …".
		switch {
		case total == 0:
		case len(known) == 0:
			out = append(out, d.w.p.Sprintf(txtAltYouKnowNone, total, d.w.side(opp)))
		default:
			out = append(out, d.w.p.Sprintf(txtAltYouKnow, total, len(known), d.w.side(opp), d.w.list(known, limit)))
		}
		if hidden > 0 {
			out = append(out, d.hiddenText(opp, hidden, moved))
		}
		if mine, _, _ := d.pieces(d.me); len(mine) > 0 {
			out = append(out, d.w.p.Sprintf(txtAltTheyKnow, d.w.side(opp), len(mine), d.w.list(mine, limit)))
		}
		return out
	}
	for _, side := range []game.Side{game.Red, game.Blue} {
		known, hidden, moved := d.pieces(side)
		if len(known) > 0 {
			out = append(out, d.w.p.Sprintf(txtAltKnown, d.w.side(side), d.w.list(known, limit)))
		}
		if hidden > 0 {
			out = append(out, d.hiddenText(side, hidden, moved))
		}
	}
	return out
}

// utf16Len is the length of s as Discord counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// shorten cuts s to at most limit UTF-16 code units, ending it with "…".
func shorten(s string, limit int) string {
	if utf16Len(s) <= limit {
		return s
	}
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r) > limit-1 {
			return s[:i] + "…"
		}
		n += utf16.RuneLen(r)
	}
	return s
}

// KeyAltText returns the alt text of the picture Key draws with o.
func KeyAltText(o Options) (string, error) {
	if err := checkOptions(o); err != nil {
		return "", err
	}
	w := words{o.Lang}
	parts := []string{w.p.Sprintf(txtAltKey)}
	for _, t := range keyTexts {
		parts = append(parts, w.p.Sprintf(t))
	}
	parts = append(parts, w.p.Sprintf(txtKeyRanks, w.p.Sprintf(txtKeyNumbering(o.Numbering))), rankList(w, o.Numbering, nil)+".", w.p.Sprintf(txtKeySquares))
	return shorten(strings.Join(parts, " "), AltTextLimit), nil
}

// rankList lists the ranks with their labels, "10 Marshal, 9 General, …",
// those of army only when army is not nil.
func rankList(w words, n game.Numbering, army *game.Army) string {
	var ranks []string
	for _, r := range game.Ranks {
		if army == nil || army[r] > 0 {
			ranks = append(ranks, w.p.Sprintf(txtBoardRank, r.Label(n), w.rank(r)))
		}
	}
	return w.list(ranks, len(ranks))
}

// SetupAltText returns the alt text of the picture SetupPreview draws of
// side's set-up s: every square of it, and whether it is ready to confirm.
// It is for side's player only, like the picture.
func SetupAltText(s game.Setup, side game.Side, rules game.Rules, o Options) (string, error) {
	if err := checkSetup(s, side, o); err != nil {
		return "", err
	}
	w := words{o.Lang}
	parts := []string{w.p.Sprintf(txtAltSetup, w.variant(rules.Variant), w.side(side))}
	for row := range game.SetupRows {
		labels := make([]string, 10)
		for col, r := range s[row] {
			labels[col] = w.p.Sprintf(txtAltSetupEmpty)
			if r != game.NoRank {
				labels[col] = r.Label(o.Numbering)
			}
		}
		first, last := game.SetupSquare(side, row, 0), game.SetupSquare(side, row, 9)
		parts = append(parts, w.p.Sprintf(txtAltSetupRow, first.Row()+1, first.String()[:1], last.String()[:1], strings.Join(labels, " ")))
	}
	placed := s.Counts()
	if err := s.Validate(rules); err != nil {
		parts = append(parts, w.p.Sprintf(txtSetupNotReady, setupProblem(w, o.Numbering, err)))
	} else {
		parts = append(parts, w.p.Sprintf(txtSetupReady, w.p.Sprintf(txtPiecesPlaced, placed.Total())))
	}
	return shorten(strings.Join(parts, " "), AltTextLimit), nil
}

// setupProblem words why a set-up is not ready, on one line, in w's language.
func setupProblem(w words, n game.Numbering, err error) string {
	var se *game.SetupError
	if !errors.As(err, &se) {
		return err.Error()
	}
	return strings.ReplaceAll(Reason(w.p, n, se.Text), "\n", " ")
}

// ReplayAltText returns the alt text of the animation Replay draws of g, a
// finished game: who played, how long, and how it ended.
func ReplayAltText(g *game.Game, o ReplayOptions) (string, error) {
	if g == nil {
		return "", fmt.Errorf("%w: no game", ErrInvalidInput)
	}
	if !g.Result().Over() {
		return "", ErrGameNotOver
	}
	if err := checkOptions(o.Options); err != nil {
		return "", err
	}
	v := g.View(game.PublicViewer) // the result and the players, nothing hidden is used
	d := newDescriber(&v, o.Options, nametext.Plain)
	parts := []string{d.w.p.Sprintf(txtAltReplay, d.w.variant(v.Rules.Variant), d.w.moves(v.Ply()), d.who[game.Red], d.who[game.Blue])}
	parts = append(parts, d.status()...)
	return shorten(strings.Join(parts, " "), AltTextLimit), nil
}
