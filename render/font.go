package render

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"
)

// textLevels is the number of coverage levels of a glyph mask: 0 leaves the
// pixel alone, textLevels-1 paints the ink, and the levels between pick the
// ramp colours of the palette.
const textLevels = rampSteps + 2

// glyph is one pre-rendered character: a coverage mask quantized to
// textLevels, placed relative to the dot.
type glyph struct {
	adv  fixed.Int26_6
	off  image.Point // top-left of the mask relative to the dot
	w, h int
	mask []uint8
}

// atlas is a font at one size, pre-rendered at start-up so that drawing text
// in the hot path only copies bytes: font faces are not safe for concurrent
// use, an atlas is never changed after it is built.
type atlas struct {
	size            float64 // in pixels, as asked of the font
	ascent, descent int
	ascii           [128]*glyph
	other           map[rune]*glyph
	ellipsis        *glyph
}

// atlasRanges are the characters pre-rendered: Latin, Greek, Cyrillic and
// common punctuation, which cover most Discord names. Characters the Go fonts
// lack (emoji, CJK) are left out of names (see cleanName).
var atlasRanges = [][2]rune{
	{0x20, 0x7E}, {0xA0, 0x24F}, {0x370, 0x3FF}, {0x400, 0x4FF},
	{0x2010, 0x2027}, {0x2030, 0x205E}, {0x2190, 0x2195}, {0x2212, 0x2212},
}

func newAtlas(f *opentype.Font, size float64) (*atlas, error) {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: font face at %vpx: %w", size, err)
	}
	defer face.Close()
	m := face.Metrics()
	a := &atlas{size: size, ascent: m.Ascent.Ceil(), descent: m.Descent.Ceil(), other: map[rune]*glyph{}}
	var buf sfnt.Buffer
	for _, rg := range atlasRanges {
		for r := rg[0]; r <= rg[1]; r++ {
			if idx, err := f.GlyphIndex(&buf, r); err != nil || idx == 0 {
				continue // not in the font
			}
			dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
			if !ok {
				continue
			}
			g := &glyph{adv: adv, off: dr.Min, w: dr.Dx(), h: dr.Dy(), mask: make([]uint8, dr.Dx()*dr.Dy())}
			for y := 0; y < g.h; y++ {
				for x := 0; x < g.w; x++ {
					_, _, _, al := mask.At(mp.X+x, mp.Y+y).RGBA()
					g.mask[y*g.w+x] = uint8((al*uint32(textLevels-1) + 0x7FFF) / 0xFFFF)
				}
			}
			if r < 128 {
				a.ascii[r] = g
			} else {
				a.other[r] = g
			}
		}
	}
	a.ellipsis = a.other['…']
	if a.ascii['?'] == nil || a.ellipsis == nil {
		return nil, fmt.Errorf("render: font at %vpx lacks basic characters", size)
	}
	return a, nil
}

func (a *atlas) glyph(r rune) *glyph {
	if r >= 0 && r < 128 {
		return a.ascii[r]
	}
	return a.other[r]
}

// width returns the width in pixels of s; characters the atlas lacks count nothing.
func (a *atlas) width(s string) int {
	var w fixed.Int26_6
	for _, r := range s {
		if g := a.glyph(r); g != nil {
			w += g.adv
		}
	}
	return w.Ceil()
}

// fit returns s shortened with "…" so that it is at most maxW pixels wide.
func (a *atlas) fit(s string, maxW int) string {
	if a.width(s) <= maxW {
		return s
	}
	limit := fixed.I(maxW) - a.ellipsis.adv
	var w fixed.Int26_6
	for i, r := range s {
		if g := a.glyph(r); g != nil {
			if w+g.adv > limit {
				return strings.TrimRight(s[:i], " ") + "…"
			}
			w += g.adv
		}
	}
	return s
}

// fitWords returns s shortened at a space so that it is at most maxW pixels
// wide, ending in " …": a list cut short reads "2 Leutnants, 1 Sergeant, …",
// not "1 Unteroffi…" or "1 Miner,…". A number stays with its word (see
// glueWords). When not even the first word fits, it is fit's.
func (a *atlas) fitWords(s string, maxW int) string {
	if a.width(s) <= maxW {
		return s
	}
	line := ""
	for _, word := range glueWords(strings.Fields(s)) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if a.width(next+" …") > maxW {
			break
		}
		line = next
	}
	if line == "" {
		return a.fit(s, maxW)
	}
	return line + " …"
}

// maxNameRunes bounds the work spent on a name: a Discord display name has at
// most 32 characters, anything longer is cut long before it is measured.
const maxNameRunes = 64

// cleanName returns name as the atlas can draw it: invalid UTF-8, control and
// format characters (such as the joiners inside emoji) and characters the font
// lacks are dropped, runs of spaces become one, a name of more than
// maxNameRunes characters ends in "…" where it is cut, brackets left empty
// by what was dropped go too (tidyBrackets), and an empty result
// gives fallback. So does a name whose letters and digits were all left
// out, leaving only punctuation or symbols: "דוד בן-גוריון" would be a
// lone "-", "(🐉.🔥)" "(.)"; a name that is punctuation as written ("-_-")
// is kept.
func (a *atlas) cleanName(name, fallback string) string {
	return a.cleanText(name, fallback, maxNameRunes)
}

