package render

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/game/gametest"
	"github.com/strategobot/strategobot/internal/lang"
)

// TestAltText checks the whole alt text of golden positions, from each
// viewer: what it says is what that viewer knows.
func TestAltText(t *testing.T) {
	ada := Options{Names: [2]string{"Ada", "Grace"}}
	// lastMove replaces the view's last move by rec, for outcomes the golden game has not.
	lastMove := func(rec game.MoveRecord) func(v *game.View) {
		return func(v *game.View) { v.History[len(v.History)-1] = rec }
	}
	m := func(from, to string) game.Move { return game.Move{From: sq(t, from), To: sq(t, to)} }
	tests := []struct {
		name   string
		plies  int
		viewer game.Viewer
		o      Options
		change func(v *game.View)
		want   string
	}{
		{"the start, public, no names", 0, game.PublicViewer, Options{}, nil,
			"Stratego board, Classic, at the start: Red at the bottom, Blue at the top. Red to move. No move yet: Red moves first. " +
				"Red has all 40 pieces. Blue has all 40 pieces. Red: 40 hidden, none of them moved. Blue: 40 hidden, none of them moved."},
		{"a Scout ran: Blue knows it", 1, game.BlueViewer, ada, nil,
			"Your Stratego board, Classic, after move 1: you are Grace (Blue), at the bottom; Ada (Red) is at the top. Your move. " +
				"Move 1: Ada (Red) moved the Scout (2) from A4 to A6. Blue has all 40 pieces. Red has all 40 pieces. " +
				"You know 1 of Red's 40 pieces: Scout (2) on A6. Red: 39 hidden, none of them moved."},
		{"Red knows that Blue knows its Scout", 1, game.RedViewer, ada, nil,
			"Move 1: you moved your Scout (2) from A4 to A6. Red has all 40 pieces. Blue has all 40 pieces. " +
				"You know none of Blue's 40 pieces. Blue: 40 hidden, none of them moved. Blue knows 1 of your pieces: Scout (2) on A6."},
		{"the Captain takes the Scout, Red's view in classic numbering", 2, game.RedViewer, Options{Names: ada.Names, Numbering: game.NumberingClassic}, nil,
			"Your Stratego board, Classic, after move 2: you are Ada (Red), at the bottom; Grace (Blue) is at the top. Your move. " +
				"Move 2: Grace (Blue) attacked from A7 to A6: Blue Captain (5) beats Red Scout (9). Red lost 1 Scout. " +
				"Red has 39 of 40 pieces left; lost: 1 Scout. Blue has all 40 pieces. " +
				"You know 1 of Blue's 40 pieces: Captain (5) on A6. Blue: 39 hidden, none of them moved."},
		{"the Scout hits a Bomb, public", 5, game.PublicViewer, ada, nil,
			"Stratego board, Classic, after move 5: Ada (Red) at the bottom, Grace (Blue) at the top. Grace (Blue) to move. " +
				"Move 5: Ada (Red) attacked from F6 to F7: Red Scout (2) loses to Blue Bomb. Red lost 1 Scout. " +
				"Red has 38 of 40 pieces left; lost: 2 Scouts. Blue has all 40 pieces. Red: 38 hidden, none of them moved. " +
				"Blue's pieces known to everyone: Captain (6) on A6, Bomb on F7. Blue: 38 hidden, 1 of them moved."},
		{"Red's own move, and what Blue knows of Red", 7, game.RedViewer, ada, nil,
			"Your Stratego board, Classic, after move 7: you are Ada (Red), at the bottom; Grace (Blue) is at the top. Grace (Blue) to move. " +
				"Move 7: you moved your General (9) from B4 to B5. Red has 38 of 40 pieces left; lost: 2 Scouts. Blue has all 40 pieces. " +
				"You know 2 of Blue's 40 pieces: Captain (6) on A6, Bomb on F7. Blue: 38 hidden, 1 of them moved."},
		{"the same move seen by Blue: a hidden piece", 7, game.BlueViewer, ada, nil,
			"Your Stratego board, Classic, after move 7: you are Grace (Blue), at the bottom; Ada (Red) is at the top. Your move. " +
				"Move 7: Ada (Red) moved a hidden piece from B4 to B5. Blue has all 40 pieces. Red has 38 of 40 pieces left; lost: 2 Scouts. " +
				"You know none of Red's 38 pieces. Red: 38 hidden, 1 of them moved. Red knows 2 of your pieces: Captain (6) on A6, Bomb on F7."},
		{"both fall", 7, game.PublicViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: m("B4", "B5"), Outcome: game.BothRemoved, Attacker: game.Major, Defender: game.Major}),
			"Stratego board, Classic, after move 7: Ada (Red) at the bottom, Grace (Blue) at the top. Grace (Blue) to move. " +
				"Move 7: Ada (Red) attacked from B4 to B5: Red Major (7) and Blue Major (7) both fall. Red lost 1 Major. Blue lost 1 Major."},
		{"a flag captured", 7, game.PublicViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: m("B4", "B5"), Outcome: game.AttackerWon, Attacker: game.Miner, Defender: game.Flag}),
			"Move 7: Ada (Red) attacked from B4 to B5: Red Miner (3) captures the Blue Flag. Blue lost 1 Flag."},
		{"an infiltrator's right guess", 7, game.PublicViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "B4"), To: sq(t, "B5"), Guess: game.General}, Outcome: game.GuessedRight, Attacker: game.Infiltrator, Defender: game.General}),
			"Move 7: Ada (Red)'s Infiltrator on B4 guessed the piece on B5 is a General (9): right. Blue lost 1 General."},
		{"an infiltrator's wrong guess", 7, game.PublicViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "B4"), To: sq(t, "B5"), Guess: game.Spy}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator}),
			"Move 7: Ada (Red)'s Infiltrator on B4 guessed the piece on B5 is a Spy: wrong, nothing is taken. Red has"},
		// A player's own battle is told as their moves are, the
		// opponent's and the public's as before.
		{"the Captain takes the Scout, Blue's own attack", 2, game.BlueViewer, ada, nil,
			"Ada (Red) to move. Move 2: you attacked from A7 to A6: Blue Captain (6) beats Red Scout (2). Red lost 1 Scout. "},
		{"the Scout hits a Bomb, Red's own attack", 5, game.RedViewer, ada, nil,
			"Grace (Blue) to move. Move 5: you attacked from F6 to F7: Red Scout (2) loses to Blue Bomb. Red lost 1 Scout. "},
		{"the Scout hits a Bomb, Blue's view", 5, game.BlueViewer, ada, nil,
			"Your move. Move 5: Ada (Red) attacked from F6 to F7: Red Scout (2) loses to Blue Bomb. Red lost 1 Scout. "},
		{"a flag captured, the captor's view", 7, game.RedViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: m("B4", "B5"), Outcome: game.AttackerWon, Attacker: game.Miner, Defender: game.Flag}),
			"Move 7: you attacked from B4 to B5: Red Miner (3) captures the Blue Flag. Blue lost 1 Flag."},
		{"an infiltrator's right guess, its player's view", 7, game.RedViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "B4"), To: sq(t, "B5"), Guess: game.General}, Outcome: game.GuessedRight, Attacker: game.Infiltrator, Defender: game.General}),
			"Move 7: your Infiltrator on B4 guessed the piece on B5 is a General (9): right. Blue lost 1 General."},
		{"an infiltrator's wrong guess, the opponent's view", 7, game.BlueViewer, ada, lastMove(game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "B4"), To: sq(t, "B5"), Guess: game.Spy}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator}),
			"Move 7: Ada (Red)'s Infiltrator on B4 guessed the piece on B5 is a Spy: wrong, nothing is taken."},
		{"a draw offer", 7, game.RedViewer, ada, func(v *game.View) { v.DrawOffered, v.DrawOfferBy = true, game.Blue },
			"Grace (Blue) offers a draw. Grace (Blue) to move."},
		// A match called off: nobody moves, and an offer made before is
		// not open any more.
		{"called off, the player to move", 7, game.BlueViewer, Options{Names: ada.Names, CalledOff: true}, nil,
			"Your Stratego board, Classic, after move 7: you are Grace (Blue), at the bottom; Ada (Red) is at the top. The match is called off. Move 7: "},
		{"called off with a draw offered", 7, game.RedViewer, Options{Names: ada.Names, CalledOff: true}, func(v *game.View) { v.DrawOffered, v.DrawOfferBy = true, game.Blue },
			"Ada (Red), at the bottom; Grace (Blue) is at the top. The match is called off. Move 7: "},
		// An alt text shows text as it is: a name is as written, on one line
		// (nametext.Plain), and one that shows nothing gives way to the side.
		{"names as written", 0, game.RedViewer, Options{Names: [2]string{"  Zoë\u200b \x00🐉 ```", "\u200f"}}, nil,
			"you are   Zoë\u200b  🐉 ``` (Red), at the bottom; Blue is at the top. Your move."},
		{"a long name whole", 0, game.RedViewer, Options{Names: [2]string{strings.Repeat("Ada", 15), "Grace\nHopper"}}, nil,
			"you are " + strings.Repeat("Ada", 15) + " (Red), at the bottom; Grace Hopper (Blue) is at the top."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := goldenGame(t, tc.plies).View(tc.viewer)
			if tc.change != nil {
				tc.change(&v)
			}
			got, err := AltText(v, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got  %q\nwant %q (in it)", got, tc.want)
			}
		})
	}
	t.Run("the final reveal", func(t *testing.T) {
		g := goldenGame(t, 7)
		if err := g.Resign(game.Red); err != nil {
			t.Fatal(err)
		}
		v, _ := g.Reveal()
		got, err := AltText(v, ada)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"Stratego board, Classic, game over after 7 moves: Ada (Red) at the bottom, Grace (Blue) at the top. Every piece is shown. Blue won: Red resigned. Winner: Grace (Blue).",
			"Red's pieces known to everyone: Miner (3) on A1, Bomb on B1, Flag on C1,",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("got  %q\nwant %q in it", got, want)
			}
		}
	})
}

