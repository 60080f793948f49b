package bot

import "testing"

// TestOnShard: the servers whose removal a process looks for at READY are
// those of its shard, as Discord routes them: (guild_id >> 22) % count.
func TestOnShard(t *testing.T) {
	for _, tc := range []struct {
		guild string
		shard [2]int
		want  bool
	}{
		{"4194304", [2]int{0, 1}, true}, // one shard: every server
		{"4194304", [2]int{0, 0}, true}, // no count given: one shard
		{"4194304", [2]int{1, 2}, true}, // 1<<22: shard 1 of 2
		{"4194304", [2]int{0, 2}, false},
		{"8388608", [2]int{2, 3}, true}, // 2<<22: shard 2 of 3
		{"8388608", [2]int{0, 3}, false},
		{"4194303", [2]int{0, 2}, true}, // below 1<<22: shard 0
		{"not an id", [2]int{0, 2}, false},
	} {
		if got := onShard(tc.guild, tc.shard); got != tc.want {
			t.Errorf("onShard(%s, %v) = %v, want %v", tc.guild, tc.shard, got, tc.want)
		}
	}
}
