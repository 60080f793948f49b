package render

import (
	"fmt"

	"github.com/strategobot/strategobot/game"
)

// Every English text the pictures, the alt texts and the text boards show is
// here, as a format string with numbered arguments, so that a catalogue can
// translate each one whole and reorder its arguments. Plural forms are
// chosen in one place, plural.format. (resultText, in scene.go, still holds
// its own wording for now.)
//
// A move number always means the number of moves played: "after move 30"
// above the board, "Move 30" under it and in a replay, "30 moves" at the end.

// Status bar, name lines and trays.
const (
	txtStatusStart     = "%[1]s · start"            // variant
	txtStatusAfter     = "%[1]s · after move %[2]d" // variant, moves played
	txtStatusEnd       = "%[1]s · %[2]s"            // variant, txtMoves
	txtStatusReveal    = "%[1]s · final position · %[2]s"
	txtStatusSetup     = "%[1]s set-up · preview"
	txtStatusReplay    = "%[1]s · replay"
	txtYourMove        = "Your move"
	txtSideToMove      = "%[1]s to move"               // side
	txtDrawOffered     = "%[1]s offers a draw · %[2]s" // side, who moves
	txtYouPlay         = "You play %[1]s"              // side
	txtSideYou         = "%[1]s (you)"                 // side
	txtReplayStart     = "Start"
	txtReplayMove      = "Move %[1]d of %[2]d" // move number, moves in the game
	txtNoMoveYet       = "No move yet. Red moves first."
	txtMoveNumber      = "Move %[1]d: "  // before "Red B4-B5"
	txtWinner          = "Winner: "      // before the winner's name
	txtWinnerNameSide  = "%[1]s (%[2]s)" // name, side
	txtNoWinner        = "No winner: the game is a draw"
	txtSetupNotReady   = "Not ready: %[1]s"               // what is wrong
	txtSetupReady      = "Ready: %[1]s. Confirm to play." // txtPiecesPlaced
	txtBattleSeparator = ":  "
)

// The words of a battle between two mini pieces: "[6] Captain beats [2] Scout".
const (
	txtBeats      = " beats "
	txtCaptures   = " captures "
	txtLosesTo    = " loses to "
	txtAnd        = " and "
	txtBothFall   = " fall"
	txtNames      = " names "
	txtMissesNotA = " misses: not a %[1]s" // the rank guessed
)

// The key to the symbols (Renderer.Key).
const (
	txtKeyTitle     = "Key to the board"
	txtKeyKnown     = "A piece whose rank you know. Red pieces are rounded, Blue pieces square."
	txtKeyHidden    = "A hidden piece: you do not know its rank."
	txtKeyMoved     = "White dot: the piece has moved, so it is no Bomb or Flag."
	txtKeyRing      = "Thick ring: both players know its rank (shown in a battle, or a Scout that ran)."
	txtKeyLastMove  = "The last move: the square it left (thin frame) and the square it went to (thick frame)."
	txtKeyBattle    = "Orange, thick frame: the square of the last battle."
	txtKeyTray      = "Pieces left of each rank, under each player's name."
	txtKeyRanks     = "The pieces, strongest first (%[1]s numbering):" // numbering
	txtKeyNumbering = "modern"
	txtKeyClassic   = "classic"
	txtKeySquares   = "Squares are named by column and row, like B4."
)

// plural is a text with a count: one is used for 1, other for every other
// number. Both are format strings whose first argument is the count.
type plural struct{ one, other string }

// format returns p for n, with args after the count.
func (p plural) format(n int, args ...any) string {
	f := p.other
	if n == 1 {
		f = p.one
	}
	return fmt.Sprintf(f, append([]any{n}, args...)...)
}

var (
	txtMoves        = plural{"%[1]d move", "%[1]d moves"}
	txtPiecesLeft   = plural{"%[1]d piece left", "%[1]d pieces left"}
	txtPiecesPlaced = plural{"%[1]d piece placed", "%[1]d pieces placed"}
)

// rankName returns the name of a piece of rank r: "Marshal".
func rankName(r game.Rank) string { return r.Name() }

// rankCount returns n pieces of rank r: "1 Spy", "8 Scouts".
func rankCount(n int, r game.Rank) string {
	return plural{"%[1]d " + r.Name(), "%[1]d " + r.Plural()}.format(n)
}

// sideName returns "Red" or "Blue".
func sideName(s game.Side) string { return s.String() }
