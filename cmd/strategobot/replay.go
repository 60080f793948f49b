package main

import (
	"context"
	"fmt"
	"io"
)

// runReplay replays Gravon records. Placeholder until the Gravon reader lands.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "strategobot replay: not built yet")
	return 1
}
