package render

import (
	"bytes"
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdler32Combine: the checksum combined from two parts' is the whole's,
// for parts empty, short and long enough to wrap the sums many times.
func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 300_000)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	ones := bytes.Repeat([]byte{0xff}, 200_000) // the largest sums
	for _, tc := range []struct {
		name string
		data []byte
		cut  int
	}{
		{"both empty", nil, 0},
		{"first empty", data[:10], 0},
		{"second empty", data[:10], 10},
		{"one byte each", data[:2], 1},
		{"random", data, 123_457},
		{"random, second past the modulus", data, 1_000},
		{"all 0xff", ones, 65_521},
		{"all 0xff, second of the modulus", ones, len(ones) - 65_521},
	} {
		a, b := adler32.Checksum(tc.data[:tc.cut]), adler32.Checksum(tc.data[tc.cut:])
		if got, want := adler32Combine(a, b, len(tc.data)-tc.cut), adler32.Checksum(tc.data); got != want {
			t.Errorf("%s: combined %08x, want %08x", tc.name, got, want)
		}
	}
}

// TestBandCache: the cache keeps at most its limit, gives back what it
// kept, and lets a band used since the last sweep outlive one that was not.
func TestBandCache(t *testing.T) {
	c := newBandCache(1000)
	put := func(i int) bandKey {
		k := bandKey{h1: uint64(i), n: i}
		c.put(k, band{data: make([]byte, 100), sum: uint32(i), n: i})
		return k
	}
	var keys []bandKey
	for i := range 10 {
		keys = append(keys, put(i))
	}
	if c.bytes != 1000 {
		t.Fatalf("kept %d bytes, want 1000", c.bytes)
	}
	for _, k := range keys {
		if b, ok := c.get(k); !ok || b.sum != uint32(k.n) {
			t.Fatalf("band %d: got %v, %v", k.n, b.sum, ok)
		}
	}
	// Every band was used: the first sweep gives each a second chance, the
	// second evicts band 0.
	put(10)
	if _, ok := c.get(keys[0]); ok {
		t.Error("band 0 is still kept, band 10 should have replaced it")
	}
	// Band 1 is used again, band 2 is not: band 2 goes first.
	c.get(keys[1])
	put(11)
	if _, ok := c.get(keys[1]); !ok {
		t.Error("band 1 was used since the last sweep and was evicted")
	}
	if _, ok := c.get(keys[2]); ok {
		t.Error("band 2 was not used since the last sweep and was kept")
	}
	if c.bytes > 1000 || len(c.index) != 10 {
		t.Errorf("kept %d bands of %d bytes, want 10 within 1000", len(c.index), c.bytes)
	}
	// A band larger than the limit is not kept, and evicts nothing.
	c.put(bandKey{h1: 99}, band{data: make([]byte, 1001)})
	if _, ok := c.get(bandKey{h1: 99}); ok || len(c.index) != 10 {
		t.Errorf("a band larger than the limit: kept %v, %d bands", ok, len(c.index))
	}
	// Many more bands: the limit holds, and the slots do not grow.
	for i := 100; i < 1100; i++ {
		put(i)
		if c.bytes > 1000 {
			t.Fatalf("kept %d bytes after band %d", c.bytes, i)
		}
	}
	if len(c.slots) > 10 {
		t.Errorf("%d slots for at most 10 bands", len(c.slots))
	}
}
