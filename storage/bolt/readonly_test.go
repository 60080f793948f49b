package bolt

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// TestReadOnlyFileSystem: a database file on a file system mounted
// read-only (systemd's ProtectSystem=strict mounts so every folder a unit
// does not name in ReadWritePaths) is a place the bot may not use
// (ErrPlace, so that run exits 2 and systemd does not restart it unchanged),
// with what to do; it was the bare "read-only file system" of an error
// worth a restart.
func TestReadOnlyFileSystem(t *testing.T) {
	const path = "/srv/stratego/bot.db"
	err := fileError(path, &fs.PathError{Op: "open", Path: path, Err: syscall.EROFS})
	if !errors.Is(err, ErrPlace) || !errors.Is(err, syscall.EROFS) {
		t.Errorf("fileError of EROFS: %v, want ErrPlace and EROFS", err)
	}
	for _, want := range []string{"database " + path + " is on a read-only file system", "ReadWritePaths"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("fileError of EROFS says %q, want %q in it", err, want)
		}
	}
}