// longNames are the longest names Discord allows, in characters that take
// two UTF-16 units.
var longNames = [2]string{strings.Repeat("🐉", 40), strings.Repeat("𝔊", 40)}

// TestAltTextLength checks that every alt text, however long the game and
// the names, is within Discord's limit, and still says whose move it is.
func TestAltTextLength(t *testing.T) {
	longest := 0
	for _, rules := range testRules(t) {
		for seed := uint64(1); seed <= 2; seed++ {
			gametest.Game(t, rules, seed, 400, func(g *game.Game) bool {
				if g.Ply()%40 != 0 && !g.Result().Over() {
					return true
				}
				views := []game.View{g.View(game.RedViewer), g.View(game.BlueViewer), g.View(game.PublicViewer)}
				if v, ok := g.Reveal(); ok {
					views = append(views, v)
				}
				for _, v := range views {
					got, err := AltText(v, Options{Names: longNames, Numbering: game.NumberingClassic})
					if err != nil {
						t.Fatal(err)
					}
					n := utf16Len(got)
					longest = max(longest, n)
					if n > AltTextLimit || !utf8.ValidString(got) {
						t.Fatalf("%s, %s after move %d: %d characters (valid UTF-8 %v): %q", rules.Variant, v.Viewer, g.Ply(), n, utf8.ValidString(got), got)
					}
					if !strings.Contains(got, "move") {
						t.Errorf("%s after move %d: %q says nothing of the moves", v.Viewer, g.Ply(), got)
					}
				}
				return true
			})
		}
	}
	t.Logf("the longest alt text has %d of %d characters", longest, AltTextLimit)
}

