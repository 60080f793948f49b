package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
)

// TestComparePublished: A's score is split by how near B's set-up is to a
// published one, mirror images counting as the set-up itself; a variant
// with no published set-ups is counted apart.
func TestComparePublished(t *testing.T) {
	classic := game.DefaultRules(game.VariantClassic)
	published, err := game.PublishedSetups(game.VariantClassic)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	own := gametest.Setup(classic, rng)
	duel := game.DefaultRules(game.VariantDuel)
	tests := []struct {
		name  string
		rules game.Rules
		b     game.Setup // B's set-up
		end   ending
		band  string
	}{
		{"a published set-up", classic, published[100], aWins, "published                    1–0–0 of 1,"},
		{"its mirror image", classic, published[100].Mirror(), aLoses, "published                    0–0–1 of 1,"},
		{"two squares changed", classic, gametest.Swapped(published[200], 1), aWins, "1–4 squares from one         1–0–0 of 1,"},
		{"four squares changed", classic, gametest.Swapped(published[300], 2), drawn, "1–4 squares from one         0–1–0 of 1,"},
		{"eight squares changed", classic, gametest.Swapped(published[400], 4), aLoses, "5–10 squares from one        0–0–1 of 1,"},
		{"a set-up of one's own", classic, own, aWins, "11 or more squares from one  1–0–0 of 1,"},
		{"a variant with no published set-ups", duel, gametest.Setup(duel, rng), aWins, "1 games of variants with no published set-ups"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := game.NewGame(tc.rules, gametest.Setup(tc.rules, rng), tc.b)
			if err != nil {
				t.Fatal(err)
			}
			// A plays Red, B Blue.
			switch tc.end {
			case aWins:
				err = g.Resign(game.Blue)
			case aLoses:
				err = g.Resign(game.Red)
			case drawn:
				if err = g.OfferDraw(game.Red); err == nil {
					err = g.AcceptDraw(game.Blue)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			saveTestRecord(t, dir, 1, game.Red, g)
			out, errOut, code := runCompareTest(t, "-published", dir)
			if code != 0 {
				t.Fatalf("exit code %d, stderr %q", code, errOut)
			}
			if !strings.Contains(out, tc.band) {
				t.Errorf("want %q in\n%s", tc.band, out)
			}
			if got := strings.Count(out, "no games"); tc.rules.Variant == game.VariantClassic && got != len(nearBands)-1 {
				t.Errorf("%d bands with no games, want %d, in\n%s", got, len(nearBands)-1, out)
			}
		})
	}
}