// cleanText is cleanName for a text of at most maxRunes characters, such as
// a tournament's title.
func (a *atlas) cleanText(name, fallback string, maxRunes int) string {
	var b strings.Builder
	n := 0
	space := false
	dropped, kept := false, false // a character left out for the fonts; a letter or digit kept
	// Compatibility forms become the letters they stand for: the "fancy
	// text" of Discord names (𝓐𝓭𝓪, Ａｄａ) is Ada, not nothing.
	if len(name) > 4*maxRunes {
		name = name[:4*maxRunes] // norm's work bounded too; at most maxRunes are kept below
	}
	name = norm.NFKC.String(name)
	for _, r := range name {
		if n >= maxRunes {
			if b.Len() > 0 {
				b.WriteString("…") // cut here: shortened, however narrow
			}
			break
		}
		n++
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		// Invalid bytes arrive as U+FFFD, which the atlas lacks.
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		if a.glyph(r) == nil {
			// A letter with accents the fonts lack (Vietnamese ễ) keeps
			// its base letter: "Nguyen", not "Nguyn".
			if r = baseLetter(r); a.glyph(r) == nil {
				dropped = true
				continue
			}
		}
		kept = kept || unicode.IsLetter(r) || unicode.IsDigit(r)
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if dropped {
		out = tidyBrackets(out)
	}
	if out == "" || (dropped && !kept) {
		return fallback
	}
	return out
}

// brackets maps each opening bracket to its closing one.
var brackets = map[rune]rune{'(': ')', '[': ']', '{': '}', '«': '»', '‹': '›'}

// tidyBrackets removes the brackets that what the fonts lack has left
// empty, and the spaces it left just inside brackets: "Zhang Wei (张伟)"
// is "Zhang Wei", not "Zhang Wei ()", and "Ada (the 🐉)" "Ada (the)".
func tidyBrackets(s string) string {
	var out []rune
	last := func() rune {
		if len(out) == 0 {
			return 0
		}
		return out[len(out)-1]
	}
	for _, r := range s {
		if r == ' ' && brackets[last()] != 0 {
			continue // just inside an opening bracket
		}
		if strings.ContainsRune(")]}»›", r) {
			out = []rune(strings.TrimRight(string(out), " "))
			if brackets[last()] == r {
				out = out[:len(out)-1] // an empty pair
				continue
			}
		}
		out = append(out, r)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// inkBlend maps, for one ink colour, a coverage level and the palette index
// under a pixel to the palette index of the blend.
type inkBlend [textLevels][256]uint8

// The inks text is written in.
const (
	inkText = iota
	inkSoft
	inkRed
	inkBlue
	inkWarn
	inkWhite // on a warning's box
	numInks
)

var inkColors = [numInks]color.RGBA{colInk, colInkSoft, sideText[0], sideText[1], colWarn, colWhite}

func buildBlends(q *quantizer) *[numInks]inkBlend {
	var b [numInks]inkBlend
	for ink, c := range inkColors {
		for lvl := range textLevels {
			for bg := range q.pal {
				b[ink][lvl][bg] = q.index(mix(q.pal[bg], c, lvl, textLevels-1))
			}
		}
	}
	return &b
}

// drawText writes s on img with the dot at (x, baseline) and returns the x
// after it. Pixels outside clip are left alone.
func drawText(img *image.Paletted, clip image.Rectangle, a *atlas, blend *inkBlend, s string, x, baseline int) int {
	clip = clip.Intersect(img.Rect)
	dot := fixed.I(x)
	for _, r := range s {
		g := a.glyph(r)
		if g == nil {
			continue
		}
		gx, gy := dot.Round()+g.off.X, baseline+g.off.Y
		for yy := 0; yy < g.h; yy++ {
			py := gy + yy
			if py < clip.Min.Y || py >= clip.Max.Y {
				continue
			}
			row := img.Pix[img.PixOffset(0, py):]
			mrow := g.mask[yy*g.w : (yy+1)*g.w]
			for xx, lvl := range mrow {
				px := gx + xx
				if lvl == 0 || px < clip.Min.X || px >= clip.Max.X {
					continue
				}
				row[px] = blend[lvl][row[px]]
			}
		}
		dot += g.adv
	}
	return dot.Ceil()
}

// wrap breaks s at spaces into lines at most maxW pixels wide; a word wider
// than maxW is shortened. It does not break between a number and its word
// ("1 Scout") nor before French punctuation (" :").
func (a *atlas) wrap(s string, maxW int) []string {
	var lines []string
	line := ""
	for _, word := range glueWords(strings.Fields(s)) {
		switch {
		case line == "":
			line = word
		case a.width(line+" "+word) <= maxW:
			line += " " + word
		default:
			lines = append(lines, a.fit(line, maxW))
			line = word
		}
	}
	if line != "" {
		lines = append(lines, a.fit(line, maxW))
	}
	return lines
}

// glueWords joins a number to the word after it and a lone punctuation mark
// to the word before it, so that wrap keeps them on one line.
func glueWords(words []string) []string {
	var out []string
	glue := false // the next word joins the last one
	for _, w := range words {
		lone := strings.Trim(w, ":;!?»") == ""
		if n := len(out); n > 0 && (glue || lone) {
			out[n-1] += " " + w
		} else {
			out = append(out, w)
		}
		glue = strings.Trim(w, "0123456789") == ""
	}
	return out
}

// baseLetter returns the letter r is written on, without its accents, or
// r itself.
func baseLetter(r rune) rune {
	d := norm.NFD.String(string(r))
	base, size := utf8.DecodeRuneInString(d)
	for _, m := range d[size:] {
		if !unicode.Is(unicode.Mn, m) {
			return r
		}
	}
	return base
}
