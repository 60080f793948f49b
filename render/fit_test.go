package render

import (
	"fmt"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
)

// longGame is a game's length no real game reaches, for the widest numbers.
const longGame = 19999

// TestStatusFitsInEveryLanguage measures every status bar a picture can
// show, in every language: each must be drawn whole, never shortened, but
// for a result's banner, where the left text may go.
func TestStatusFitsInEveryLanguage(t *testing.T) {
	r := renderer(t)
	base := goldenGame(t, 7)
	for _, l := range lang.Languages() {
		w := words{lang.For(l.Code)}
		var statuses []statusLine
		for _, variant := range game.Variants {
			rules := game.DefaultRules(variant)
			for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
				for _, plies := range []int{0, longGame} {
					for _, offer := range []bool{false, true} {
						for _, toMove := range []game.Side{game.Red, game.Blue} {
							v := base.View(viewer)
							v.Rules, v.ToMove = rules, toMove
							v.History = make([]game.MoveRecord, plies)
							v.DrawOffered, v.DrawOfferBy = offer, toMove.Opponent()
							me, isPlayer := viewer.IsPlayer()
							statuses = append(statuses, viewStatus(w, &v, isPlayer, me))
						}
					}
				}
			}
			for _, side := range []game.Side{game.Red, game.Blue} {
				statuses = append(statuses, statusLine{left: w.p.Sprintf(txtStatusSetup, w.variant(variant)), right: w.p.Sprintf(txtYouPlay, w.side(side))})
			}
			statuses = append(statuses,
				statusLine{left: w.p.Sprintf(txtStatusReplay, w.variant(variant)), right: w.p.Sprintf(txtReplayMove, longGame, longGame)},
				statusLine{left: w.p.Sprintf(txtStatusReplaySampled, replayStride(longGame)), right: w.p.Sprintf(txtReplayMove, longGame, longGame)},
			)
		}
		for _, st := range statuses {
			left, right := r.statusTexts(pageW, st)
			if right != st.right {
				t.Errorf("%s: the status %q | %q shows %q on the right", l.Code, st.left, st.right, right)
			}
			if left != st.left && !st.banner {
				t.Errorf("%s: the status %q | %q shows %q on the left", l.Code, st.left, st.right, left)
			}
		}
	}
}

// TestBattleLinesFitInEveryLanguage measures the line of every battle and
// infiltration between any two ranks, under a board and in a replay's
// caption, in every language: each must fit its line whole.
func TestBattleLinesFitInEveryLanguage(t *testing.T) {
	r := renderer(t)
	from, to := game.SquareAt(9, 9), game.SquareAt(9, 8) // J10 and J9: the widest squares
	width := pageW - 2*padX
	for _, l := range lang.Languages() {
		w := words{lang.For(l.Code)}
		for _, n := range []game.Numbering{game.NumberingModern, game.NumberingClassic} {
			var records []game.MoveRecord
			for _, att := range game.Ranks {
				for _, def := range game.Ranks {
					if att == game.Bomb || att == game.Flag {
						continue // they never move
					}
					records = append(records, game.MoveRecord{Move: game.Move{From: from, To: to}, Side: game.Blue, Attacker: att, Defender: def, Outcome: game.Fight(att, def)})
				}
			}
			for _, def := range game.Ranks {
				for _, out := range []game.BattleOutcome{game.GuessedRight, game.GuessedWrong} {
					records = append(records, game.MoveRecord{Move: game.Move{From: from, To: to, Guess: def}, Side: game.Blue, Attacker: game.Infiltrator, Defender: def, Outcome: out})
				}
			}
			for _, rec := range records {
				name := fmt.Sprintf("%s: %s %s", l.Code, rec.Notation(n), lineText(battleItems(w, rec)))
				if got := r.itemsWidth(battleItems(w, rec)); got > width {
					t.Errorf("%s: the battle line is %d px wide, more than %d", name, got, width)
				}
				if got := r.itemsWidth(r.replayCaption(w, rec, n)); got > width {
					t.Errorf("%s: the replay's caption is %d px wide, more than %d", name, got, width)
				}
			}
		}
	}
}

// lineText is the text of a line of items, to name it.
func lineText(items []item) string {
	s := ""
	for _, it := range items {
		if it.mini {
			s += "[" + it.rank.String() + "]"
		}
		s += it.text
	}
	return s
}