// TestTextBoard checks the diagram square by square against the view: the
// row labels and column letters in the picture's order, and what each square shows.
func TestTextBoard(t *testing.T) {
	for _, rules := range testRules(t) {
		g := gametest.Game(t, rules, 7, 150, nil)
		for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
			for _, n := range numberings {
				t.Run(fmt.Sprintf("%s %s %s", rules.Variant, viewer, n), func(t *testing.T) {
					v := g.View(viewer)
					text, err := TextBoard(v, Options{Names: longNames, Numbering: n})
					if err != nil {
						t.Fatal(err)
					}
					if len(text) > TextBoardLimit {
						t.Errorf("%d bytes, more than %d", len(text), TextBoardLimit)
					}
					checkTextGrid(t, text, &v, n)
				})
			}
		}
	}
	t.Run("a name cannot end the code block", func(t *testing.T) {
		text, err := TextBoard(goldenGame(t, 1).View(game.PublicViewer), Options{Names: [2]string{"```", "x`"}})
		if err != nil {
			t.Fatal(err)
		}
		// In the code block names are as written, but no two backticks
		// in a row (nametext.Code).
		if strings.Contains(text, "``") || !strings.Contains(text, "`\u200b`\u200b` (Red)") || !strings.Contains(text, "x` (Blue)") {
			t.Errorf("names not as nametext.Code writes them in %q", text)
		}
	})
	t.Run("the golden position, Red's view", func(t *testing.T) {
		text, err := TextBoard(goldenGame(t, 7).View(game.RedViewer), Options{Names: [2]string{"Ada", "Grace"}})
		if err != nil {
			t.Fatal(err)
		}
		want := `Classic, after move 7. Grace (Blue) to move.
You are Ada (Red), at the bottom; Grace (Blue) at the top.
    A   B   C   D   E   F   G   H   I   J
10  ?   ?   ?   ?   ?   ?   ?   ?   ?   ?
 9  ?   ?   ?   ?   ?   ?   ?   ?   ?   ?
 8  ?   ?   ?   ?   ?   ?   ?   ?   ?   ?
 7  .   ?   ?   ?   .   bB  ?   ?   ?   ?
 6  b6  .   ~   ~   .   .   ~   ~   .   .
 5  .   9   ~   ~   ?m  .   ~   ~   .   .
 4  .   .   6   2   B   .   8   5   2   6
 3  5   10  S   4   7   3   6   B   7   2
 2  4   3   8   7   B   4   5   B   3   2
 1  3   B   F   B   4   2   6   5   3   2
    A   B   C   D   E   F   G   H   I   J
Move 7: you moved your General (9) from B4 to B5.
Key: your pieces by rank, with * when Blue knows the rank; ? hidden, ?m hidden and moved; b5 a piece of Blue whose rank is shown; ~ lake; . empty.
Ranks: 10 Marshal, 9 General, 8 Colonel, 7 Major, 6 Captain, 5 Lieutenant, 4 Sergeant, 3 Miner, 2 Scout, S Spy, B Bomb, F Flag.`
		if text != want {
			t.Errorf("got\n%s\nwant\n%s", text, want)
		}
	})
}

