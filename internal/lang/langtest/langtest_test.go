package langtest

import (
	"slices"
	"testing"
)

func TestEnglish(t *testing.T) {
	c := New()
	tests := []struct {
		text string
		want []string // nil: nothing English
	}{
		{"Je zette je Sergeant (4) A4-A5.", nil},
		{"Stratego-Brett, Klassisch, zu Beginn. No move yet: Red moves first.", []string{"No move yet", "Red moves first"}},
		{"Nog niet klaar: 4 Miners placed; Classic needs 5", []string{"word placed", "word needs"}},
		{"Gebruik `/stratego move from:B4 to:B5` en <@123>.", nil},
		{"Votre tour", nil},
		{"Your move", []string{"Your move"}},
		{"YourMoveX", nil},
	}
	for _, tc := range tests {
		got := c.English(tc.text)
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("English(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
