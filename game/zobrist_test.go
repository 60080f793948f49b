package game

import "testing"

// TestZobristTable: a seed always gives the same keys, other seeds other
// keys, and no two keys of a table are equal (two positions that differ by
// one piece never hash alike through it).
func TestZobristTable(t *testing.T) {
	a, b, other := ZobristTable(1), ZobristTable(1), ZobristTable(2)
	if a != b {
		t.Fatal("the same seed gave two tables")
	}
	if a == other {
		t.Fatal("two seeds gave the same table")
	}
	seen := map[uint64]bool{}
	for id := range a {
		for s := range a[id] {
			if seen[a[id][s]] {
				t.Fatalf("key of piece %d on square %d repeats", id, s)
			}
			seen[a[id][s]] = true
		}
	}
	if zobristKeys != ZobristTable(0x9E3779B97F4A7C15) {
		t.Error("the game's keys are not its table's")
	}
}
