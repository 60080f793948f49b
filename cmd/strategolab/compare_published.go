package main

import (
	"fmt"
	"io"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lab/published"
)

// Many people set up as someone did before them, and a computer player that
// recognises published set-ups (see game.PublishedSetups) reads those far
// better than one it has never seen. Splitting A's score by how near B's
// set-up is to the nearest published one tells the two apart: whether A
// wins by recognition or by play.

// nearBands are the bands of -published: the most squares by which B's
// set-up differs from the nearest published set-up, band by band.
var nearBands = [...]struct {
	most int
	name string
}{
	{0, "published"},
	{4, "1–4 squares from one"},
	{published.FarFrom - 1, fmt.Sprintf("5–%d squares from one", published.FarFrom-1)},
	{game.SetupRows * 10, fmt.Sprintf("%d or more squares from one", published.FarFrom)},
}

// writePublished writes A's score in each band of how near B's set-up was
// to a published one.
func writePublished(w io.Writer, dir string, recs []arenaRecord, sets *published.Index) error {
	var bands [len(nearBands)]scoreTally
	unlisted := 0
	for _, r := range recs {
		d, ok, err := sets.Nearest(r.rec.Rules.Variant, r.rec.Setups[r.aSide.Opponent()])
		if err != nil {
			return err
		}
		if !ok {
			unlisted++
			continue
		}
		for i, b := range nearBands {
			if d <= b.most {
				bands[i].add(r.points)
				break
			}
		}
	}
	fmt.Fprintf(w, "%s: A's score by how near B's set-up was to the nearest published set-up (or its mirror image):\n", dir)
	for i, b := range nearBands {
		t := bands[i]
		n := t.wins + t.draws + t.losses
		if n == 0 {
			fmt.Fprintf(w, "  %-28s no games\n", b.name)
			continue
		}
		lo, hi := wilson(t.score/float64(n), n)
		fmt.Fprintf(w, "  %-28s %d–%d–%d of %d, %.1f%% (95%% CI %.1f–%.1f%%)\n",
			b.name, t.wins, t.draws, t.losses, n, 100*t.score/float64(n), 100*lo, 100*hi)
	}
	if unlisted > 0 {
		fmt.Fprintf(w, "  %d games of variants with no published set-ups\n", unlisted)
	}
	return nil
}
