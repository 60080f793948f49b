package bot

import (
	"context"
	"fmt"
	"sync"

	"github.com/strategobot/strategobot/storage"
)

// tournamentCache keeps the latest version of each tournament this process
// changed or read lately, for the notices that start a tournament's games
// (their set-up invites and first boards), which need it as it stands now
// (startingGame): alone on its database the bot makes every change itself
// (updateTournament), so what it keeps is the newest, and a round's
// invites cost no read. Sharing the database, another process may have
// changed it since (a cancel): those notices read it from the store, as a
// match's snapshot asks for its version (stillNewest).
type tournamentCache struct {
	mu   sync.Mutex
	byID map[storage.TournamentID]*storage.Tournament
}

// tournamentsKept bounds the cache: more tournaments than are under way at
// once on a busy bot.
const tournamentsKept = 256

func newTournamentCache() *tournamentCache {
	return &tournamentCache{byID: make(map[storage.TournamentID]*storage.Tournament)}
}

// put keeps a copy of t unless a newer version is kept already.
func (c *tournamentCache) put(t *storage.Tournament) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byID[t.ID]; ok && old.Version >= t.Version {
		return
	}
	if _, ok := c.byID[t.ID]; !ok && len(c.byID) >= tournamentsKept {
		for id := range c.byID { // any one: the map's order is random
			delete(c.byID, id)
			break
		}
	}
	c.byID[t.ID] = t.Clone()
}

// get returns the tournament kept, if any: never to be changed.
func (c *tournamentCache) get(id storage.TournamentID) (*storage.Tournament, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byID[id]
	return t, ok
}

// forget drops what is kept of tournament id: after a change whose outcome
// is unknown, the next reader loads it.
func (c *tournamentCache) forget(id storage.TournamentID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byID, id)
}

// currentTournament returns tournament id as it stands now: the version
// kept, alone on the database; read from the store otherwise, or when none
// is kept. The result is never to be changed.
func (b *Bot) currentTournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	if !b.cfg.Shared {
		if t, ok := b.tournaments.get(id); ok {
			return t, nil
		}
	}
	t, err := b.store.Tournament(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("reading tournament %d: %w", id, err)
	}
	b.tournaments.put(t)
	return t, nil
}
