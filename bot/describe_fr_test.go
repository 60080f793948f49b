package bot

import (
	"regexp"
	"strings"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
)

// TestFrenchNarrationNamesPiecesWithADeterminer: French never puts a bare
// piece name where English says "Alice's Captain": "Capitaine (6) de Alice
// a pris Lieutenant (5) de Bob" is no French. Every piece a French move
// description names follows a determiner (le, la, l', un, son, votre) or
// comme, whoever reads it and whatever the battle.
func TestFrenchNarrationNamesPiecesWithADeterminer(t *testing.T) {
	p := lang.For("fr")
	names := [2]string{"Alice", "Bob"}
	mv := func(from, to string) game.Move { return game.Move{From: square(t, from), To: square(t, to)} }
	var known game.View
	known.Board[square(t, "E5")] = game.Cell{Occupied: true, Side: game.Red, Rank: game.Captain, Moved: true}
	var records []game.MoveRecord
	records = append(records, game.MoveRecord{Side: game.Red, Move: mv("E4", "E5")})
	for _, outcome := range []game.BattleOutcome{game.AttackerWon, game.DefenderWon, game.BothRemoved} {
		for _, defender := range []game.Rank{game.Lieutenant, game.Scout, game.Bomb, game.Flag} {
			if outcome != game.AttackerWon && defender == game.Flag || outcome == game.BothRemoved && defender == game.Bomb {
				continue
			}
			records = append(records, game.MoveRecord{Side: game.Red, Move: mv("E4", "E5"), Outcome: outcome, Attacker: game.Captain, Defender: defender})
		}
	}
	records = append(records, game.MoveRecord{Side: game.Red, Move: game.Move{From: square(t, "E4"), To: square(t, "E6"), Guess: game.Spy}, Outcome: game.GuessedRight, Attacker: game.Infiltrator})
	pieces := make([]string, 0, len(game.Ranks))
	for _, r := range game.Ranks {
		pieces = append(pieces, regexp.QuoteMeta(render.RankName(p, r)))
	}
	piece := regexp.MustCompile(`(\S*\s*)\b(` + strings.Join(pieces, "|") + `)\b`)
	determiner := regexp.MustCompile(`(?i)((^|\s)(le|la|un|une|son|sa|votre|comme)\s|l')$`)
	for _, rec := range records {
		for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
			n := narrator{viewer: viewer, names: names, numbering: game.NumberingModern, p: p}
			text := n.describeMove(rec, &known)
			for _, m := range piece.FindAllStringSubmatchIndex(text, -1) {
				before := text[:m[4]]
				if !determiner.MatchString(before) {
					t.Errorf("%v seen by %v: %q names %q with no determiner", rec.Outcome, viewer, text, text[m[4]:m[5]])
				}
			}
		}
	}
}
