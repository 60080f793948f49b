package bolt

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFirstBackupWait: a process's first backup is due BackupEvery after
// the newest in the folder, at once without one or when that is past, and
// BackupEvery at most.
func TestFirstBackupWait(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	name := func(at time.Time) string { return backupPrefix + at.Format(backupLayout) + backupSuffix }
	for _, tc := range []struct {
		what  string
		files []string
		want  time.Duration
	}{
		{"no backup", []string{"notes.txt"}, 0},
		{"the newest two hours old", []string{name(now.Add(-5 * time.Hour)), name(now.Add(-2 * time.Hour))}, 0},
		{"the newest ten minutes old", []string{name(now.Add(-5 * time.Hour)), name(now.Add(-10 * time.Minute)), "notes.txt"}, 50 * time.Minute},
		{"the newest from a clock that was ahead", []string{name(now.Add(3 * time.Hour))}, time.Hour},
	} {
		dir := t.TempDir()
		for _, f := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if got := firstBackupWait(dir, now, time.Hour); got != tc.want {
			t.Errorf("%s: first backup in %v, want %v", tc.what, got, tc.want)
		}
	}
	if got := firstBackupWait(filepath.Join(t.TempDir(), "missing"), now, time.Hour); got != 0 {
		t.Errorf("a folder not made yet: first backup in %v, want at once", got)
	}
}
