package render

import (
	"fmt"
	"slices"
	"strings"
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
							for _, calledOff := range []bool{false, true} {
								statuses = append(statuses, viewStatus(w, &v, isPlayer, me, calledOff))
							}
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
		for m := game.FlagCaptured; m <= game.Awarded; m++ {
			for _, out := range []game.Outcome{game.RedWon, game.BlueWon, game.Drawn} {
				for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
					res := game.Result{Outcome: out, Method: m}
					statuses = append(statuses, statusLine{left: w.p.Sprintf(txtStatusEnd, w.variant(game.VariantInfiltrator), w.moves(longGame)),
						right: ResultText(w.p, res, w.sides(), viewer), banner: true})
				}
			}
		}
		for _, st := range statuses {
			left, right, _ := r.statusTexts(pageW, st)
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

// TestSetupFooterInEveryLanguage: what a set-up preview says under the
// board fits its two lines in every language, whole for set-ups a player
// sends (a few pieces missing or too many), shortened with "…" only for a
// set-up that lacks nearly everything.
func TestSetupFooterInEveryLanguage(t *testing.T) {
	r := renderer(t)
	red, _ := goldenSetups(t)
	// without returns red without its first piece of each of ranks.
	without := func(ranks ...game.Rank) game.Setup {
		s := red
		for _, rank := range ranks {
			for i := range s {
				if j := slices.Index(s[i][:], rank); j >= 0 {
					s[i][j] = game.NoRank
					break
				}
			}
		}
		return s
	}
	classic := game.DefaultRules(game.VariantClassic)
	extra := red
	extra[0][0] = game.Marshal // a Scout replaced: a Marshal too many
	tests := []struct {
		name  string
		setup game.Setup
		whole bool
	}{
		{"complete", red, true},
		{"a Flag missing", without(game.Flag), true},
		{"three kinds missing", without(game.Sergeant, game.Lieutenant, game.Marshal), true},
		{"five kinds missing", without(game.Sergeant, game.Lieutenant, game.Captain, game.Colonel, game.Scout), true},
		{"a Marshal too many", extra, true},
		{"empty", game.Setup{}, false},
		{"the back two rows", halfSetup(red), false},
	}
	for _, l := range lang.Languages() {
		for _, n := range []game.Numbering{game.NumberingModern, game.NumberingClassic} {
			o := Options{Lang: lang.For(l.Code), Numbering: n}
			for _, tc := range tests {
				sc := r.setupScene(&tc.setup, game.Red, classic, o)
				var lines []string
				for _, line := range sc.footer {
					if len(line) == 0 {
						continue
					}
					text := lineText(line)
					if w := r.itemsWidth(line); w > pageW-2*padX {
						t.Errorf("%s %s: the line %q is %d px wide, more than %d", l.Code, tc.name, text, w, pageW-2*padX)
					}
					lines = append(lines, text)
				}
				got := strings.Join(lines, " ")
				w := words{o.Lang}
				want := w.p.Sprintf(txtSetupReady, w.p.Sprintf(txtPiecesPlaced, tc.setup.Counts().Total()))
				if err := tc.setup.Validate(classic); err != nil {
					want = w.p.Sprintf(txtSetupNotReady, setupProblem(w, n, err))
				}
				if tc.whole && got != want {
					t.Errorf("%s %s: the footer says %q, want %q", l.Code, tc.name, got, want)
				}
				// Shortened, it ends after a whole word of the list, with
				// " …": not in a word ("3 Unteroffiz…") nor on its comma
				// ("1 Miner,…").
				if cut, ok := strings.CutSuffix(got, " …"); !tc.whole && got != want && (!ok || !strings.HasPrefix(want, cut+" ")) {
					t.Errorf("%s %s: the footer %q is not shortened after a whole word with \" …\" (of %q)", l.Code, tc.name, got, want)
				}
			}
		}
	}
}

// halfSetup returns s with its first two rows (the front) empty.
func halfSetup(s game.Setup) game.Setup {
	for row := range 2 {
		for col := range s[row] {
			s[row][col] = game.NoRank
		}
	}
	return s
}

// TestWrap: lines fit, and a number stays with its word and French
// punctuation with the word before it.
func TestWrap(t *testing.T) {
	r := renderer(t)
	tests := []struct {
		name, text string
		width      int
		want       []string
	}{
		{"one line", "Ready: 40 pieces placed.", 400, []string{"Ready: 40 pieces placed."}},
		{"a number stays with its word", "Il manque : 1 Commandant, 1 Éclaireur", r.text.width("Il manque : 1 Commandant, 1"), []string{"Il manque : 1 Commandant,", "1 Éclaireur"}},
		{"a colon stays with its word", "Pas prêt : Il manque", r.text.width("Pas prêt"), []string{"Pas", "prêt : Il", "manque"}},
		{"a word too wide is shortened", "Feldmarschall", r.text.width("Feld…"), []string{"Feld…"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := r.text.wrap(tc.text, tc.width)
			if !slices.Equal(got, tc.want) {
				t.Errorf("wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
			}
		})
	}
}

// TestFitWords: a text too wide is cut after a whole word, a number with
// its word, and ends in " …"; a first word too wide is shortened in it.
func TestFitWords(t *testing.T) {
	r := renderer(t)
	tests := []struct {
		name, text string
		width      int
		want       string
	}{
		{"fits", "1 Miner, 5 Scouts", 400, "1 Miner, 5 Scouts"},
		{"cut after a word, not its comma", "1 Miner, 5 Scouts, 1 Spy", r.text.width("1 Miner, 5 Sc"), "1 Miner, …"},
		{"a number stays with its word", "1 Miner, 5 Scouts", r.text.width("1 Miner, 5 …"), "1 Miner, …"},
		{"a first word too wide", "Feldmarschall General", r.text.width("Feld…"), "Feld…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.text.fitWords(tc.text, tc.width); got != tc.want {
				t.Errorf("fitWords(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
			}
		})
	}
}
