package ai

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
)

func TestZZPerGame(t *testing.T) {
	dir := os.Getenv("PERGAME")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.xml"))
	for _, path := range files {
		f, _ := os.Open(path)
		rec, err := game.ParseGravon(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		hard := game.Red
		if strings.HasPrefix(rec.Players[game.Blue], "A (") {
			hard = game.Blue
		}
		g, _ := game.NewGame(rec.Rules, rec.Setups[game.Red], rec.Setups[game.Blue])
		line := filepath.Base(path) + fmt.Sprintf(" %4d plies", len(rec.Moves))
		for _, m := range rec.Moves {
			if g.ToMove() == hard && (g.Ply()/2 == 30 || g.Ply()/2 == 50 || g.Ply()/2 == 100) {
				hv := g.View(game.ViewerOf(hard))
				k, _ := newKnowledge(&hv, recognition)
				var c beliefCheck
				c.add(t, g, k)
				line += fmt.Sprintf("  ply %3d: %.2f", g.Ply(), c.mean())
			}
			if _, err := g.Apply(m); err != nil {
				t.Fatal(err)
			}
		}
		won := strings.HasPrefix(rec.Result.String(), hard.String())
		t.Log(line+"  hard won: ", won)
	}
}
