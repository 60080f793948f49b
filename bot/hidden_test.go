package bot

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// playedMatch is a stored match between alice (Red) and bob (Blue) that
// reached g: its set-ups and its moves, a day a move.
func playedMatch(g *game.Game) *storage.Match {
	m := &storage.Match{
		ID: 7, Version: uint64(g.Ply() + 3), Rules: g.Rules(), Phase: storage.PhasePlaying, GuildID: "g", ChannelID: "c",
		Players:  [2]storage.Player{{UserID: "1", Name: "alice"}, {UserID: "2", Name: "bob"}},
		MoveTime: 24 * time.Hour, Created: time.Unix(1_800_000_000, 0), Deadline: time.Unix(1_800_086_400, 0),
	}
	for s := range m.Setups {
		m.Setups[s] = storage.SideSetup{Status: storage.SetupConfirmed, Setup: g.Setup(game.Side(s))}
	}
	for _, r := range g.Moves() {
		m.Log = append(m.Log, storage.Action{Kind: storage.ActMove, Side: r.Side, Move: r.Move, At: m.Created})
	}
	if g.Result().Over() {
		m.Phase, m.Result, m.Deadline = storage.PhaseFinished, g.Result(), time.Time{}
	}
	return m
}

// seenText is what a member is shown, as text: a message's content, its
// components, and its files' names, digests and alt texts.
func seenText(t *testing.T, msg *discordgo.MessageSend) string {
	t.Helper()
	if msg == nil {
		return "<nothing>"
	}
	components, err := json.Marshal(msg.Components)
	if err != nil {
		t.Fatal(err)
	}
	out := msg.Content + "\n" + string(components)
	for _, f := range msg.Files {
		alt := ""
		if d, ok := f.Reader.(describedReader); ok {
			alt = d.alt
		}
		data, err := io.ReadAll(f.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if alt == "" {
			t.Errorf("the picture %s has no alt text", f.Name)
		}
		out += fmt.Sprintf("\n[%s %x %q]", f.Name, sha256.Sum256(data), alt)
	}
	return out
}

// TestMoveAnswersHideRanks is the leak comparison of what the bot words
// itself from a game, through random games of every variant: at every
// position, with one side's hidden pieces shuffled, the other player (the
// one to move, or the one who just moved) and the public are answered the
// same, byte for byte, in the menus under a board (every piece's targets),
// the autocomplete of /stratego move (pieces, targets, infiltrations), the
// wording of the last move, /stratego history, and, now and then, the
// whole board message with its picture and alt text.
func TestMoveAnswersHideRanks(t *testing.T) {
	pics, err := render.New()
	if err != nil {
		t.Fatal(err)
	}
	b := New(Config{}, nil, nil, pics)
	variants := []struct {
		rules  game.Rules
		seeds  []uint64 // of the random games (in these, an Infiltrator reaches the enemy zone early)
		boards int      // every how many plies a whole board message is compared
	}{
		{game.DefaultRules(game.VariantClassic), []uint64{1, 2}, 200},
		{game.DefaultRules(game.VariantBarrage), []uint64{1, 2, 3, 4}, 150},
		{game.DefaultRules(game.VariantDuel), []uint64{1, 2}, 200},
		{game.DefaultRules(game.VariantInfiltrator), []uint64{68, 108, 142}, 200},
	}
	printers := []lang.Printer{lang.For("en"), lang.For("de")}
	var positions, changed, attacks, infiltrations, boards int
	for _, vt := range variants {
		for _, seed := range vt.seeds {
			r := rand.New(rand.NewPCG(seed, 11))
			gametest.Game(t, vt.rules, seed, 400, func(g *game.Game) bool {
				if g.Ply()%5 != 0 && !g.Result().Over() && !infiltrating(g) {
					return true
				}
				positions++
				mover := g.ToMove()
				for _, hidden := range []game.Side{game.Red, game.Blue} {
					sh := gametest.ShuffleHidden(t, g, hidden, r.Uint64())
					if sh.Setup(hidden) != g.Setup(hidden) {
						changed++
					}
					m, ms := playedMatch(g), playedMatch(sh)
					p := printers[g.Ply()%len(printers)]
					n := game.Numbering(g.Ply() / 5 % 2)
					what := fmt.Sprintf("%v seed %d ply %d, %v's hidden pieces shuffled", vt.rules.Variant, seed, g.Ply(), hidden)
					same := func(kind string, a, b any) {
						t.Helper()
						ja, err1 := json.Marshal(a)
						jb, err2 := json.Marshal(b)
						if err := errors.Join(err1, err2); err != nil {
							t.Fatalf("%s: %s: %v", what, kind, err)
						}
						if string(ja) != string(jb) {
							t.Fatalf("%s: %s differs:\n%s\n%s", what, kind, ja, jb)
						}
					}
					// The one to move is hidden's opponent: their menus and choices.
					if mover != hidden && !g.Result().Over() {
						for from := game.Square(0); from <= game.NumSquares; from++ {
							at := from
							if from == game.NumSquares {
								at = game.NoSquare
							}
							a, c := pickerComponents(p, m, g, mover, n, at), pickerComponents(p, ms, sh, mover, n, at)
							same("the menus from "+at.String(), a, c)
							if at == game.NoSquare {
								continue
							}
							for _, guessing := range []bool{false, true} {
								choices := moveChoices(p, g, n, optTo, at.String(), "", guessing)
								same("the targets of "+at.String(), choices, moveChoices(p, sh, n, optTo, at.String(), "", guessing))
								for _, c := range choices {
									switch {
									case guessing:
										infiltrations++
									case strings.Contains(c.Name, "("):
										attacks++
									}
								}
							}
						}
						for _, guessing := range []bool{false, true} {
							same("the pieces offered", moveChoices(p, g, n, optFrom, "", "", guessing), moveChoices(p, sh, n, optFrom, "", "", guessing))
						}
					}
					for _, viewer := range []game.Viewer{game.ViewerOf(hidden.Opponent()), game.PublicViewer} {
						nar := narrator{viewer: viewer, names: b.names(p, m), numbering: n, p: p}
						v, vs := g.View(viewer), sh.View(viewer)
						if rec, ok := g.LastMove(); ok {
							recs, _ := sh.LastMove()
							same(fmt.Sprintf("the last move as %v hears it", viewer), nar.describeMove(rec, &v), nar.describeMove(recs, &vs))
						}
						same(fmt.Sprintf("the history as %v reads it", viewer), b.historyText(m, &v, nar), b.historyText(ms, &vs, nar))
						if g.Ply()%vt.boards == 0 || g.Result().Over() {
							boards++
							current, event := m.Phase.Active(), storage.EventMove
							if g.Ply() == 0 {
								event = storage.EventStarted
							}
							a := b.boardMessage(p, m, g, viewer, n, headlineOf(event, g), time.Time{}, current)
							c := b.boardMessage(p, ms, sh, viewer, n, headlineOf(event, sh), time.Time{}, current)
							same(fmt.Sprintf("the board message to %v", viewer), seenText(t, a), seenText(t, c))
						}
					}
				}
				return true
			})
		}
	}
	t.Logf("%d positions, %d shuffles that changed a set-up, %d attacks and %d infiltrations offered, %d board messages", positions, changed, attacks, infiltrations, boards)
	if changed < positions || attacks < 100 || infiltrations < 10 || boards < 40 {
		t.Fatalf("%d shuffles changed a set-up in %d positions, %d attacks, %d infiltrations offered, %d boards: the test proves little", changed, positions, attacks, infiltrations, boards)
	}
}

// infiltrating reports whether the side to move in g may infiltrate.
func infiltrating(g *game.Game) bool {
	for _, mv := range g.LegalMoves() {
		if mv.IsInfiltration() {
			return true
		}
	}
	return false
}

// TestJustBegunIgnoresDrafts: whether a match has just begun decides
// whether a vacation stops its set-up deadline, which both players see, so
// it reads only what both know: a confirmed set-up, never a hidden draft.
func TestJustBegunIgnoresDrafts(t *testing.T) {
	tests := []struct {
		name     string
		red, blu storage.SetupStatus
		want     bool
	}{
		{"nothing placed", storage.SetupNone, storage.SetupNone, true},
		{"a draft of Red's", storage.SetupDraft, storage.SetupNone, true},
		{"drafts of both", storage.SetupDraft, storage.SetupDraft, true},
		{"Blue confirmed", storage.SetupNone, storage.SetupConfirmed, false},
		{"Red confirmed, Blue drafting", storage.SetupConfirmed, storage.SetupDraft, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &storage.Match{Phase: storage.PhaseSetup}
			m.Setups[game.Red].Status, m.Setups[game.Blue].Status = tt.red, tt.blu
			if got := justBegun(m); got != tt.want {
				t.Errorf("justBegun = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestJustBegunInPlay: a game has just begun while its log holds no move
// and no player's action: the vacations it carried, and the time nobody ran
// the timers given back (ActAway, no player's doing), leave it just begun.
func TestJustBegunInPlay(t *testing.T) {
	tests := []struct {
		name string
		log  []storage.ActionKind
		want bool
	}{
		{"nothing yet", nil, true},
		{"a vacation carried", []storage.ActionKind{storage.ActVacation}, true},
		{"a vacation over", []storage.ActionKind{storage.ActVacation, storage.ActVacationEnd}, true},
		{"time away given back", []storage.ActionKind{storage.ActAway}, true},
		{"a vacation and time away", []storage.ActionKind{storage.ActVacation, storage.ActAway}, true},
		{"a move", []storage.ActionKind{storage.ActMove}, false},
		{"time away, then a move", []storage.ActionKind{storage.ActAway, storage.ActMove}, false},
		{"a pause proposed", []storage.ActionKind{storage.ActOfferPause}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &storage.Match{Phase: storage.PhasePlaying}
			for _, k := range tt.log {
				m.Log = append(m.Log, storage.Action{Kind: k})
			}
			if got := justBegun(m); got != tt.want {
				t.Errorf("justBegun = %v, want %v", got, tt.want)
			}
		})
	}
}
