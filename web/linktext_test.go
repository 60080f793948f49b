package web

import (
	"strings"
	"testing"

	"github.com/strategobot/strategobot/internal/lang"
)

// TestRefusedLinkSaysWhereANewOneComes: a page whose link expired, was
// revoked or never was tells the member, in their language, where a new
// one comes from, naming what they can do: no command gives a link on
// request, but the next board by DM brings one, and /stratego history (a
// player's own side), /stratego setup (the same, while no game is there to
// show) and /stratego watch (the public view) do at once.
func TestRefusedLinkSaysWhereANewOneComes(t *testing.T) {
	for _, l := range lang.Languages() {
		p := lang.For(l.Code)
		for _, err := range []error{ErrExpired, ErrRevoked, ErrForged, ErrMalformed} {
			text := refusedText(p, err)
			for _, want := range []string{"/stratego history", "/stratego setup", "/stratego watch"} {
				if !strings.Contains(text, want) {
					t.Errorf("%s, %v: %q does not name %s", l.Code, err, text, want)
				}
			}
		}
	}
}
