package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"github.com/strategobot/strategobot/game"
)

// ReplayOptions are the options of an animated replay.
type ReplayOptions struct {
	Options
	// Delay is how long each move stays on screen; zero means 0.5 s. GIF
	// counts in hundredths of a second, so it is rounded to that, and to at
	// least 0.02 s, since viewers show shorter delays as 0.1 s.
	Delay time.Duration
}

// Durations of the first and last frames, in hundredths of a second.
const (
	replayStartDelay = 150
	replayEndDelay   = 500
	statusLead       = 2 // the status line's image block, just before the board's
)

// MaxReplayFrames bounds a replay: a game of more moves shows every k-th
// position (and the last), so that a 20,000-move game costs no more memory,
// time or upload size than a 400-move one, and says so in every frame.
const MaxReplayFrames = 400

// replayStride returns k: every k-th position of a game of n moves is shown.
func replayStride(n int) int { return max(1, (n+MaxReplayFrames-1)/MaxReplayFrames) }

// Replay writes an animated GIF of a finished game, both armies shown from the
// first move to the last, with the result on the final frame. A game still on
// is refused with ErrGameNotOver: its set-ups are secret. A game longer than
// MaxReplayFrames moves is shown every k-th move, as its frames say.
//
// The game is played again from its rules, set-ups and moves. Every frame after
// the first holds only the rectangles that changed, with unchanged pixels
// transparent, and all share one palette. A move's frame is two image blocks,
// the status and caption lines shown 0.02 s before the board (see addFrame).
func (r *Renderer) Replay(w io.Writer, g *game.Game, o ReplayOptions) error {
	if g == nil {
		return fmt.Errorf("%w: no game", ErrInvalidInput)
	}
	if !g.Result().Over() {
		return ErrGameNotOver
	}
	if err := checkOptions(o.Options); err != nil {
		return err
	}
	re, err := game.NewGame(g.Rules(), g.Setup(game.Red), g.Setup(game.Blue))
	if err != nil {
		return fmt.Errorf("render: replaying: %w", err)
	}
	delay := 50
	if o.Delay > 0 {
		delay = max(statusLead, int((o.Delay+5*time.Millisecond)/(10*time.Millisecond)))
	}
	// The GIF palette is the theme's plus a transparent colour for the
	// pixels a frame leaves unchanged. Every frame shares this very slice,
	// so that the encoder writes one global colour table.
	pal := append(append(color.Palette(nil), r.pal...), color.RGBA{})
	transparent := uint8(len(pal) - 1)
	l := &r.replay
	bounds := image.Rect(0, 0, l.w, l.h)
	prev, cur := image.NewPaletted(bounds, pal), image.NewPaletted(bounds, pal)
	rs := replayScene{names: o.Names, numbering: numberingIndex(o.Numbering), total: len(g.Moves()), variant: words{o.Lang}.variant(g.Rules().Variant), w: words{o.Lang},
		stride: replayStride(len(g.Moves()))}
	anim := &gif.GIF{Config: image.Config{ColorModel: pal, Width: l.w, Height: l.h}}

	r.drawReplayFrame(prev, re, &rs)
	first := image.NewPaletted(bounds, pal)
	copy(first.Pix, prev.Pix)
	anim.Image = append(anim.Image, first)
	anim.Delay = append(anim.Delay, replayStartDelay)
	anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	// addFrame adds the changes from prev to cur, shown for d hundredths of
	// a second. The lines at the top and the board change in places far
	// apart: one rectangle holding both would be half the picture, so the
	// top lines get an image block of their own, shown 0.02 s before the board's
	// (the shortest delay viewers honour; a shorter one is shown as 0.1 s).
	// That halves the pixels to compress.
	addFrame := func(d int) {
		top := l.status.Union(l.footer[0])
		below := image.Rect(0, top.Max.Y, l.w, l.h)
		blocks := []*image.Paletted{deltaFrame(prev, cur, transparent, top), deltaFrame(prev, cur, transparent, below)}
		if blocks[0] != nil && blocks[1] != nil && d > 2*statusLead {
			anim.Image = append(anim.Image, blocks[0], blocks[1])
			anim.Delay = append(anim.Delay, statusLead, d-statusLead)
			anim.Disposal = append(anim.Disposal, gif.DisposalNone, gif.DisposalNone)
		} else if f := deltaFrame(prev, cur, transparent, bounds); f != nil {
			anim.Image = append(anim.Image, f)
			anim.Delay = append(anim.Delay, d)
			anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		} else {
			anim.Delay[len(anim.Delay)-1] += d
		}
		prev, cur = cur, prev
	}
	for i, rec := range g.Moves() {
		// Played as recorded: the repetition rules judged each move when it
		// was made, and may be stricter now (game.Game.ApplyRecorded).
		if _, err := re.ApplyRecorded(rec.Move); err != nil {
			return fmt.Errorf("render: replaying move %d %s: %w", i+1, rec, err)
		}
		if i == len(g.Moves())-1 {
			// The last move is shown with the result: the end is one frame.
			break
		}
		if (i+1)%rs.stride != 0 {
			continue // a long game: only every stride-th position is shown
		}
		r.drawReplayFrame(cur, re, &rs)
		addFrame(delay)
	}
	rs.result, rs.over = g.Result(), true
	r.drawReplayFrame(cur, re, &rs)
	addFrame(replayEndDelay)
	if err := gif.EncodeAll(w, anim); err != nil {
		return fmt.Errorf("render: encoding GIF: %w", err)
	}
	return nil
}

