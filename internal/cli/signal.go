package cli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Main runs a program's main function with the command line and exits with
// its code. Its context ends at the first SIGINT or SIGTERM, which asks for
// a clean stop; the signals then go back to Go, so that a second one ends
// the process at once, should the stop be held up.
func Main(run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
