package web

import (
	"net/http"
	"strings"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// SavedSetup is a set-up a player keeps under a name, offered in the tray.
type SavedSetup struct {
	Name  string
	Setup game.Setup
	// First marks the player's first choice in the match's variant.
	First bool
}

// MaxSetupName is the longest name a saved set-up may have, in characters
// as the page's input counts them (storage.MaxSetupName).
const MaxSetupName = storage.MaxSetupName

type savedSetupJSON struct {
	Name  string                  `json:"name"`
	Setup [game.SetupRows][10]int `json:"setup"`
	First bool                    `json:"first,omitempty"`
}

func rowsOf(su game.Setup) [game.SetupRows][10]int {
	var rows [game.SetupRows][10]int
	for i, row := range su {
		for j, k := range row {
			rows[i][j] = int(k)
		}
	}
	return rows
}

// savedSetups lists the player's saved set-ups that fit this match. They are
// the player's secrets for future matches too, so the Actor hands them out
// only while this side is still setting up.
func (s *Server) savedSetups(w http.ResponseWriter, r *http.Request, c Capability) error {
	side, m, err := s.playerRequest(r, c, nil)
	if err != nil {
		return err
	}
	saved, err := s.opts.Actor.SavedSetups(r.Context(), m, side)
	if err != nil {
		return err
	}
	out := make([]savedSetupJSON, 0, len(saved))
	for _, su := range saved {
		out = append(out, savedSetupJSON{Name: su.Name, Setup: rowsOf(su.Setup), First: su.First})
	}
	return writeJSON(w, map[string]any{"setups": out})
}

type saveRequest struct {
	Name  string                  `json:"name"`
	Setup [game.SetupRows][10]int `json:"setup"`
}

// saveSetup keeps the page's set-up under a name among the player's saved
// set-ups, for this match's later use and for their next matches.
func (s *Server) saveSetup(w http.ResponseWriter, r *http.Request, c Capability) error {
	var req saveRequest
	side, m, err := s.playerRequest(r, c, &req)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(req.Name)
	if !storage.SetupNameFits(name) {
		return errBadRequest
	}
	su, err := setupOf(req.Setup)
	if err != nil {
		return err
	}
	if err := s.opts.Actor.SaveSetup(r.Context(), m, side, name, su); err != nil {
		return err
	}
	return ok(w)
}
