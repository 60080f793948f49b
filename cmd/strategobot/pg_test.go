package main

import (
	"os"
	"testing"

	"github.com/strategobot/strategobot/internal/pgtest"
)

// TestMain stops the PostgreSQL server the tests may have started.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
