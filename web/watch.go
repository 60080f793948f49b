package web

import "github.com/strategobot/strategobot/storage"

// Watched reports whether m has an open page, so that a caller need not
// build the game for MatchChanged when nobody would see it.
func (s *Server) Watched(id storage.MatchID) bool { return s.hub.watched(id) }

// WatchedMatches lists the matches with open pages: what a process polls
// for changes made by another process on a shared database.
func (s *Server) WatchedMatches() []storage.MatchID {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	ids := make([]storage.MatchID, 0, len(s.hub.subs))
	for id := range s.hub.subs {
		ids = append(ids, id)
	}
	return ids
}
