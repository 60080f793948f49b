package render

import "sync"

// bandKey names a band of a picture by its content: two 64-bit hashes of its
// bytes under different seeds, and its length.
type bandKey struct {
	h1, h2 uint64
	n      int
}

// band is one compressed band: a raw deflate stream ended by a sync flush,
// with the adler32 checksum and length of the bytes it holds.
type band struct {
	data []byte
	sum  uint32
	n    int
}

// bandCache keeps compressed bands up to a number of bytes, evicting with the
// clock algorithm: a band used since the hand last passed gets a second
// chance. Safe for concurrent use.
type bandCache struct {
	mu      sync.Mutex
	index   map[bandKey]int // slot of each kept band
	slots   []bandSlot
	free    []int // slots emptied by eviction
	hand    int
	bytes   int
	limit   int
	hits    uint64
	lookups uint64
}

type bandSlot struct {
	key  bandKey
	band band
	used bool
}

func newBandCache(limit int) *bandCache {
	return &bandCache{index: make(map[bandKey]int), limit: limit}
}

// get returns the band kept under k, if any.
func (c *bandCache) get(k bandKey) (band, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lookups++
	i, ok := c.index[k]
	if !ok {
		return band{}, false
	}
	c.hits++
	c.slots[i].used = true
	return c.slots[i].band, true
}

// missed counts a band looked up in vain without looking: one never kept.
func (c *bandCache) missed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lookups++
}

// put keeps b under k, evicting bands to stay within the limit. A band larger
// than the whole limit is not kept.
func (c *bandCache) put(k bandKey, b band) {
	size := len(b.data)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.index[k]; ok || size > c.limit {
		return
	}
	for c.bytes+size > c.limit {
		s := &c.slots[c.hand]
		if s.used {
			s.used = false
		} else if s.band.data != nil {
			delete(c.index, s.key)
			c.bytes -= len(s.band.data)
			s.band = band{}
			c.free = append(c.free, c.hand)
		}
		c.hand = (c.hand + 1) % len(c.slots)
	}
	i := len(c.slots)
	if n := len(c.free); n > 0 {
		i, c.free = c.free[n-1], c.free[:n-1]
		c.slots[i] = bandSlot{key: k, band: b}
	} else {
		c.slots = append(c.slots, bandSlot{key: k, band: b})
	}
	c.index[k] = i
	c.bytes += size
}

// stats returns how many bands were looked up, and how many of them were found.
func (c *bandCache) stats() (lookups, hits uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookups, c.hits
}
