package render

import (
	"github.com/strategobot/strategobot/game"
)

// Every English text the pictures, the alt texts and the text boards show is
// here, as a format string with numbered arguments, so that a catalogue can
// translate each one whole and reorder its arguments. Plural forms are
// chosen in one place, plural.format.
//
// A move number always means the number of moves played: "after move 30"
// above the board, "Move 30" under it and in a replay, "30 moves" at the end.

// Status bar, name lines and trays.
const (
	txtStatusStart         = "%[1]s · start"            // variant
	txtStatusAfter         = "%[1]s · after move %[2]d" // variant, moves played
	txtStatusEnd           = "%[1]s · %[2]s"            // variant, txtMoves
	txtStatusReveal        = "%[1]s · final position · %[2]s"
	txtStatusSetup         = "%[1]s set-up · preview"
	txtStatusReplay        = "%[1]s · replay"
	txtStatusReplaySampled = "One frame every %[1]d moves" // moves between frames; short, or "Move 19,999 of 19,999" would not fit
	txtYourMove            = "Your move"
	txtCalledOff           = "Called off"          // a match ended with no result: nobody moves
	txtSideClock           = "%[1]s · clock %[2]s" // side note, time left
	txtSideToMove          = "%[1]s to move"       // side
	txtDrawOffer           = "%[1]s offers a draw" // side
	txtYouPlay             = "You play %[1]s"      // side
	txtSideYou             = "%[1]s (you)"         // side
	txtReplayStart         = "Start"
	txtReplayMove          = "Move %[1]d of %[2]d" // move number, moves in the game
	txtNoMoveYet           = "No move yet. Red moves first."
	txtMoveNumber          = "Move %[1]d: "  // before "Red B4-B5"
	txtWinner              = "Winner: "      // before the winner's name
	txtWinnerNameSide      = "%[1]s (%[2]s)" // name, side
	txtNoWinner            = "No winner: the game is a draw"
	txtSetupNotReady       = "Not ready: %[1]s"               // what is wrong
	txtSetupReady          = "Ready: %[1]s. Confirm to play." // txtPiecesPlaced
	txtBattleSeparator     = ":  "
)

// The words of a battle between two mini pieces: "[6] Captain beats [2] Scout".
const (
	txtBeats    = " beats "
	txtCaptures = " captures "
	txtLosesTo  = " loses to "
	txtAnd      = " and "
	txtBothFall = " fall"
	txtNames    = " names "
)

// The key to the symbols (Renderer.Key).
const (
	txtKeyTitle    = "Key to the board"
	txtKeyKnown    = "A piece whose rank you know. Red pieces are rounded, Blue pieces square."
	txtKeyHidden   = "A hidden piece: you do not know its rank."
	txtKeyMoved    = "White dot: the piece has moved, so it is no Bomb or Flag."
	txtKeyRing     = "Thick ring: both players know its rank (shown in a battle, or a Scout that ran)."
	txtKeyLastMove = "The last move: the square it left (thin frame) and the square it went to (thick frame)."
	txtKeyBattle   = "Orange, dashed frame: the square of the last battle."
	txtKeyTrail    = "Dots: the squares a Scout ran over in the last move."
	txtKeyTray     = "Pieces left of each rank, under each player's name."
	txtKeyRanks    = "The pieces, strongest first (%[1]s numbering):" // numbering
	txtKeyModern   = "modern"
	txtKeyClassic  = "classic"
	txtKeySquares  = "Squares are named by column and row, like B4."
)

