package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// gameAtPly rebuilds m's game as it stood after its first ply moves (the
// actions between moves up to the next move included: draw offers and the like).
func gameAtPly(m *storage.Match, ply int) (*game.Game, error) {
	moves := 0
	for i, a := range m.Log {
		if a.Kind == storage.ActMove {
			if moves == ply {
				return m.GameAt(i)
			}
			moves++
		}
	}
	if moves == ply {
		return m.Game()
	}
	return nil, errBadRequest
}

// replay serves the viewer's state after ply moves, as the viewer knew the
// board then: that position's own view, nothing learned later.
func (s *Server) replay(w http.ResponseWriter, r *http.Request, c Capability) error {
	ply, err := strconv.Atoi(r.URL.Query().Get("ply"))
	if err != nil || ply < 0 || ply > 1_000_000 {
		return errBadRequest
	}
	m, g, err := s.requestedGame(r, c)
	if err != nil {
		return err
	}
	if g == nil {
		return errBadRequest
	}
	// Only a finished match shows both armies, as its reveal on Discord
	// does: one called off shows none, whatever its replay ends in.
	final := m.Phase == storage.PhaseFinished && g.Result().Over()
	if ply < g.Ply() {
		if g, err = gameAtPly(m, ply); err != nil {
			return err
		}
	}
	st := BuildState(m, g, c.Viewer, s.opts.Now())
	st.Legal, st.Infiltrate, st.Pad = nil, nil, ""
	if final {
		// The match is over: every frame shows both armies.
		st.Board = revealedBoard(g)
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(st.Encode())
	return err
}

// revealedBoard is g's board with every piece shown. Only a finished match's
// frames may use it.
func revealedBoard(g *game.Game) []CellJSON {
	v := g.View(game.PublicViewer)
	board := make([]CellJSON, game.NumSquares)
	for i, cell := range v.Board {
		if cell.Occupied {
			_, rank, _ := g.PieceAt(game.Square(i))
			board[i] = CellJSON{Side: sideName(cell.Side), Rank: uint8(rank), Moved: cell.Moved, Scout: cell.KnownScout, Revealed: cell.Revealed}
		}
	}
	return board
}

// reveal serves the final board with every piece shown, once the match is over.
func (s *Server) reveal(w http.ResponseWriter, r *http.Request, c Capability) error {
	m, g, err := s.requestedGame(r, c)
	if err != nil {
		return err
	}
	if g == nil || m.Phase != storage.PhaseFinished {
		return errForbidden
	}
	v, ok := g.Reveal()
	if !ok {
		return errForbidden
	}
	board := make([]CellJSON, game.NumSquares)
	for i, cell := range v.Board {
		if cell.Occupied {
			board[i] = CellJSON{Side: sideName(cell.Side), Rank: uint8(cell.Rank), Moved: cell.Moved, Scout: cell.KnownScout, Revealed: cell.Revealed}
		}
	}
	return writeJSON(w, map[string]any{"board": board})
}

// record serves the finished match's Gravon XML record.
func (s *Server) record(w http.ResponseWriter, r *http.Request, c Capability) error {
	m, g, err := s.requestedGame(r, c)
	if err != nil {
		return err
	}
	if g == nil || m.Phase != storage.PhaseFinished || !g.Result().Over() {
		return errForbidden
	}
	w.Header().Set("Content-Type", "application/xml")
	// The name /stratego record gives the file on Discord.
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"stratego-match-%d.xml\"", m.ID))
	return game.NewRecord(g, m.Players[game.Red].Name, m.Players[game.Blue].Name).WriteGravon(w)
}

// check answers a set-up draft with the refusal Save draft and Confirm
// would meet (empty when the set-up would be accepted): the Actor's one
// check of a set-up. It stores nothing.
func (s *Server) check(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req setupRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	su, err := setupOf(req.Setup)
	if err != nil {
		return err
	}
	reason := ""
	if err := s.opts.Actor.CheckSetup(r.Context(), m, side, su); err != nil {
		var ref *Refusal
		if !errors.As(err, &ref) {
			return err
		}
		reason = ref.Reason
	}
	return writeJSON(w, map[string]string{"refusal": reason})
}
