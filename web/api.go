package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// The API's handlers: a page's state and a player's actions.

// load reads the match of c as stored now, and its game.
func (s *Server) load(ctx context.Context, c Capability) (*storage.Match, *game.Game, error) {
	m, err := s.opts.Matches.Match(ctx, c.Match)
	if err != nil {
		return nil, nil, err
	}
	g, err := gameOf(m)
	return m, g, err
}

// requestedGame is the match a request is about (requested), and its game.
func (s *Server) requestedGame(r *http.Request, c Capability) (*storage.Match, *game.Game, error) {
	m, err := s.requested(r, c)
	if err != nil {
		return nil, nil, err
	}
	g, err := gameOf(m)
	return m, g, err
}

// gameOf replays m's game: nil until both set-ups are confirmed.
func gameOf(m *storage.Match) (*game.Game, error) {
	if m.Setups[game.Red].Status != storage.SetupConfirmed || m.Setups[game.Blue].Status != storage.SetupConfirmed {
		return nil, nil
	}
	return m.Game()
}
func (s *Server) state(w http.ResponseWriter, r *http.Request, c Capability) error {
	m, g, err := s.requestedGame(r, c)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	now := s.opts.Now()
	data, _ := BuildState(m, g, c.Viewer, now).Sent(now)
	_, err = w.Write(data)
	return err
}
func decode(r *http.Request, v any) error {
	d := json.NewDecoder(r.Body)
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return errBadRequest // the body is in already (readBody): only its form is wrong
	}
	return nil
}

// forbidden is a player's request their side may not make, with the reason
// they read in their language.
type forbidden struct{ reason string }

func (f *forbidden) Error() string { return f.reason }

// playerRequest is the start of every player's request: it refuses a
// spectator's capability, decodes the body into req (none when req is nil)
// and returns the player's side and the match the request is about.
func (s *Server) playerRequest(r *http.Request, c Capability, req any) (game.Side, *storage.Match, error) {
	side, ok := c.Side()
	if !ok {
		return 0, nil, errForbidden
	}
	if req != nil {
		if err := decode(r, req); err != nil {
			return 0, nil, err
		}
	}
	m, err := s.requested(r, c)
	if err != nil {
		return 0, nil, err
	}
	return side, m, nil
}

type moveRequest struct {
	Basis string `json:"basis"` // the state the player acted on (State.Basis)
	From  uint8  `json:"from"`
	To    uint8  `json:"to"`
	Guess uint8  `json:"guess"`
}

// basis is the Basis of an action of c's viewer made on what digest names
// (State.Basis): when the board changed since the player looked, the
// action is refused in their language.
func (s *Server) basis(r *http.Request, c Capability, digest string) Basis {
	return func(m *storage.Match, g *game.Game) error {
		if BuildState(m, g, c.Viewer, s.opts.Now()).Basis == digest {
			return nil
		}
		pref := s.preferences(r.Context(), r, c, func(side game.Side) string { return m.Players[side].UserID })
		return StaleRefusal(pref.Language)
	}
}
func (s *Server) move(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req moveRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	mv := game.Move{From: game.Square(req.From), To: game.Square(req.To), Guess: game.Rank(req.Guess)}
	if !mv.From.Valid() || !mv.To.Valid() || (mv.Guess != game.NoRank && !mv.Guess.Valid()) {
		return errBadRequest
	}
	if err := s.opts.Actor.Move(r.Context(), m, s.basis(r, c, req.Basis), side, mv); err != nil {
		return err
	}
	return ok(w)
}

type setupRequest struct {
	Setup   [game.SetupRows][10]int `json:"setup"`
	Confirm bool                    `json:"confirm"`
}

func (s *Server) setup(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req setupRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	su, err := setupOf(req.Setup)
	if err != nil {
		return err
	}
	// A set-up is the player's own whatever else changed: no basis.
	if err := s.opts.Actor.Setup(r.Context(), m, side, su, req.Confirm); err != nil {
		return err
	}
	return ok(w)
}
func setupOf(rows [game.SetupRows][10]int) (game.Setup, error) {
	var su game.Setup
	for i, row := range rows {
		for j, k := range row {
			if rank := game.Rank(k); k < 0 || k >= game.NumRanks || (rank != game.NoRank && !rank.Valid()) {
				return su, errBadRequest
			}
			su[i][j] = game.Rank(k)
		}
	}
	return su, nil
}
func writeJSON(w http.ResponseWriter, v any) error {
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(v)
}
func (s *Server) random(w http.ResponseWriter, r *http.Request, c Capability) error {
	side, m, err := s.playerRequest(r, c, nil)
	if err != nil {
		return err
	}
	su, err := s.opts.Actor.RandomSetup(r.Context(), m, side)
	if err != nil {
		return err
	}
	return writeJSON(w, map[string]any{"setup": rowsOf(su)})
}

type actionRequest struct {
	Basis  string `json:"basis"` // the state the player acted on (State.Basis)
	Answer string `json:"answer,omitempty"`
}

func (s *Server) resign(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req actionRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	if err := s.opts.Actor.Resign(r.Context(), m, s.basis(r, c, req.Basis), side); err != nil {
		return err
	}
	return ok(w)
}
func (s *Server) draw(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req actionRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	a, found := map[string]DrawAnswer{"offer": DrawOffer, "accept": DrawAccept, "decline": DrawDecline}[req.Answer]
	if !found {
		return errBadRequest
	}
	if err := s.opts.Actor.Draw(r.Context(), m, s.basis(r, c, req.Basis), side, a); err != nil {
		return err
	}
	return ok(w)
}

type giveTimeRequest struct {
	// Given is how many times the player had given time as the page showed
	// it (State.Time.Gifts): a gift is made once for what a page showed.
	// Absent (a page loaded before it was sent): as the match is read now.
	Given *int `json:"given"`
}

// giveTime gives the player's opponent more time (Actor.GiveTime).
func (s *Server) giveTime(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req giveTimeRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	given := m.GiftsBy(side)
	if req.Given != nil {
		if *req.Given < 0 || *req.Given > storage.MaxGifts {
			return errBadRequest
		}
		given = *req.Given
	}
	if err := s.opts.Actor.GiveTime(r.Context(), m, side, given); err != nil {
		return err
	}
	return ok(w)
}

type pauseRequest struct {
	Answer string `json:"answer"` // "propose", "accept" or "decline"
	// Days is the pause proposed, or the days of the proposal answered as
	// the page showed it.
	Days int `json:"days"`
}

// pause proposes a pause or answers the opponent's proposal (Actor.Pause).
// Only the player a proposal asks may accept it: the proposer's own link
// is refused as a spectator's is.
func (s *Server) pause(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req pauseRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	a, found := map[string]PauseAnswer{"propose": PausePropose, "accept": PauseAccept, "decline": PauseDecline}[req.Answer]
	if !found || req.Days < 1 || req.Days > storage.MaxPauseDays {
		return errBadRequest
	}
	if by, days, offered := m.PauseOffer(); a == PauseAccept && offered && by == side {
		pref := s.preferences(r.Context(), r, c, func(side game.Side) string { return m.Players[side].UserID })
		p := lang.For(pref.Language)
		return &forbidden{reason: p.Sprintf(txtPauseOffered, render.Duration(p, time.Duration(days)*24*time.Hour))}
	}
	if err := s.opts.Actor.Pause(r.Context(), m, side, a, req.Days); err != nil {
		return err
	}
	return ok(w)
}
func ok(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	_, err := io.WriteString(w, `{"ok":true}`)
	return err
}