// The alt text of a board picture (AltText): sentences in the order they are
// written. "who" is a player as "Ada (Red)".
const (
	txtAltPlayer      = "Your Stratego board, %[1]s, %[2]s: you are %[3]s, at the bottom; %[4]s is at the top." // variant, when, you, opponent
	txtAltPublic      = "Stratego board, %[1]s, %[2]s: %[3]s at the bottom, %[4]s at the top."                  // variant, when, Red, Blue
	txtAltStart       = "at the start"
	txtAltAfter       = "after move %[1]d"
	txtAltEnd         = "game over after %[1]s" // txtMoves
	txtAltEveryPiece  = "Every piece is shown."
	txtAltClocks      = "Time left: %[1]s %[2]s, %[3]s %[4]s." // player, clock, player, clock
	txtAltYourMove    = "Your move."
	txtAltToMove      = "%[1]s to move."       // who
	txtAltDrawOffer   = "%[1]s offers a draw." // who
	txtAltWinner      = "Winner: %[1]s."       // who
	txtAltNoWinner    = "No winner."
	txtAltCalledOff   = "The match is called off."
	txtAltNoMove      = "No move yet: Red moves first."
	txtAltMoveHidden  = "Move %[1]d: %[2]s moved a hidden piece from %[3]s to %[4]s."                          // number, who, from, to
	txtAltMoveKnown   = "Move %[1]d: %[2]s moved the %[3]s from %[4]s to %[5]s."                               // number, who, piece, from, to
	txtAltMoveYours   = "Move %[1]d: you moved your %[2]s from %[3]s to %[4]s."                                // number, piece, from, to
	txtAltAttack      = "Move %[1]d: %[2]s attacked from %[3]s to %[4]s: %[5]s."                               // number, who, from, to, battle
	txtAltAttackYours = "Move %[1]d: you attacked from %[2]s to %[3]s: %[4]s."                                 // number, from, to, battle
	txtAltBeats       = "%[1]s %[2]s beats %[3]s %[4]s"                                                        // side, piece, side, piece
	txtAltCaptures    = "%[1]s %[2]s captures the %[3]s %[4]s"                                                 // side, piece, side, piece
	txtAltLosesTo     = "%[1]s %[2]s loses to %[3]s %[4]s"                                                     // side, piece, side, piece
	txtAltBothFall    = "%[1]s %[2]s and %[3]s %[4]s both fall"                                                // side, piece, side, piece
	txtAltBeatsBomb   = "%[1]s %[2]s beats %[3]s Bomb"                                                         // side, piece, side: a Miner defuses it
	txtAltLosesToBomb = "%[1]s %[2]s loses to %[3]s Bomb"                                                      // side, piece, side: any other piece hits it
	txtAltInfiltrate  = "Move %[1]d: %[2]s's Infiltrator on %[3]s guessed the piece on %[4]s is %[5]s: %[6]s." // number, who, from, to, guess (txtAltGuessOf), outcome
	txtAltYourGuess   = "Move %[1]d: your Infiltrator on %[2]s guessed the piece on %[3]s is %[4]s: %[5]s."    // number, from, to, guess (txtAltGuessOf), outcome
	txtAltGuessRight  = "right"
	txtAltGuessWrong  = "wrong, nothing is taken"
	txtAltLost        = "%[1]s lost %[2]s."                                  // side, rankCount
	txtAltLeftAll     = "%[1]s has all %[2]d pieces."                        // side, count
	txtAltLeftSome    = "%[1]s has %[2]d of %[3]d pieces left; lost: %[4]s." // side, left, army, list of rankCount
	txtAltYouKnowNone = "You know none of %[2]s's %[1]d pieces."             // count, side: plural forms by the count
	txtAltYouKnow     = "You know %[2]d of %[3]s's %[1]d pieces: %[4]s."     // count, known, side, list of txtAltPieceOn: plural forms by the count
	txtAltTheyKnow    = "%[1]s knows %[2]d of your pieces: %[3]s."           // side, count, list of txtAltPieceOn
	txtAltKnown       = "%[1]s's pieces known to everyone: %[2]s."           // side, list of txtAltPieceOn
	txtAltPieceOn     = "%[1]s on %[2]s"                                     // piece, square
	txtRankLabelled   = "%[1]s (%[2]s)"                                      // name, label: "Captain (6)"
	txtWhoSide        = "%[1]s (%[2]s)"                                      // name, side: "Ada (Red)"
	txtListSeparator  = ", "
)

// The alt texts of the other pictures.
const (
	txtAltKey        = "Key to the board pictures."
	txtAltSetup      = "Preview of your set-up for %[1]s, playing %[2]s, front row first, each from your left:" // variant, side
	txtAltSetupRow   = "row %[1]d, %[2]s to %[3]s: %[4]s."                                                      // row, column, column, labels
	txtAltSetupEmpty = "empty"                                                                                  // an empty square of a set-up: a word, as a screen reader reads no "." and a row ending in one would end in ".."
	txtAltReplay     = "Replay of a Stratego game, %[1]s, %[2]s, every piece shown: %[3]s against %[4]s."       // variant, txtMoves, who, who
)

// The text board (TextBoard). Every square is at most three characters.
const (
	txtBoardTitle     = "%[1]s, %[2]s. %[3]s"                                                                                                                                      // variant, when, status
	txtBoardSides     = "%[1]s at the bottom, %[2]s at the top."                                                                                                                   // who, who
	txtBoardSidesYou  = "You are %[1]s, at the bottom; %[2]s at the top."                                                                                                          // who, who
	txtBoardKeyPlayer = "Key: your pieces by rank, with * when %[1]s knows the rank; ? hidden, ?m hidden and moved; %[2]s5 a piece of %[1]s whose rank is shown; ~ lake; . empty." // opponent side, its letter
	txtBoardKeyPublic = "Key: r Red, b Blue; r5 a piece whose rank is shown; r? hidden, r?m hidden and moved; ~ lake; . empty."
	txtBoardRanks     = "Ranks: %[1]s." // list of txtBoardRank
	txtBoardRank      = "%[1]s %[2]s"   // label, name: "10 Marshal"
)

// The symbols of the text board are the same in every language; its key
// (txtBoardKeyPlayer, txtBoardKeyPublic) explains them.
const (
	symEmpty  = "."
	symLake   = "~"
	symHidden = "?"
	symMoved  = "m" // after a hidden piece that moved
	symKnown  = "*" // after a player's own piece whose rank the opponent knows
)

