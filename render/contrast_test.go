package render

import (
	"image/color"
	"math"
	"testing"
)

// contrast is the WCAG contrast ratio of two colours, 1 to 21.
func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestTextContrast: every ink on every background the pictures write it on
// has WCAG's contrast for small text, 4.5 or more, which a phone's 9 px
// text needs.
func TestTextContrast(t *testing.T) {
	for _, tc := range []struct {
		name string
		ink  int
		bg   color.RGBA
	}{
		{"the status bar", inkText, colPanel},
		{"a result on the banner", inkText, colBanner},
		{"Your move, Red", inkRed, colPanel},
		{"Your move, Blue", inkBlue, colPanel},
		{"Red's name", inkRed, colPage},
		{"Blue's name", inkBlue, colPage},
		{"notes, labels, move numbers, coordinates", inkSoft, colPage},
		{"tray counts, footers, the key", inkText, colPage},
		{"a set-up's problem", inkWarn, colPage},
		{"a low clock", inkWhite, colWarn},
		{"the standings' headings", tableHeadInk, colPanel},
		{"the standings' shaded rows", inkText, colPanel},
	} {
		if got := contrast(inkColors[tc.ink], tc.bg); got < 4.5 {
			t.Errorf("%s: contrast %.2f, want 4.5 or more", tc.name, got)
		}
	}
}
