// Command strategobot runs the Stratego bot for Discord and its tools.
//
//	strategobot                  run the bot (needs DISCORD_TOKEN)
//	strategobot replay FILES...  replay Gravon game records and report disagreements
//	strategobot check            check the token, intents and a channel's permissions after inviting the bot
//	strategobot backup PATH      copy a stopped bot's database to PATH
//	strategobot demo -out DIR    play a random game and write sample pictures into DIR
//	strategobot arena -a L -b L  play computer players against each other
//	strategobot agent -level L   play one game over the UCC protocol on stdin and stdout
//	strategobot loadtest         play many matches at once against a local Discord and report the figures
//	strategobot help             list the commands
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/strategobot/strategobot/bot"
)

// command is one subcommand: it gets its arguments and the output streams, and returns the exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"run":      {summary: "run the bot (the default; needs DISCORD_TOKEN)", run: runBot},
		"check":    {summary: "check the token, the intents, a channel's permissions and DMs (-guild, -channel, -user)", run: runCheck},
		"replay":   {summary: "replay Gravon game records (zip or XML) and report every disagreement", run: runReplay},
		"backup":   {summary: "copy a stopped bot's database to PATH", run: runBackup},
		"demo":     {summary: "play a random game and write sample pictures into DIR", run: runDemo},
		"arena":    {summary: "play computer players against each other and report the results", run: runArena},
		"compare":  {summary: "score arena runs from their records, pair two runs game by game (-battles: where the material went)", run: runCompare},
		"agent":    {summary: "play one game as a program of the UCC Stratego protocol on stdin and stdout", run: runAgent},
		"loadtest": {summary: "play many matches at once against a local stand-in for Discord and report the bot's speed", run: runLoadtest},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := "run"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	cmds := commands()
	if cmd, ok := cmds[name]; ok {
		return cmd.run(ctx, args, stdout, stderr)
	}
	if name != "help" && name != "-h" && name != "--help" {
		fmt.Fprintf(stderr, "strategobot: unknown command %q\n\n", name)
		usage(stderr, cmds)
		return 2
	}
	usage(stdout, cmds)
	return 0
}

// commandOrder is the order of the commands in the usage: the bot's first,
// then the tools.
var commandOrder = []string{"run", "check", "replay", "backup", "demo", "arena", "compare", "agent", "loadtest"}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: strategobot [command] [arguments]")
	fmt.Fprintln(w)
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-9s %s\n", name, cmds[name].summary)
	}
}

// runBot starts the Discord bot.
func runBot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("strategobot", flag.ContinueOnError)
	flags.SetOutput(stderr)
	configPath := flags.String("config", os.Getenv("STRATEGOBOT_CONFIG"), "configuration file (default: strategobot.toml when it exists)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	cfg, err := loadConfig(*configPath, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "strategobot:", err)
		return 2
	}
	if cfg.Token == "" {
		fmt.Fprintln(stderr, `strategobot: DISCORD_TOKEN is not set.
Create an application at https://discord.com/developers/applications, add a bot
to it, copy its token (Bot → Reset Token) and start the bot with
    DISCORD_TOKEN=your-token strategobot
README.md explains the permissions and intents the bot needs.`)
		return 2
	}
	logger := newLogger(cfg, os.Stderr)
	if err := serve(ctx, cfg, logger); err != nil {
		logger.Error("strategobot stopped", "error", err)
		if errors.Is(err, bot.ErrRefused) {
			return 3 // a service manager should not restart it unchanged
		}
		return 1
	}
	return 0
}
