package records

import (
	"strings"
	"testing"
)

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

// TestFitOnly: a list to fit on is refused, naming the file, when any of its
// files is held out.
func TestFitOnly(t *testing.T) {
	tests := []struct {
		paths []string
		names string // the file the refusal names; "" for none
	}{
		{[]string{"g/strados2014-1.zip", "g/strados2013-12.zip"}, ""},
		{[]string{"g/strados2014-1.zip", "g/strados2014-3.zip"}, "g/strados2014-3.zip"},
		{nil, ""},
	}
	for _, tc := range tests {
		err := FitOnly(tc.paths)
		switch {
		case tc.names == "" && err != nil:
			t.Errorf("FitOnly(%q) = %v, want nil", tc.paths, err)
		case tc.names != "" && (err == nil || !strings.Contains(err.Error(), tc.names)):
			t.Errorf("FitOnly(%q) = %v, want a refusal naming %s", tc.paths, err, tc.names)
		}
	}
}