// checkTextGrid reads the board out of a text diagram and compares every
// square with what the view says of it.
func checkTextGrid(t *testing.T, text string, v *game.View, n game.Numbering) {
	t.Helper()
	me, isPlayer := v.Viewer.IsPlayer()
	bottom := game.Red
	if isPlayer {
		bottom = me
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 14 {
		t.Fatalf("%d lines", len(lines))
	}
	letters := strings.Fields(lines[2])
	if len(letters) != 10 || lines[13] != lines[2] {
		t.Fatalf("column letters %q and %q", lines[2], lines[13])
	}
	for i, line := range lines[3:13] {
		row := 9 - i
		if bottom == game.Blue {
			row = i
		}
		label := fmt.Sprintf("%2d ", row+1)
		if !strings.HasPrefix(line, label) {
			t.Fatalf("line %q does not start with row %d", line, row+1)
		}
		cells := strings.Fields(line[len(label):])
		if len(cells) != 10 {
			t.Fatalf("row %d has %d squares: %q", row+1, len(cells), line)
		}
		for j, cell := range cells {
			col := int(letters[j][0] - 'A')
			s := game.SquareAt(col, row)
			if want := expectedCell(s, v.Board[s], isPlayer, me, n); cell != want {
				t.Errorf("%s shows %q, want %q (%+v)", s, cell, want, v.Board[s])
			}
		}
	}
}

// expectedCell is what the key says square s must show.
func expectedCell(s game.Square, c game.Cell, isPlayer bool, me game.Side, n game.Numbering) string {
	letter := map[game.Side]string{game.Red: "r", game.Blue: "b"}[c.Side]
	switch {
	case s.IsLake():
		return "~"
	case !c.Occupied:
		return "."
	case isPlayer && c.Side == me && (c.Revealed || c.KnownScout):
		return c.Rank.Label(n) + "*"
	case isPlayer && c.Side == me:
		return c.Rank.Label(n)
	case c.KnownScout:
		return letter + game.Scout.Label(n)
	case c.Rank != game.NoRank:
		return letter + c.Rank.Label(n)
	}
	out := "?"
	if !isPlayer {
		out = letter + "?"
	}
	if c.Moved {
		out += "m"
	}
	return out
}

// TestAltTextErrors checks that views no game produces are refused.
func TestAltTextErrors(t *testing.T) {
	v := goldenGame(t, 2).View(game.RedViewer)
	v.Board[0].Rank = 99
	if _, err := AltText(v, Options{}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("AltText: got %v, want ErrInvalidInput", err)
	}
	if _, err := TextBoard(v, Options{}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("TextBoard: got %v, want ErrInvalidInput", err)
	}
}

// TestOtherAltTexts checks the alt texts of the key, the set-up preview and the replay.
func TestOtherAltTexts(t *testing.T) {
	red, blue := goldenSetups(t)
	classic := game.DefaultRules(game.VariantClassic)
	finished := goldenGame(t, 7)
	if err := finished.Resign(game.Red); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  func() (string, error)
		want string
	}{
		{"the key in classic numbering", func() (string, error) { return KeyAltText(Options{Numbering: game.NumberingClassic}) },
			"Key to the board pictures. A piece whose rank you know. Red pieces are rounded, Blue pieces square. A hidden piece: you do not know its rank. " +
				"White dot: the piece has moved, so it is no Bomb or Flag. Thick ring: both players know its rank (shown in a battle, or a Scout that ran). " +
				"The last move: the square it left (thin frame) and the square it went to (thick frame). Orange, dashed frame: the square of the last battle. " +
				"Dots: the squares a Scout ran over in the last move. Pieces left of each rank, under each player's name. The pieces, strongest first (classic numbering): " +
				"1 Marshal, 2 General, 3 Colonel, 4 Major, 5 Captain, 6 Lieutenant, 7 Sergeant, 8 Miner, 9 Scout, S Spy, I Infiltrator, B Bomb, F Flag. " +
				"Squares are named by column and row, like B4."},
		{"Blue's set-up, from Blue's left", func() (string, error) { return SetupAltText(blue, game.Blue, classic, Options{}) },
			"Preview of your set-up for Classic, playing Blue, front row first, each from your left: " +
				"row 7, J to A: 6 2 5 2 B 9 2 8 2 6. row 8, J to A: 2 S 10 7 4 B 3 6 7 5. row 9, J to A: 4 B 8 3 B 4 5 2 3 7. row 10, J to A: 3 2 B F B 4 6 5 3 2. " +
				"Ready: 40 pieces placed. Confirm to play."},
		{"an incomplete set-up", func() (string, error) {
			s := red
			s[0][0] = game.NoRank
			return SetupAltText(s, game.Red, classic, Options{})
		}, "Preview of your set-up for Classic, playing Red, front row first, each from your left: row 4, A to J: empty 9 6 2 B 2 8 5 2 6. " +
			"row 3, A to J: 5 10 S 4 7 3 6 B 7 2. row 2, A to J: 4 3 8 7 B 4 5 B 3 2. row 1, A to J: 3 B F B 4 2 6 5 3 2. Not ready: Missing: 1 Scout."},
		{"a Barrage set-up, its empty squares named", func() (string, error) {
			// A screen reader reads no ".": "row 4, A to J: . . 9 ." read
			// as "9" would put the General on A4, and a row ending empty
			// ended its sentence in "..".
			s := parseSetup(t,
				". . . . . . . . 9 .",
				". . 10 . . B . . S .",
				". . . . . 3 . 2 F 2",
				". . . . . . . . . .")
			return SetupAltText(s, game.Red, game.DefaultRules(game.VariantBarrage), Options{Lang: lang.For("fr")})
		}, "Aperçu de votre placement pour Barrage, en Rouge, rangée avant d'abord, chaque rangée de gauche à droite : " +
			"rangée 4, A à J : vide vide vide vide vide vide vide vide 9 vide. rangée 3, A à J : vide vide 10 vide vide B vide vide S vide. " +
			"rangée 2, A à J : vide vide vide vide vide 3 vide 2 F 2. rangée 1, A à J : vide vide vide vide vide vide vide vide vide vide. " +
			"Prêt : 8 pièces placées. Confirmez pour jouer."},
		{"the replay", func() (string, error) {
			return ReplayAltText(finished, ReplayOptions{Options: Options{Names: [2]string{"Ada", "Grace"}}})
		},
			"Replay of a Stratego game, Classic, 7 moves, every piece shown: Ada (Red) against Grace (Blue). Blue won: Red resigned. Winner: Grace (Blue)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.got()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if utf16Len(got) > AltTextLimit {
				t.Errorf("%d characters", utf16Len(got))
			}
		})
	}
	t.Run("refusals", func(t *testing.T) {
		if _, err := ReplayAltText(goldenGame(t, 2), ReplayOptions{}); !errors.Is(err, ErrGameNotOver) {
			t.Errorf("a replay of a game still on: %v", err)
		}
		if _, err := SetupAltText(red, 2, classic, Options{}); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("a set-up of a third side: %v", err)
		}
		if _, err := KeyAltText(Options{Numbering: 7}); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("a key in an unknown numbering: %v", err)
		}
	})
}

