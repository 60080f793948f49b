package bot

import (
	"testing"

	"github.com/strategobot/strategobot/game"
)

func square(t *testing.T, s string) game.Square {
	t.Helper()
	sq, err := game.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func TestDescribeMove(t *testing.T) {
	names := [2]string{"Alice", "Bob"}
	mv := func(from, to string) game.Move { return game.Move{From: square(t, from), To: square(t, to)} }
	plain := game.MoveRecord{Side: game.Red, Move: mv("E4", "E5")}
	took := game.MoveRecord{Side: game.Red, Move: mv("D4", "D5"), Outcome: game.AttackerWon, Attacker: game.Captain, Defender: game.Lieutenant}
	bomb := game.MoveRecord{Side: game.Blue, Move: mv("D6", "D5"), Outcome: game.DefenderWon, Attacker: game.Major, Defender: game.Bomb}
	flag := game.MoveRecord{Side: game.Blue, Move: mv("A2", "A1"), Outcome: game.AttackerWon, Attacker: game.Scout, Defender: game.Flag}
	even := game.MoveRecord{Side: game.Red, Move: mv("B4", "B5"), Outcome: game.BothRemoved, Attacker: game.Sergeant, Defender: game.Sergeant}
	infil := game.MoveRecord{Side: game.Red, Move: game.Move{From: square(t, "E8"), To: square(t, "E10"), Guess: game.Flag}, Outcome: game.GuessedWrong, Attacker: game.Infiltrator}

	var hidden, knownOwn, knownScout game.View
	knownOwn.Board[square(t, "E5")] = game.Cell{Occupied: true, Side: game.Red, Rank: game.Captain, Moved: true}
	knownScout.Board[square(t, "E5")] = game.Cell{Occupied: true, Side: game.Red, Moved: true, KnownScout: true}
	hidden.Board[square(t, "E5")] = game.Cell{Occupied: true, Side: game.Red, Moved: true}

	tests := []struct {
		name   string
		viewer game.Viewer
		n      game.Numbering
		rec    game.MoveRecord
		after  *game.View
		want   string
	}{
		{"own plain move", game.RedViewer, game.NumberingModern, plain, &knownOwn, "You moved your Captain (6) E4-E5."},
		{"own plain move, classic", game.RedViewer, game.NumberingClassic, plain, &knownOwn, "You moved your Captain (5) E4-E5."},
		{"opponent's hidden piece", game.BlueViewer, game.NumberingModern, plain, &hidden, "Alice moved E4-E5."},
		{"public, hidden piece", game.PublicViewer, game.NumberingModern, plain, &hidden, "Alice moved E4-E5."},
		{"a known scout", game.BlueViewer, game.NumberingModern, plain, &knownScout, "Alice moved a Scout E4-E5."},
		{"a revealed piece", game.PublicViewer, game.NumberingModern, plain, &knownOwn, "Alice's Captain (6) moved E4-E5."},
		{"own capture", game.RedViewer, game.NumberingModern, took, &hidden, "Your Captain (6) took Bob's Lieutenant (5) on D5."},
		{"capture seen by the loser", game.BlueViewer, game.NumberingModern, took, &hidden, "Alice's Captain (6) took your Lieutenant (5) on D5."},
		{"capture seen by the public", game.PublicViewer, game.NumberingModern, took, &hidden, "Alice's Captain (6) took Bob's Lieutenant (5) on D5."},
		{"bomb", game.BlueViewer, game.NumberingModern, bomb, &hidden, "Your Major (7) hit Alice's Bomb on D5 and was lost."},
		{"flag", game.RedViewer, game.NumberingModern, flag, &hidden, "Bob's Scout (2) captured your Flag on A1!"},
		{"equal ranks", game.PublicViewer, game.NumberingModern, even, &hidden, "Alice's Sergeant (4) and Bob's Sergeant (4) removed each other on B5."},
		{"infiltration", game.BlueViewer, game.NumberingModern, infil, &hidden, "Alice's Infiltrator on E8 named your piece on E10 a Flag: wrong, nothing happens."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := narrator{viewer: tc.viewer, names: names, numbering: tc.n}
			if got := n.describeMove(tc.rec, tc.after); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
