// Command strategobot runs the Stratego bot for Discord, and the tools of
// the people who run it.
//
//	strategobot                  run the bot (needs DISCORD_TOKEN)
//	strategobot check            check the token, intents and a channel's permissions after inviting the bot
//	strategobot version          print the version, the source revision and the Go version
//	strategobot replay FILES...  replay Gravon game records and report disagreements
//	strategobot backup PATH      copy a stopped bot's database to PATH
//	strategobot copydb -to DB    copy a stopped bot's database into an empty one, bbolt or PostgreSQL
//	strategobot demo -out DIR    play a random game and write sample pictures into DIR
//	strategobot help [COMMAND]   list the commands, or describe one
//
// Two other programs live beside it: strategolab measures the computer
// player, strategoload load-tests the bot.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/internal/cli"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
)

// program is strategobot's command line: the bot first, then the tools.
func program() *cli.Program {
	return &cli.Program{
		Name: "strategobot",
		Synopsis: []string{
			"strategobot [command] [arguments]",
			"strategobot [-config PATH]    (no command: run)",
			"strategobot -version",
		},
		Default: "run",
		Aliases: map[string]string{"-version": "version", "--version": "version"},
		Commands: []cli.Command{
			{Name: "run", Summary: "run the bot (the default; needs DISCORD_TOKEN)",
				Flags: func(w io.Writer) *flag.FlagSet { return configFlags("run", runUsage(), new(string), w) }, Run: runBot},
			{Name: "check", Summary: "check the token, the intents, a channel's permissions and DMs (-guild, -channel, -user)",
				Flags: func(w io.Writer) *flag.FlagSet { return checkFlags(new(checkOptions), w) }, Run: runCheck},
			{Name: "version", Summary: "print the version, the source revision and the Go version",
				Flags: func(w io.Writer) *flag.FlagSet { return cli.NewFlagSet("version", versionUsage, w) }, Run: runVersion},
			{Name: "replay", Summary: "replay Gravon game records (zip or XML) and report every disagreement",
				Flags: func(w io.Writer) *flag.FlagSet { return replayFlags(new(replayConfig), w) }, Operands: replayOperands, Interleaved: true, Run: runReplay},
			{Name: "backup", Summary: "copy a stopped bot's database to PATH",
				Flags: func(w io.Writer) *flag.FlagSet { return backupFlags(new(backupOptions), w) }, Operands: backupOperands, Run: runBackup},
			{Name: "copydb", Summary: "copy a stopped bot's database into an empty one: bbolt to PostgreSQL or back",
				Flags: func(w io.Writer) *flag.FlagSet { return copydbFlags(new(copydbOptions), w) }, Run: runCopydb},
			{Name: "demo", Summary: "play a random game and write sample pictures into DIR",
				Flags: func(w io.Writer) *flag.FlagSet { return demoFlags(new(demoConfig), w) }, Run: runDemo},
		},
		Footer: "Two other programs of this repository: strategolab measures the computer player,\n" +
			"strategoload load-tests the bot; each describes itself with -h.\n",
	}
}

func main() { cli.Main(program().Dispatch) }

// runUsage is run's -h: what it does and the environment it reads.
func runUsage() string {
	return `usage: strategobot [run] [-config PATH]

Runs the bot until SIGINT or SIGTERM, which stop it at once and cleanly: a
move being answered finishes its transaction, a request Discord holds is cut
(a message cut short is sent on the next start), and a second signal ends the
bot without waiting for what is left.
Exit code: 0 stopped, 1 a failure worth a restart (Discord or the database
unreachable), 2 a bad configuration (such as a database file or backup_dir
in a folder that does not exist or that the bot may not write to, a
PostgreSQL database or role the server does not have, a database written
by a newer strategobot, or a web_addr or metrics_addr port another program
holds), 3 Discord refuses the bot for good (a revoked token, its intents
or its command refused).

Environment:
  DISCORD_TOKEN       the bot's token (required; never read from a file)
  STRATEGOBOT_CONFIG  the configuration file, as -config
  STRATEGOBOT_*       each key of the configuration file (below); a
                      variable that is set wins over the file, unless it
                      is set empty
  GOMAXPROCS          how many threads run Go code at once, taken as given;
                      unset, the bot adds one per computer thinker to the
                      cores, so that people's moves keep every core

Configuration file: TOML, named by -config, else ./strategobot.toml when it
exists. Every key is optional and goes at the top of the file (the bot reads
no [tables]). The keys, their defaults and their environment variables:
` + keyTable("  ") + `Durations are written like "30m", "24h" or "7d"; database is a bbolt file
or a postgres:// URL; web_addr and public_url go together, and public_url
is https (http only for localhost, 127.0.0.1 or [::1]).

Flags:
`
}

// configFlags declares -config into path: the flag set of run, and the
// start of check's.
func configFlags(name, usage string, path *string, w io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet(name, usage, w)
	fs.StringVar(path, "config", os.Getenv("STRATEGOBOT_CONFIG"), "configuration file (default: strategobot.toml when it exists; STRATEGOBOT_CONFIG)")
	return fs
}