// TestAltTextFewPiecesLeft: what a player's alt text says they know of
// the opponent's pieces reads right however few are left (a Barrage army,
// or a custom one, comes down to one), in every language: the plural
// forms follow the number of pieces. It said "You know none of Blue's 1
// pieces."
func TestAltTextFewPiecesLeft(t *testing.T) {
	// left keeps n of Blue's pieces, the first known of them Revealed.
	left := func(n, known int) func(v *game.View) {
		return func(v *game.View) {
			kept := 0
			for s := range v.Board {
				c := &v.Board[s]
				if !c.Occupied || c.Side != game.Blue {
					continue
				}
				if kept == n {
					*c = game.Cell{}
					continue
				}
				if kept < known {
					c.Rank, c.Revealed = game.Sergeant, true
				}
				kept++
			}
			v.Remaining[game.Blue] = game.Army{}
			v.Remaining[game.Blue][game.Sergeant] = uint8(n)
			v.Captured[game.Blue] = game.Army{}
			v.Captured[game.Blue][game.Scout] = uint8(v.Rules.Army.Total() - n)
		}
	}
	for _, tc := range []struct {
		n, known int
		want     map[string]string
	}{
		{1, 0, map[string]string{
			"en": "You do not know Blue's only piece.",
			"nl": "Je kent het enige stuk van Blauw niet.",
			"de": "Du kennst die einzige Figur von Blau nicht.",
			"fr": "Vous ne connaissez pas la seule pièce de Bleu.",
		}},
		{1, 1, map[string]string{
			"en": "You know Blue's only piece: Sergeant (4) on ",
			"nl": "Je kent het enige stuk van Blauw: ",
			"de": "Du kennst die einzige Figur von Blau: ",
			"fr": "Vous connaissez la seule pièce de Bleu : ",
		}},
		{2, 0, map[string]string{
			"en": "You know none of Blue's 2 pieces.",
			"nl": "Je kent geen van de 2 stukken van Blauw.",
			"de": "Du kennst keine der 2 Figuren von Blau.",
			"fr": "Vous ne connaissez aucune des 2 pièces de Bleu.",
		}},
		{2, 1, map[string]string{
			"en": "You know 1 of Blue's 2 pieces: Sergeant (4) on ",
			"nl": "Je kent 1 van de 2 stukken van Blauw: ",
			"de": "Du kennst 1 der 2 Figuren von Blau: ",
			"fr": "Vous connaissez 1 des 2 pièces de Bleu : ",
		}},
	} {
		for code, want := range tc.want {
			t.Run(fmt.Sprintf("%d left, %d known, %s", tc.n, tc.known, code), func(t *testing.T) {
				v := goldenGame(t, 0).View(game.RedViewer)
				left(tc.n, tc.known)(&v)
				got, err := AltText(v, Options{Lang: lang.For(code)})
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(got, want) {
					t.Errorf("got  %q\nwant %q in it", got, want)
				}
			})
		}
	}
}