// sideLetter marks a side's pieces on the text board: "r" and "b" (the same
// first letters in all four languages: rood, rot, rouge; blauw, blau, bleu).
var sideLetter = [2]string{"r", "b"}

// Texts with a count: the catalogue holds their plural forms, chosen by the
// language's plural rules; the count is always the first argument.
const (
	txtMoreItems    = "%[2]s, and %[1]d more" // count left out, the items listed joined by txtListSeparator
	txtMoves        = "%[1]d moves"
	txtPiecesLeft   = "%[1]d pieces left"
	txtPiecesPlaced = "%[1]d pieces placed"
	txtAltHidden    = "%[2]s: %[1]d hidden, %[3]s." // hidden, side, txtAltMoved or txtAltNoneMoved
	txtAltMoved     = "%[1]d of them moved"
)

// What txtAltHidden says when none of the hidden pieces moved, at the start
// of every game: "none of them moved", not "0 of them moved".
const txtAltNoneMoved = "none of them moved"

// What replaces txtAltHidden when one piece is hidden, which "of them"
// would not fit: "Blue: 1 hidden piece, which has moved.".
const (
	txtAltOneHiddenMoved = "%[1]s: 1 hidden piece, which has moved."     // side
	txtAltOneHiddenStill = "%[1]s: 1 hidden piece, which has not moved." // side
)

// The names of the sides.
const (
	txtRed  = "Red"
	txtBlue = "Blue"
)

// The names of the pieces, as each language's Stratego edition has them.
var txtRankNames = [game.NumRanks]string{
	game.Spy: "Spy", game.Scout: "Scout", game.Miner: "Miner", game.Sergeant: "Sergeant",
	game.Lieutenant: "Lieutenant", game.Captain: "Captain", game.Major: "Major", game.Colonel: "Colonel",
	game.General: "General", game.Marshal: "Marshal", game.Bomb: "Bomb", game.Flag: "Flag",
	game.Infiltrator: "Infiltrator",
}

// A number of pieces of a rank: "1 Spy", "8 Scouts".
var txtRankCounts = [game.NumRanks]string{
	game.Spy: "%[1]d Spies", game.Scout: "%[1]d Scouts", game.Miner: "%[1]d Miners", game.Sergeant: "%[1]d Sergeants",
	game.Lieutenant: "%[1]d Lieutenants", game.Captain: "%[1]d Captains", game.Major: "%[1]d Majors", game.Colonel: "%[1]d Colonels",
	game.General: "%[1]d Generals", game.Marshal: "%[1]d Marshals", game.Bomb: "%[1]d Bombs", game.Flag: "%[1]d Flags",
	game.Infiltrator: "%[1]d Infiltrators",
}

// What an Infiltrator that guessed wrong missed, by the rank it named:
// "[Red I] Infiltrator misses: not a Marshal". One text for each rank, so
// that each language writes its own article (kein, keine; un, une).
var txtMissesNot = [game.NumRanks]string{
	game.Spy:         " misses: not a Spy",
	game.Scout:       " misses: not a Scout",
	game.Miner:       " misses: not a Miner",
	game.Sergeant:    " misses: not a Sergeant",
	game.Lieutenant:  " misses: not a Lieutenant",
	game.Captain:     " misses: not a Captain",
	game.Major:       " misses: not a Major",
	game.Colonel:     " misses: not a Colonel",
	game.General:     " misses: not a General",
	game.Marshal:     " misses: not a Marshal",
	game.Bomb:        " misses: not a Bomb",
	game.Flag:        " misses: not the Flag",
	game.Infiltrator: " misses: not an Infiltrator",
}

// The rank an Infiltrator named, in an alt text's sentence (txtAltInfiltrate):
// "a Captain (6)", "an Infiltrator", "the Flag", the label where it has one
// (as rankLabelled). One text for each rank, for each language's article.
var txtAltGuessOf = [game.NumRanks]string{
	game.Spy:         "a Spy",
	game.Scout:       "a Scout (%[1]s)",
	game.Miner:       "a Miner (%[1]s)",
	game.Sergeant:    "a Sergeant (%[1]s)",
	game.Lieutenant:  "a Lieutenant (%[1]s)",
	game.Captain:     "a Captain (%[1]s)",
	game.Major:       "a Major (%[1]s)",
	game.Colonel:     "a Colonel (%[1]s)",
	game.General:     "a General (%[1]s)",
	game.Marshal:     "a Marshal (%[1]s)",
	game.Bomb:        "a Bomb",
	game.Flag:        "the Flag",
	game.Infiltrator: "an Infiltrator",
}

// The names of the variants.
var txtVariantNames = [...]string{
	game.VariantClassic: "Classic", game.VariantBarrage: "Barrage", game.VariantDuel: "Duel",
	game.VariantInfiltrator: "Infiltrator", game.VariantCustom: "Custom",
}
