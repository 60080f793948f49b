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
	// forgotten counts forget calls: a read that began before one may hold
	// a version older than a change whose outcome was unknown, and is not
	// kept (putRead).
	forgotten uint64
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
	c.keep(t)
}

// readBegins returns what putRead needs to know of a read of the store
// that begins now.
func (c *tournamentCache) readBegins() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.forgotten
}

// putRead keeps t, read from the store by a read that began when
// readBegins returned began, unless something was forgotten since: the
// read may then predate a change that was written after all.
func (c *tournamentCache) putRead(t *storage.Tournament, began uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.forgotten != began {
		return
	}
	c.keep(t)
}

// keep keeps a copy of t unless a newer version is kept already; the
// caller holds mu.
func (c *tournamentCache) keep(t *storage.Tournament) {
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
	c.forgotten++
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
	began := b.tournaments.readBegins()
	t, err := b.store.Tournament(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("reading tournament %d: %w", id, err)
	}
	b.tournaments.putRead(t, began)
	return t, nil
}