// TestAltTextOwnBattle: a player's own attack and infiltration read in the
// second person in every language, as their moves do ("you moved your
// …"); the opponent's view tells them in the third person. They were told
// in the third person to their own player too: "Ada (Red) attacked…".
func TestAltTextOwnBattle(t *testing.T) {
	ada := Options{Names: [2]string{"Ada", "Grace"}}
	guess := func(v *game.View) {
		v.History[len(v.History)-1] = game.MoveRecord{Side: game.Red, Move: game.Move{From: sq(t, "B4"), To: sq(t, "B5"), Guess: game.Spy}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator}
	}
	for _, tc := range []struct {
		code                       string
		attack, guess, theirAttack string
	}{
		{"en", "Move 5: you attacked from F6 to F7: ", "Move 7: your Infiltrator on B4 guessed the piece on B5 is ", "Move 5: Ada (Red) attacked from F6 to F7: "},
		{"nl", "Zet 5: je viel aan van F6 naar F7: ", "Zet 7: je Infiltrant op B4 raadde dat het stuk op B5 ", "Zet 5: Ada (Rood) viel aan van F6 naar F7: "},
		{"de", "Zug 5: Du hast von F6 nach F7 angegriffen: ", "Zug 7: Dein Infiltrant auf B4 riet, die Figur auf B5 sei ", "Zug 5: Ada (Rot) griff von F6 nach F7 an: "},
		{"fr", "Coup 5 : vous avez attaqué de F6 à F7 : ", "Coup 7 : votre Infiltrateur en B4 a deviné que la pièce en B5 est ", "Coup 5 : Ada (Rouge) a attaqué de F6 à F7 : "},
	} {
		t.Run(tc.code, func(t *testing.T) {
			o := ada
			o.Lang = lang.For(tc.code)
			alt := func(plies int, viewer game.Viewer, change func(*game.View)) string {
				v := goldenGame(t, plies).View(viewer)
				if change != nil {
					change(&v)
				}
				got, err := AltText(v, o)
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			for _, c := range []struct{ got, want string }{
				{alt(5, game.RedViewer, nil), tc.attack},
				{alt(7, game.RedViewer, guess), tc.guess},
				{alt(5, game.BlueViewer, nil), tc.theirAttack},
				{alt(5, game.PublicViewer, nil), tc.theirAttack},
			} {
				if !strings.Contains(c.got, c.want) {
					t.Errorf("got  %q\nwant %q in it", c.got, c.want)
				}
			}
		})
	}
}

// TestCalledOffStatus: the status bar of a match called off says so on
// its right, where whose move it is stands otherwise, for every viewer and
// whoever was to move, and with a draw offered before the call-off.
func TestCalledOffStatus(t *testing.T) {
	w := words{lang.For("en")}
	for _, viewer := range []game.Viewer{game.RedViewer, game.BlueViewer, game.PublicViewer} {
		for _, offer := range []bool{false, true} {
			v := goldenGame(t, 7).View(viewer)
			v.DrawOffered, v.DrawOfferBy = offer, game.Red
			me, isPlayer := viewer.IsPlayer()
			st := viewStatus(w, &v, isPlayer, me, true)
			if st.right != "Called off" || st.left != "Classic · after move 7" {
				t.Errorf("%s, draw offered %v: the status reads %q | %q", viewer, offer, st.left, st.right)
			}
		}
	}
}
