package postgres_test

import (
	"os"
	"testing"

	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// children are the roles a re-executed test binary can play
// (storagetest.PlayChild); each gets the database's connection string.
var children = map[string]storagetest.Child{
	"crash": crashTest.Child,
	"hold":  holdChild,
}

func TestMain(m *testing.M) {
	storagetest.PlayChild(children)
	os.Exit(pgtest.Main(m))
}
