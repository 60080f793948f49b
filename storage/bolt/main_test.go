package bolt_test

import (
	"os"
	"testing"

	"github.com/strategobot/strategobot/storage/storagetest"
)

// children are the roles a re-executed test binary can play
// (storagetest.PlayChild); each gets the database's path.
var children = map[string]storagetest.Child{
	"hold":  holdChild,
	"crash": crashTest.Child,
	// migrate-limited opens a database that needs migrating with too
	// little room to write the copy kept first (TestMigrateCopyFails).
	"migrate-limited": migrateLimitedChild,
}

func TestMain(m *testing.M) {
	storagetest.PlayChild(children)
	os.Exit(m.Run())
}
