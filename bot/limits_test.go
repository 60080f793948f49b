package bot

import "testing"

// TestGoProcs: one P more per thinker than the machine would run.
func TestGoProcs(t *testing.T) {
	for _, tc := range []struct {
		limits     Limits
		base, want int
	}{
		{Limits{ComputerThinkers: 1}, 2, 3},
		{Limits{ComputerThinkers: 3}, 8, 11},
	} {
		if got := tc.limits.GoProcs(tc.base); got != tc.want {
			t.Errorf("%+v.GoProcs(%d) = %d, want %d", tc.limits, tc.base, got, tc.want)
		}
	}
}
