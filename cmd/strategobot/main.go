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
//	strategobot version          print the version, the source revision and the Go version
//	strategobot help [COMMAND]   list the commands, or describe one
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/strategobot/strategobot/bot"
)

// command is one subcommand: its flags, the arguments it takes after them,
// and what it does.
type command struct {
	summary string
	// flags declares the command's flags, each described, into a new flag
	// set whose -h prints the command's usage, flags and environment to w.
	// Parsing it runs nothing, so a command line can be checked alone.
	flags func(w io.Writer) *flag.FlagSet
	// operands checks the number of arguments after the flags; nil takes none.
	operands func(n int) error
	// interleaved: flags may also come between and after the operands.
	interleaved bool
	run         func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"run": {summary: "run the bot (the default; needs DISCORD_TOKEN)",
			flags: func(w io.Writer) *flag.FlagSet { return configFlags("run", runUsage(), new(string), w) }, run: runBot},
		"check": {summary: "check the token, the intents, a channel's permissions and DMs (-guild, -channel, -user)",
			flags: func(w io.Writer) *flag.FlagSet { return checkFlags(new(checkOptions), w) }, run: runCheck},
		"version": {summary: "print the version, the source revision and the Go version",
			flags: func(w io.Writer) *flag.FlagSet { return subcommandFlags("version", versionUsage, w) }, run: runVersion},
		"replay": {summary: "replay Gravon game records (zip or XML) and report every disagreement",
			flags: func(w io.Writer) *flag.FlagSet { return replayFlags(new(replayConfig), w) }, operands: replayOperands, interleaved: true, run: runReplay},
		"backup": {summary: "copy a stopped bot's database to PATH",
			flags: func(w io.Writer) *flag.FlagSet { return backupFlags(new(backupOptions), w) }, operands: backupOperands, run: runBackup},
		"demo": {summary: "play a random game and write sample pictures into DIR",
			flags: func(w io.Writer) *flag.FlagSet { return demoFlags(new(demoConfig), w) }, run: runDemo},
		"arena": {summary: "play computer players against each other and report the results",
			flags: func(w io.Writer) *flag.FlagSet { return arenaFlags(new(arenaConfig), w) }, run: runArena},
		"compare": {summary: "score arena runs from their records, pair two runs game by game (-battles: where the material went)",
			flags: func(w io.Writer) *flag.FlagSet { return compareFlags(new(bool), w) }, operands: compareOperands, run: runCompare},
		"agent": {summary: "play one game as a program of the UCC Stratego protocol on stdin and stdout",
			flags: func(w io.Writer) *flag.FlagSet { return agentFlags(new(agentConfig), w) }, run: runAgent},
		"loadtest": {summary: "play many matches at once against a local stand-in for Discord and report the bot's speed",
			flags: func(w io.Writer) *flag.FlagSet { return loadtestFlags(new(loadOptions), w) }, run: runLoadtest},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal asks for a clean stop; handing the signals back to
	// Go then lets a second one end the process at once, should a move
	// being answered hold the stop up.
	context.AfterFunc(ctx, stop)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	name, args := nameCommand(args)
	switch name {
	case "help", "-h", "-help", "--help":
		if _, known := cmds[first(args)]; known && name == "help" {
			return dispatch(ctx, []string{args[0], "-h"}, stdout, stderr) // help COMMAND: the command's -h
		}
		usage(stdout, cmds)
		return 0
	case "-version", "--version":
		name = "version"
	}
	cmd, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "strategobot: unknown command %q\n\n", name)
		usage(stderr, cmds)
		return 2
	}
	return cmd.run(ctx, args, stdout, stderr)
}

// nameCommand returns the command the arguments name and the arguments
// left for it. With no command, or flags first, the command is run, so that
// `strategobot -config PATH` runs the bot; -h and -version stay the
// program's own.
func nameCommand(args []string) (string, []string) {
	if len(args) == 0 {
		return "run", nil
	}
	switch args[0] {
	case "-h", "-help", "--help", "-version", "--version":
		return args[0], args[1:]
	}
	if strings.HasPrefix(args[0], "-") {
		return "run", args
	}
	return args[0], args[1:]
}

// first is the first of args, or "".
func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// commandOrder is the order of the commands in the usage: the bot's first,
// then the tools.
var commandOrder = []string{"run", "check", "version", "replay", "backup", "demo", "arena", "compare", "agent", "loadtest"}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: strategobot [command] [arguments]")
	fmt.Fprintln(w, "       strategobot [-config PATH]    (no command: run)")
	fmt.Fprintln(w, "       strategobot -version")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-9s %s\n", name, cmds[name].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The flags of run, the default command:")
	cmds["run"].flags(w).PrintDefaults()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "strategobot COMMAND -h (or strategobot help COMMAND) describes a command's flags and the")
	fmt.Fprintln(w, "environment variables it reads.")
}

// runUsage is run's -h: what it does and the environment it reads.
func runUsage() string {
	return `usage: strategobot [run] [-config PATH]

Runs the bot until SIGINT or SIGTERM, which stop it at once and cleanly; a
move being answered gets up to 30 s to finish, and a second signal ends the
bot without waiting for it.
Exit code: 0 stopped, 1 a failure worth a restart (Discord or the database
unreachable), 2 a bad configuration, 3 Discord refuses the bot for good (a
revoked token, intents not enabled).

Environment:
  DISCORD_TOKEN       the bot's token (required; never read from a file)
  STRATEGOBOT_CONFIG  the configuration file, as -config
  STRATEGOBOT_*       each key of the configuration file, winning over it;
                      config.example.toml describes each key:
` + wrapNames(configEnvNames(), "                      ", 78) + `  GOMAXPROCS          Go's Ps, taken as given; unset, the bot runs one more
                      per computer thinker, so people's moves keep every core

Flags:
`
}

// configFlags declares -config into path: the flag set of run, and the
// start of check's.
func configFlags(name, usage string, path *string, w io.Writer) *flag.FlagSet {
	fs := subcommandFlags(name, usage, w)
	fs.StringVar(path, "config", os.Getenv("STRATEGOBOT_CONFIG"), "configuration file (default: strategobot.toml when it exists; STRATEGOBOT_CONFIG)")
	return fs
}

// runBot starts the Discord bot.
func runBot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var configPath string
	if err := parseFlags(configFlags("run", runUsage(), &configPath, stderr), args); err != nil {
		return usageFailed(stderr, "run", runUsage(), err)
	}
	cfg, err := loadConfig(configPath, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "strategobot:", err)
		return 2
	}
	if cfg.Token == "" {
		fmt.Fprintln(stderr, "strategobot: "+noTokenAdvice("strategobot"))
		return 2
	}
	logger := newLogger(cfg, os.Stderr)
	if err := serve(ctx, cfg, logger); err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			logger.Info("stopped while starting")
			return 0
		}
		logger.Error("strategobot stopped", "error", err)
		if errors.Is(err, bot.ErrRefused) {
			return 3 // a service manager should not restart it unchanged
		}
		return 1
	}
	return 0
}

// noTokenAdvice says what to do when DISCORD_TOKEN is empty, ending with
// the command line to run again.
func noTokenAdvice(commandLine string) string {
	return `DISCORD_TOKEN is not set.
Create an application at https://discord.com/developers/applications, add a bot
to it, copy its token (Bot → Reset Token) and run
    DISCORD_TOKEN=your-token ` + commandLine + `
README.md explains the permissions and intents the bot needs.`
}
