package bolt

import (
	"bytes"
	"sync"
)

// decodedCache keeps the decoded form of the records read and written last,
// so that reading a record again costs a comparison of its bytes and a copy
// rather than decoding JSON. A move's notices share one snapshot in the bot,
// so they do not read the match again; what reads a record again is each
// transaction that changes one (the move, then the clock's start when the
// board arrives, reminders, time-outs), the member lists of autocomplete and
// /stratego games, and the settings read once per change. Without the
// cache the bot spends 11-24% more CPU a move (docs/PERFORMANCE.md).
//
// An entry is used only when the stored bytes are exactly the bytes it was
// decoded from, so the cache can never give a stale or a rolled-back record,
// and every caller gets its own copy (clone) to change. Writes leave the
// cache alone: a record as written may differ from the same record decoded
// (times kept to the second, defaults filled in), so only decoding fills it.
type decodedCache[K comparable, T any] struct {
	decode func([]byte) (T, error)
	clone  func(T) T
	max    int

	mu      sync.Mutex
	entries map[K]decodedEntry[T]
}

type decodedEntry[T any] struct {
	data []byte
	v    T
}

// newDecodedCache returns a cache of at most max records.
func newDecodedCache[K comparable, T any](max int, decode func([]byte) (T, error), clone func(T) T) *decodedCache[K, T] {
	return &decodedCache[K, T]{decode: decode, clone: clone, max: max, entries: make(map[K]decodedEntry[T])}
}

// get returns record key decoded from its stored bytes data, from the cache
// when data is what it was decoded from.
func (c *decodedCache[K, T]) get(key K, data []byte) (T, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.data, data) {
		return c.clone(e.v), nil
	}
	v, err := c.decode(data)
	if err != nil {
		var zero T
		return zero, err
	}
	if c.max <= 0 {
		return v, nil
	}
	e = decodedEntry[T]{data: bytes.Clone(data), v: c.clone(v)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max {
		for old := range c.entries { // any entry: the map's order is random
			delete(c.entries, old)
			break
		}
	}
	c.entries[key] = e
	return v, nil
}

// decodedRecords is how many decoded matches, how many players' settings
// and how many notices a database keeps: more than move at once on a busy
// bot, at a few kilobytes each.
const decodedRecords = 2048
