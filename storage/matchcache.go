package storage

import (
	"bytes"
	"sync"
)

// MatchCache keeps the decoded form of the matches read and written last, so
// that reading a match again costs a comparison of its bytes and a copy
// rather than decoding JSON: a move reads its match several times (the move
// itself, then each of its notices as the outbox composes them), and
// decoding was 5% of the bot's CPU per move (strategobot loadtest).
//
// An entry is used only when the stored bytes are exactly the bytes it was
// decoded from, so the cache can never give a stale or a rolled-back match,
// and every caller gets its own copy (Match.Clone) to change. Both backends
// use one (see DecodeMatch for PostgreSQL's).
type MatchCache struct {
	mu      sync.Mutex
	max     int
	entries map[MatchID]cachedMatch
}

type cachedMatch struct {
	data []byte
	m    *Match
}

// NewMatchCache returns a cache of at most max matches.
func NewMatchCache(max int) *MatchCache {
	return &MatchCache{max: max, entries: make(map[MatchID]cachedMatch)}
}

// Decode returns match id decoded from its stored record data (see
// DecodeMatch), from the cache when data is what it was decoded from.
func (c *MatchCache) Decode(id MatchID, data []byte) (*Match, error) {
	c.mu.Lock()
	e, ok := c.entries[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.data, data) {
		return e.m.Clone(), nil
	}
	m, err := decodeMatch(data)
	if err != nil {
		return nil, err
	}
	c.Put(id, data, m)
	return m, nil
}

// Put remembers that data, match id's record, decodes to m (m is copied, so
// the caller may go on changing it). It is called with the bytes just
// written, so that the next read needs no decoding; were the write rolled
// back, the stored bytes would differ and the entry would go unused.
func (c *MatchCache) Put(id MatchID, data []byte, m *Match) {
	if c.max <= 0 {
		return
	}
	e := cachedMatch{data: bytes.Clone(data), m: m.Clone()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[id]; !ok && len(c.entries) >= c.max {
		for old := range c.entries { // any entry: the map's order is random
			delete(c.entries, old)
			break
		}
	}
	c.entries[id] = e
}

// matchCacheSize is how many decoded matches a database keeps: more than the
// matches that move at once on a busy bot, at a few kilobytes each.
const matchCacheSize = 2048
