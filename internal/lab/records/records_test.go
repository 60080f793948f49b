package records

import "testing"

// TestHeldOut: the held-out months are known by their archives' names, whether
// a path names the archive or a record inside it.
func TestHeldOut(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"/work/shared/gravon/strados2014-2.zip", true},
		{"strados2014-3.zip/1234.xml", true},
		{"/work/shared/gravon/strados2014-1.zip", false},
		{"strados2013-10.zip", false},
		{"testdata/classic-2014.3-330.xml", false},
	}
	for _, tc := range tests {
		if got := HeldOut(tc.path); got != tc.want {
			t.Errorf("HeldOut(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
