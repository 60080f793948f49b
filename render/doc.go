// Package render draws pictures of game views: a player's board, the public
// board, the set-up preview, the final reveal and an animated replay.
//
// It only ever receives views (game.View), a player's own set-up, or, for a
// replay, a game that is over, so a picture cannot show a rank its viewer does
// not know: a piece whose rank is hidden is drawn from its side and whether it
// moved, and nothing else.
//
// # What a board picture shows
//
// From the top: a status bar (variant and "after move N", or a draw offer in
// their place, and whose move; the result in gold once the game is over); the
// upper player's name with how many pieces that side has left, and its tray
// (how many of each rank, which is public); the board with coordinates on all four edges, turned
// so that the viewer's army is at the bottom (Red's for the public); the lower
// player's name line and tray (a clock low on time, Options.LowClocks, in
// white on a red box); and two lines for the last move ("Move N: Blue
// F5xF4") and its battle, with both ranks and the outcome. A move number always
// counts the moves played, in every picture and text. The square the last move
// left is yellow with a thin frame, the square it went to has a thick frame
// over the piece; after a battle the square is orange and its frame thick and
// dashed, so that a battle differs from a move in greyscale by its shape.
// The squares a Scout ran over between the two carry a trail of two dots
// each, on every view: the move is public. Each mark stands out at 3:1
// (WCAG AA for graphics) from what it lies on: the land, its square's
// colour, and the piece, from which a line of the square's colour parts a
// frame; the web board draws them alike.
//
// Red pieces are rounded squares and Blue pieces sharp squares, Blue darker
// than Red, so the sides differ in shape and lightness, not only in hue. A
// piece whose rank the viewer knows shows its label in the chosen numbering
// (a bomb and a flag are drawn as symbols); a hidden piece shows its side's
// emblem, a ring for Red and a square for Blue. A white dot marks a piece
// known to have moved, a thick white inner ring a piece whose rank is public
// (revealed in a battle, or a Scout by its run). Key draws a picture that
// explains these symbols.
//
// Discord shows a picture about 300 pixels wide on a phone: every font is 16
// pixels or more and every symbol (a mini piece's bomb or flag, a chip) 16
// pixels high or more, 9 on the phone, and the marks are large enough to
// survive that (see TestPhoneLegibility, which also writes phone-size copies
// with -phone DIR).
//
// # Texts
//
// AltText describes a board picture for Discord's alt text, and TextBoard
// writes a view as a monospace diagram; like the pictures, both are made from
// a view alone and go through the same leak tests. SetupAltText, ReplayAltText
// and KeyAltText describe the other pictures. Every English text is in
// texts.go, as whole format strings, ready for a translation catalogue.
//
// # How it is fast
//
// Pictures are built the way fast board renderers work: every tile (squares,
// pieces, mini pieces) and every glyph is drawn once with gg when the Renderer
// is made, in one global palette of at most 255 colours; a picture then only
// copies bytes into an 8-bit paletted image, which is encoded as a PNG, or as
// GIF frames holding only the pixels that changed. A PNG is compressed in
// horizontal bands (the status, each row of squares, the trays, the move
// lines), and a band that any earlier picture had, byte for byte, is copied
// from a cache of compressed bands rather than compressed again: a move
// changes few bands of its three pictures, so most are copied (see
// pngEncoder). A band is found by a hash of its pixels, but a row of squares
// by its tiles (rowKey), which is exact and spares hashing two thirds of the
// picture. The bytes of a picture are the same whatever the cache holds. A
// row that shows a player's own hidden ranks is found only by pictures with
// the same Options.Secret (one match's) and the same pieces in it, so that
// whether a picture found its rows tells nothing of a hidden rank
// (secretKey).
package render