// replayScene is what a replay frame shows besides the board.
type replayScene struct {
	names     [2]string
	numbering int
	total     int
	stride    int // every stride-th position is shown (1: every one)
	variant   string
	w         words
	result    game.Result
	over      bool
}

// drawReplayFrame paints the position of re, both armies shown, on img.
func (r *Renderer) drawReplayFrame(img *image.Paletted, re *game.Game, rs *replayScene) {
	l := &r.replay
	copy(img.Pix, r.replayBg)
	var cells [game.NumSquares]game.Cell
	var bg [game.NumSquares]uint8
	for s := range game.Square(game.NumSquares) {
		if side, rank, ok := re.PieceAt(s); ok {
			cells[s] = game.Cell{Occupied: true, Side: side, Rank: rank}
		}
	}
	w := rs.w
	st := statusLine{left: w.p.Sprintf(txtStatusReplay, rs.variant), right: w.p.Sprintf(txtReplayStart)}
	if rs.stride > 1 {
		st.left = w.p.Sprintf(txtStatusReplaySampled, rs.stride)
	}
	var caption []item
	if last, ok := re.LastMove(); ok {
		markLastMove(&bg, last)
		st.right = w.p.Sprintf(txtReplayMove, re.Ply(), rs.total)
		caption = r.replayCaption(w, last, numberings[rs.numbering])
	}
	if rs.over {
		st.left = w.p.Sprintf(txtStatusEnd, rs.variant, w.moves(rs.total))
		st.right, st.banner = ResultText(w.p, rs.result, w.sides(), game.PublicViewer), true
		caption = r.winnerItems(w, rs.result, rs.names)
	}
	r.drawStatus(img, l.status, st)
	for i, side := range [2]game.Side{game.Blue, game.Red} {
		ps := playerStrip{side: side, name: rs.names[side], note: w.side(side), sideName: w.side(side)}
		r.drawStrip(img, l.strips[i], &ps, rs.numbering)
	}
	r.drawItems(img, l.footer[0], caption, rs.numbering)
	r.drawSquares(img, l, game.Red, &cells, &bg, rs.numbering, false)
}

// replayCaption is a replay's line for a move: "Blue F5xF4:  [5] Lieutenant
// beats [4] Sergeant", or "Red B4-B5" (the status line has its number). A
// battle too long for the line, as some are in German and French, goes
// without the side's name, which its mini pieces show by colour and shape.
func (r *Renderer) replayCaption(w words, last game.MoveRecord, n game.Numbering) []item {
	items := []item{
		{text: w.side(last.Side) + " ", ink: inkRed + int(last.Side), bold: true},
		{text: last.Notation(n), ink: inkText, bold: true},
	}
	if battle := battleItems(w, last); len(battle) > 0 {
		items = append(items, item{text: w.p.Sprintf(txtBattleSeparator)})
		items = append(items, battle...)
		if r.itemsWidth(items) > pageW-2*padX {
			items = items[1:]
		}
	}
	return items
}

// deltaFrame returns the smallest rectangle of cur within area that differs
// from prev, with the pixels that did not change made transparent, or nil when
// nothing in area changed. Both images are full frames at the origin.
func deltaFrame(prev, cur *image.Paletted, transparent uint8, area image.Rectangle) *image.Paletted {
	area = area.Intersect(cur.Rect)
	minY, maxY := -1, -1
	minX, maxX := area.Max.X, -1
	for y := area.Min.Y; y < area.Max.Y; y++ {
		a := prev.Pix[y*prev.Stride+area.Min.X : y*prev.Stride+area.Max.X]
		b := cur.Pix[y*cur.Stride+area.Min.X : y*cur.Stride+area.Max.X]
		if bytes.Equal(a, b) {
			continue
		}
		if minY < 0 {
			minY = y
		}
		maxY = y
		x0 := 0
		for a[x0] == b[x0] {
			x0++
		}
		x1 := len(a) - 1
		for a[x1] == b[x1] {
			x1--
		}
		minX, maxX = min(minX, area.Min.X+x0), max(maxX, area.Min.X+x1)
	}
	if minY < 0 {
		return nil
	}
	rect := image.Rect(minX, minY, maxX+1, maxY+1)
	out := image.NewPaletted(rect, cur.Palette)
	dx := rect.Dx()
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		a := prev.Pix[y*prev.Stride+rect.Min.X:][:dx]
		b := cur.Pix[y*cur.Stride+rect.Min.X:][:dx]
		o := out.Pix[(y-rect.Min.Y)*out.Stride:][:dx]
		if bytes.Equal(a, b) {
			// Most rows of the rectangle did not change: no pixel loop for them.
			o[0] = transparent
			for filled := 1; filled < dx; filled *= 2 {
				copy(o[filled:], o[:filled])
			}
			continue
		}
		for i := range b {
			if a[i] == b[i] {
				o[i] = transparent
			} else {
				o[i] = b[i]
			}
		}
	}
	return out
}
