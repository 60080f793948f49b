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
// From the top: a status bar (variant, move number, whose move, a draw offer,
// or the result in gold once the game is over); the upper player's name and
// tray (how many pieces of each rank that side has left, which is public);
// the board with coordinates on all four edges, turned so that the viewer's
// army is at the bottom (Red's for the public); the lower player's name and
// tray; and the last move, with both ranks and the outcome after a battle.
// The squares of the last move are yellow, the square of a battle orange.
//
// Red pieces are rounded squares and Blue pieces sharp squares, Blue darker
// than Red, so the sides differ in shape and lightness, not only in hue. A
// piece whose rank the viewer knows shows its label in the chosen numbering
// (a bomb and a flag are drawn as symbols); a hidden piece shows its side's
// emblem, a ring for Red and a square for Blue. A white dot marks a piece
// known to have moved, a white inner outline a piece whose rank is public
// (revealed in a battle, or a Scout by its run).
//
// # How it is fast
//
// Pictures are built the way fast board renderers work: every tile (squares,
// pieces, mini pieces) and every glyph is drawn once with gg when the Renderer
// is made, in one global palette of at most 255 colours; a picture then only
// copies bytes into an 8-bit paletted image, which is encoded as a PNG at the
// fastest compression level, or as GIF frames holding only the pixels that
// changed.
package render