// runBot starts the Discord bot.
func runBot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var configPath string
	if err := cli.ParseFlags(configFlags("run", runUsage(), &configPath, stdout), args); err != nil {
		return cli.UsageFailed(stderr, "strategobot run", runUsage(), tokenFlag(err))
	}
	cfg, err := loadProcessConfig(configPath)
	if err != nil {
		fmt.Fprintln(stderr, "strategobot:", err)
		return 2
	}
	if cfg.Token == "" {
		fmt.Fprintln(stderr, "strategobot: "+noTokenAdvice(cfg.TokenBlank, commandLine(self(os.Args[0]), args), false, misnamedToken(os.Environ())))
		return 2
	}
	if problem := tokenProblem(cfg.Token); problem != "" {
		fmt.Fprintln(stderr, "strategobot: "+problem)
		return 2
	}
	logger := newLogger(cfg, os.Stderr)
	logLibrariesTo(logger)
	if err := serve(ctx, cfg, logger); err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			logger.Info("stopped while starting")
			return 0
		}
		if advice := tokenShapeAdvice(cfg.Token); advice != "" && bot.TokenRefused(err) {
			err = fmt.Errorf("%w; %s", err, advice)
		}
		logger.Error("strategobot stopped", "error", err)
		if errors.Is(err, bot.ErrRefused) {
			return 3 // a service manager should not restart it unchanged
		}
		if errors.Is(err, bolt.ErrPlace) || errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNewerSchema) ||
			errors.Is(err, postgres.ErrSetup) || errors.Is(err, errConfig) {
			return 2 // the configuration, the folder, the file or the database server's setup must change first
		}
		return 1
	}
	return 0
}

// tokenFlag adds to the error of a -token flag, which no command has,
// where the token goes instead.
func tokenFlag(err error) error {
	if strings.Contains(err.Error(), "not defined: -token") || strings.Contains(err.Error(), "not defined: -discord_token") {
		return fmt.Errorf("%w: the bot reads its token only from the environment, as DISCORD_TOKEN=your-token", err)
	}
	return err
}

// self is how the person ran this program, for advice that says what to
// run again: go run ./cmd/strategobot when go run built it (into a
// go-build folder, a temporary one or the build cache, where go test's
// binaries are NAME.test), else strategobot.
func self(arg0 string) string {
	if strings.Contains(filepath.ToSlash(arg0), "/go-build") && !strings.HasSuffix(arg0, ".test") {
		return "go run ./cmd/strategobot"
	}
	return "strategobot"
}

// commandLine writes a command and its arguments as a shell reads them back,
// for advice that says what to run again.
func commandLine(command string, args []string) string {
	line := command
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`&|;<>()*?[]#~!{}") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		line += " " + a
	}
	return line
}

// tokenShapeAdvice says what DISCORD_TOKEN holds instead of a bot token,
// for a token Discord refused: a bot token is three parts joined by dots,
// and what else the Developer Portal shows an application (its id, its
// Public Key, its Client Secret) has none. "" for a token of that shape.
// The token itself is never quoted.
func tokenShapeAdvice(token string) string {
	if name, rest, ok := strings.Cut(token, "="); ok && rest != "" && variableName.MatchString(name) {
		// No token holds an =: a line of an environment file, or of a
		// guide (DISCORD_TOKEN=…), copied into the value whole.
		return "DISCORD_TOKEN holds " + name + "= before the token: set it to the token alone, as DISCORD_TOKEN=your-token"
	}
	if token == "" || strings.Count(token, ".") == 2 {
		return ""
	}
	switch {
	case isID(token):
		return "DISCORD_TOKEN holds a number, such as the Application ID, not the bot's token, which is three parts joined by dots"
	case len(token) == 64 && strings.Trim(strings.ToLower(token), "0123456789abcdef") == "":
		return "DISCORD_TOKEN looks like the application's Public Key, not the bot's token, which is three parts joined by dots"
	case !strings.Contains(token, "."):
		return "DISCORD_TOKEN has no dots, as the Client Secret of the OAuth2 page has none, but the bot's token is three parts joined by dots"
	}
	return "DISCORD_TOKEN does not look like a bot token, which is three parts joined by dots"
}

// variableName matches the name of an environment variable.
var variableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// isPlaceholder reports whether token is what the examples of the README,
// this program's advice and the systemd unit write in place of the token
// (your-token, …), copied as it stands.
func isPlaceholder(token string) bool {
	t := strings.ReplaceAll(strings.ToLower(strings.Trim(token, "<>")), "_", "-")
	return slices.Contains([]string{"your-token", "your-bot-token", "token", "…", "..."}, t)
}

// noTokenAdvice says what to do when DISCORD_TOKEN holds no token, unset
// or blank, with the command line to run again, and ends with misnamed,
// misnamedToken's hint, when there is one. It says it all: the admin may
// have the binary alone, without the README.
func noTokenAdvice(blank bool, commandLine string, check bool, misnamed string) string {
	problem := "DISCORD_TOKEN is not set."
	if blank {
		problem = "DISCORD_TOKEN is set, but blank: it holds no token."
	}
	invite := `Once connected, it logs the link that
invites it to a server with the permissions it needs (strategobot check
prints it too).`
	if check {
		invite = `Once connected, check prints the link
that invites it to a server with the permissions it needs.`
	}
	hint := ""
	if misnamed != "" {
		hint = "\n" + misnamed + "."
	}
	return problem + `
Put the bot's token in it: at https://discord.com/developers/applications
create an application (or open yours), and under Bot choose Reset Token and
copy the token. Then run
    DISCORD_TOKEN=your-token ` + commandLine + `
The bot needs no privileged intents. ` + invite + hint
}
