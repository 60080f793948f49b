package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/buildtest"
	"github.com/strategobot/strategobot/internal/cli/clitest"
	"github.com/strategobot/strategobot/internal/pgtest"
)

// TestMain runs the tests, then stops the PostgreSQL server they may have
// started and deletes the binaries they built.
func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	buildtest.Remove()
	os.Exit(code)
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		env    string
		code   int
		stdout string
		stderr string
	}{
		{"help", []string{"help"}, "", 0, "usage: strategobot", ""},
		{"help with a command describes it", []string{"help", "check"}, "", 0, "usage: strategobot check", ""},
		{"help with no such command says so and lists them", []string{"help", "frobnicate"}, "", 2, "",
			"strategobot help: there is no command \"frobnicate\"; these are the commands:\n\nusage: strategobot"},
		{"help -h", []string{"help", "-h"}, "", 0, "Commands:", ""},
		{"unknown command", []string{"frobnicate"}, "", 2, "", `unknown command "frobnicate"`},
		{"no token", nil, "", 2, "", "DISCORD_TOKEN is not set"},
		{"flags without a command run the bot", []string{"-config", "testdata-none.toml"}, "x", 2, "", "config testdata-none.toml: there is no such file"},
		{"flags without a command, no token", []string{"-config", "config_test.go"}, "", 2, "", "config config_test.go"},
		{"no token: the advice keeps the flags typed", []string{"-config", "../../config.example.toml"}, "", 2, "",
			"DISCORD_TOKEN=your-token strategobot -config ../../config.example.toml\n"},
		// -config first, as for run, then the command: the command goes first.
		{"a command after -config", []string{"-config", "/etc/strategobot/strategobot.toml", "check", "-channel", "123"}, "x", 2, "",
			"strategobot: the command comes first, then its flags: strategobot check -config /etc/strategobot/strategobot.toml -channel 123\n"},
		// A mistake after the command is its own to say: the line keeps -config, which names the file it is to read.
		{"a command after -config, with a flag without its value", []string{"-config", "x.toml", "check", "-guild"}, "x", 2, "",
			"strategobot: the command comes first, then its flags: strategobot check -config x.toml -guild\n"},
		{"a command after -config, with a flag it has not", []string{"-config", "x.toml", "check", "-bogus"}, "x", 2, "",
			"strategobot: the command comes first, then its flags: strategobot check -config x.toml -bogus\n"},
		// The "--" that ended -config goes with it: check takes no argument, which it would make of -guild.
		{"a command after -config and --", []string{"-config", "x.toml", "--", "check", "-guild", "1"}, "x", 2, "",
			"strategobot: the command comes first, then its flags: strategobot check -config x.toml -guild 1\n"},
		{"run after -config", []string{"-config", "my bot.toml", "run"}, "x", 2, "",
			"strategobot: the command comes first, then its flags: strategobot run -config 'my bot.toml'\n"},
		{"a command without -config after it", []string{"-config", "bot.toml", "version"}, "x", 2, "",
			"strategobot: the command comes first, then its flags: strategobot version (strategobot version -h describes its flags)\n"},
		{"-h lists the commands and run's flags", []string{"-h"}, "", 0, "-config", ""},
		{"-version", []string{"-version"}, "", 0, "strategobot ", ""},
		{"--version", []string{"--version"}, "", 0, "strategobot ", ""},
		{"version", []string{"version"}, "", 0, "strategobot ", ""},
		{"version takes no argument", []string{"version", "now"}, "", 2, "",
			"strategobot version: unexpected argument \"now\"\nusage: strategobot version    (or strategobot -version)\nstrategobot version -h describes it.\n"},
		{"version takes no flag", []string{"version", "-short"}, "", 2, "",
			"strategobot version: flag provided but not defined: -short\nusage: strategobot version    (or strategobot -version)\nstrategobot version -h describes it.\n"},
		{"run -h", []string{"run", "-h"}, "", 0, "DISCORD_TOKEN", ""},
		{"help run", []string{"help", "run"}, "", 0, "STRATEGOBOT_DATABASE", ""},
		{"replay -h after a file", []string{"replay", "a.xml", "-h"}, "", 0, "usage: strategobot replay", ""},
		{"a bad flag is said once, with the synopsis", []string{"run", "-frob"}, "x", 2, "",
			"strategobot run: flag provided but not defined: -frob\nusage: strategobot [run] [-config PATH]\nstrategobot run -h describes every flag.\n"},
		{"a -token flag says where the token goes", []string{"-token", "abc"}, "x", 2, "",
			"strategobot run: flag provided but not defined: -token: the bot reads its token only from the environment, as DISCORD_TOKEN=your-token\n"},
		{"check's -token flag too", []string{"check", "--token=abc"}, "x", 2, "",
			"strategobot check: flag provided but not defined: -token: the bot reads its token only from the environment, as DISCORD_TOKEN=your-token\n"},
		{"a stray argument", []string{"backup", "-db", "x.db"}, "", 2, "",
			"strategobot backup: name the PATH to copy the database to: a new file, or a folder to put the copy in\nusage: strategobot backup"},
		{"two paths", []string{"backup", "-db", "x.db", "a", "b"}, "", 2, "",
			"strategobot backup: name one PATH to copy the database to, not 2\nusage: strategobot backup"},
		{"the lab is another program", []string{"arena"}, "", 2, "", `unknown command "arena"`},
		{"the load test is another program", []string{"loadtest"}, "", 2, "", `unknown command "loadtest"`},
		{"help points at the other programs", []string{"help"}, "", 0, "strategolab", ""},
		// backup needs no token: a token's variable, however named, is none of its business.
		{"backup beside a token's variable in small letters", []string{"backup", "-config", "../../config.example.toml", "copy.db"}, "", 1, "",
			"strategobot backup: there is no database strategobot.db to copy"},
		// Nor is what DISCORD_TOKEN holds: backup and copydb run whatever it is; run and check refuse what no token is.
		{"backup whatever DISCORD_TOKEN holds", []string{"backup", "-config", "../../config.example.toml", "copy.db"}, "your-token", 1, "",
			"strategobot backup: there is no database strategobot.db to copy"},
		{"copydb whatever DISCORD_TOKEN holds", []string{"copydb", "-config", "../../config.example.toml", "-to", "copy.db"}, "your-token", 1, "",
			"strategobot copydb: there is no database strategobot.db to copy"},
		{"run with the examples' placeholder", []string{"-config", "../../config.example.toml"}, "your-token", 2, "",
			"strategobot: DISCORD_TOKEN holds the placeholder of an example command"},
		{"check with a blank inside the token", []string{"check", "-config", "../../config.example.toml"}, "MTIz.abc def", 2, "",
			"strategobot check: DISCORD_TOKEN holds a line break, a tab or a blank inside the token"},
		{"run beside a token's variable in small letters", []string{"-config", "../../config.example.toml"}, "", 2, "",
			"\ndiscord_token is set, but the bot reads its token only from DISCORD_TOKEN, in capitals: name the variable so.\n"},
		{"a misspelt variable stops the bot", []string{"-config", "../../config.example.toml"}, "x", 2, "",
			"strategobot: STRATEGOBOT_DATABSE is set, but the bot reads no variable of that name: unset it. Did you mean STRATEGOBOT_DATABASE?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISCORD_TOKEN", tc.env) // and back as it was after the test
			if tc.env == "" {
				os.Unsetenv("DISCORD_TOKEN")
			}
			t.Setenv("STRATEGOBOT_CONFIG", "")
			if strings.HasPrefix(tc.name, "a misspelt variable") {
				t.Setenv("STRATEGOBOT_DATABSE", "x.db")
			}
			if strings.Contains(tc.name, "a token's variable in small letters") {
				t.Setenv("discord_token", "MTIz.abc.secret")
			}
			var out, errOut bytes.Buffer
			code := program().Dispatch(context.Background(), tc.args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out.String(), errOut.String(), tc.stdout, tc.stderr)
			}
			if n := strings.Count(out.String()+errOut.String(), "usage:"); n > 1 {
				t.Errorf("the usage printed %d times in stdout %q, stderr %q", n, out.String(), errOut.String())
			}
		})
	}
}

// TestHelpIsWrapped: each command's -h is wrapped as prose is: a line
// followed by more of its paragraph is about as long as the others unless
// it ends a sentence, since one cut short in the middle of a sentence reads
// as the sentence's end.
func TestHelpIsWrapped(t *testing.T) {
	for _, c := range program().Commands {
		var out bytes.Buffer
		program().Dispatch(context.Background(), []string{c.Name, "-h"}, &out, io.Discard)
		lines := strings.Split(out.String(), "\n")
		for i := 0; i+1 < len(lines); i++ {
			line, next := lines[i], lines[i+1]
			prose := func(l string) bool { return l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "usage:") }
			if prose(line) && prose(next) && !strings.HasSuffix(line, ":") && !strings.HasSuffix(line, ".") && utf8.RuneCountInString(line) < 60 {
				t.Errorf("strategobot %s -h: %q is cut short before %q", c.Name, line, next)
			}
		}
	}
}

// TestUsageListsEveryCommand: help names each command once, with its summary.
func TestUsageListsEveryCommand(t *testing.T) {
	clitest.CheckUsage(t, program())
}

// TestCommandHelp runs each command with -h: the usage describes every flag
// and names each environment variable the command reads.
func TestCommandHelp(t *testing.T) {
	clitest.CheckHelp(t, program(), map[string][]string{
		"run":     append(append([]string{"DISCORD_TOKEN", "STRATEGOBOT_CONFIG", "strategobot.toml", "no [tables]", "GOMAXPROCS"}, fileKeys()...), configEnvNames()...),
		"check":   {"DISCORD_TOKEN", "STRATEGOBOT_CONFIG", "STRATEGOBOT_API_BASE_URL", "STRATEGOBOT_THREADS"},
		"version": nil,
		"replay":  nil,
		// backup and copydb read the configuration as run does, and refuse a
		// wrong value of any key: the other variables are named too.
		"backup": {"STRATEGOBOT_CONFIG", "STRATEGOBOT_DATABASE", "The other STRATEGOBOT_* variables are read and checked as run reads them"},
		"copydb": {"STRATEGOBOT_CONFIG", "STRATEGOBOT_DATABASE", "The other STRATEGOBOT_* variables are read and checked as run reads them"},
		"demo":   nil,
	})
}

// TestHelpNamesNoFile: help and the commands' -h say what they mean
// themselves, without sending the admin, who may have the binary alone, to
// the README, docs/ or config.example.toml. demo is the exception: its
// -docs writes the repository's docs/images.
func TestHelpNamesNoFile(t *testing.T) {
	tests := [][]string{{"help"}, {"-h"}, {"run", "-h"}, {"check", "-h"}, {"version", "-h"}, {"replay", "-h"}, {"backup", "-h"}, {"copydb", "-h"}}
	for _, args := range tests {
		var out, errOut bytes.Buffer
		program().Dispatch(context.Background(), args, &out, &errOut)
		for _, file := range []string{"README", "docs/", ".md", "config.example.toml"} {
			if strings.Contains(out.String()+errOut.String(), file) {
				t.Errorf("strategobot %s names %s:\n%s%s", strings.Join(args, " "), file, out.String(), errOut.String())
			}
		}
	}
}

// TestRunUsageKeyTable: the keys run -h lists, read back as a
// configuration file, are the defaults, and each beside its variable.
func TestRunUsageKeyTable(t *testing.T) {
	var out bytes.Buffer
	if code := program().Dispatch(context.Background(), []string{"run", "-h"}, &out, io.Discard); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	var file strings.Builder
	keys := 0
	for _, line := range strings.Split(out.String(), "\n") {
		key, rest, ok := strings.Cut(strings.TrimPrefix(line, "  "), " = ")
		if !ok || !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
			continue
		}
		fields := strings.Fields(rest)
		env := fields[len(fields)-1]
		if want := "STRATEGOBOT_" + strings.ToUpper(key); env != want {
			t.Errorf("%q: %s beside %s, want %s", line, env, key, want)
		}
		file.WriteString(key + " = " + strings.Join(fields[:len(fields)-1], " ") + "\n")
		keys++
	}
	if keys != len(fileKeys()) {
		t.Errorf("run -h lists %d keys, want %d:\n%s", keys, len(fileKeys()), out.String())
	}
	path := filepath.Join(t.TempDir(), "listed.toml")
	if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path, noEnv)
	if err != nil {
		t.Fatalf("the listed keys do not load: %v\n%s", err, file.String())
	}
	if !reflect.DeepEqual(cfg, defaultConfig()) {
		t.Errorf("the listed keys load as\n%+v, want the defaults\n%+v", cfg, defaultConfig())
	}
}

// TestCommandLine: advice repeats a command line as the shell reads it back.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "strategobot"},
		{[]string{"-config", "/etc/strategobot/bot.toml"}, "strategobot -config /etc/strategobot/bot.toml"},
		{[]string{"-config", "my bot.toml"}, "strategobot -config 'my bot.toml'"},
		{[]string{"-config", "it's.toml"}, `strategobot -config 'it'\''s.toml'`},
		{[]string{"-config", ""}, "strategobot -config ''"},
	}
	for _, tc := range tests {
		if got := commandLine("strategobot", tc.args); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.args, got, tc.want)
		}
	}
}

// TestEveryCommandsHelp: each command's -h names its exit codes and the
// environment variables it reads, or says it reads none.
func TestEveryCommandsHelp(t *testing.T) {
	for _, c := range program().Commands {
		t.Run(c.Name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := program().Dispatch(context.Background(), []string{c.Name, "-h"}, &out, &errOut); code != 0 {
				t.Fatalf("exit code %d, stderr %q", code, errOut.String())
			}
			help := out.String()
			if !strings.Contains(help, "Exit code: 0") {
				t.Errorf("%s -h names no exit code:\n%s", c.Name, help)
			}
			if !strings.Contains(help, "Environment") && !strings.Contains(help, "It reads no environment variable.") {
				t.Errorf("%s -h says nothing of the environment:\n%s", c.Name, help)
			}
		})
	}
}

// TestNoTokenAdviceRepeatsHowItRan: the advice for a missing token repeats
// the command as it was run, go run included (the README's first command),
// so that it can be run again as it stands.
func TestNoTokenAdviceRepeatsHowItRan(t *testing.T) {
	tests := []struct {
		arg0, want string
	}{
		{"/tmp/go-build3216549870/b001/exe/strategobot", "go run ./cmd/strategobot"},
		{"/root/.cache/go-build/e3/e372eec2fcb662be-d/strategobot", "go run ./cmd/strategobot"},
		{"/usr/local/bin/strategobot", "strategobot"},
		{"/tmp/go-build3216549870/b001/strategobot.test", "strategobot"},
		{"./strategobot", "strategobot"},
		{"strategobot", "strategobot"},
	}
	for _, tc := range tests {
		if got := self(tc.arg0); got != tc.want {
			t.Errorf("self(%q) = %q, want %q", tc.arg0, got, tc.want)
		}
	}
	if testing.Short() {
		t.Skip("go run builds the bot again")
	}
	for _, args := range [][]string{nil, {"check"}} {
		cmd := exec.Command("go", append([]string{"run", "./cmd/strategobot"}, args...)...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "STRATEGOBOT_CONFIG=")
		out, _ := cmd.CombinedOutput()
		want := "    DISCORD_TOKEN=your-token " + strings.Join(append([]string{"go run ./cmd/strategobot"}, args...), " ") + "\n"
		if !strings.Contains(string(out), want) {
			t.Errorf("go run ./cmd/strategobot %v said\n%s\nwant %q", args, out, want)
		}
	}
}

// TestWithoutTokenMisnamed: with no token in DISCORD_TOKEN, run and check
// say so whole, blank or unset and where a token comes from, and add which
// variable holds what looks like one; a variable of another token or of a
// file's path is not named.
func TestWithoutTokenMisnamed(t *testing.T) {
	tests := []struct {
		name, command string
		env           map[string]string // "" for DISCORD_TOKEN: unset
		want          []string
		notWant       string
	}{
		{"run, blank, beside GitHub's token", "run", map[string]string{"DISCORD_TOKEN": "=", "TOKEN": "ghp_secret"},
			[]string{"strategobot: DISCORD_TOKEN is set, but blank: it holds no token.\n", "Reset Token"}, "\nTOKEN is set"},
		{"run, blank, beside a bot token misnamed", "run", map[string]string{"DISCORD_TOKEN": "=", "TOKEN": "MTIz.abc.secret"},
			[]string{"strategobot: DISCORD_TOKEN is set, but blank: it holds no token.\n", "Reset Token",
				"prints it too).\nTOKEN is set, but the bot reads its token only from DISCORD_TOKEN: name the variable so.\n"}, "secret"},
		{"check, unset, beside a bot token misnamed", "check", map[string]string{"DISCORD_BOT_TOKEN": "MTIz.abc.secret"},
			[]string{"strategobot check: DISCORD_TOKEN is not set.\n", "Reset Token",
				"\nDISCORD_BOT_TOKEN is set, but the bot reads its token only from DISCORD_TOKEN: name the variable so.\n"}, "secret"},
		{"run, unset, beside a file of the token", "run", map[string]string{"DISCORD_TOKEN_FILE": "/run/secrets/token"},
			[]string{"strategobot: DISCORD_TOKEN is not set.\n", "Reset Token"}, "DISCORD_TOKEN_FILE"},
		{"check, unset, beside a webhook's token", "check", map[string]string{"DISCORD_WEBHOOK_TOKEN": "Wc3bSeCretSeCret_-secret"},
			[]string{"strategobot check: DISCORD_TOKEN is not set.\n", "Reset Token"}, "DISCORD_WEBHOOK_TOKEN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISCORD_TOKEN", "") // and back as it was after the test
			os.Unsetenv("DISCORD_TOKEN")
			t.Setenv("STRATEGOBOT_CONFIG", "")
			for k, v := range tc.env {
				if k == "DISCORD_TOKEN" && v == "=" {
					v = "" // set, to nothing
				}
				t.Setenv(k, v)
			}
			var out, errOut bytes.Buffer
			code := program().Dispatch(context.Background(), []string{tc.command}, &out, &errOut)
			got := errOut.String()
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("stderr %q; want %q", got, want)
				}
			}
			if strings.Contains(got, tc.notWant) {
				t.Errorf("stderr %q; want no %q", got, tc.notWant)
			}
		})
	}
}

// TestWithoutToken: run and check with DISCORD_TOKEN unset, or set to
// nothing or nothing but blanks, say which of the two it is and where a token comes
// from, and exit 2 without asking Discord anything; the advice names no
// file the admin may not have.
func TestWithoutToken(t *testing.T) {
	tests := []struct {
		name, command, token, want string
	}{
		{"run, unset", "run", "", "strategobot: DISCORD_TOKEN is not set.\n"},
		{"check, unset", "check", "", "strategobot check: DISCORD_TOKEN is not set.\n"},
		{"run, set to nothing", "run", "=", "strategobot: DISCORD_TOKEN is set, but blank: it holds no token."},
		{"run, a space", "run", " ", "strategobot: DISCORD_TOKEN is set, but blank: it holds no token."},
		{"check, spaces, a tab and a newline", "check", "  \t\n", "strategobot check: DISCORD_TOKEN is set, but blank: it holds no token."},
		{"run, quotes around nothing", "run", `" "`, "DISCORD_TOKEN is set, but blank"},
		{"check, Bot and nothing after it", "check", "Bot ", "DISCORD_TOKEN is set, but blank"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var asked atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
			defer srv.Close()
			t.Setenv("DISCORD_TOKEN", tc.token) // and back as it was after the test
			switch tc.token {
			case "":
				os.Unsetenv("DISCORD_TOKEN")
			case "=": // set, to nothing
				t.Setenv("DISCORD_TOKEN", "")
			}
			t.Setenv("STRATEGOBOT_CONFIG", "")
			t.Setenv("STRATEGOBOT_API_BASE_URL", srv.URL+"/api/v9/")
			var out, errOut bytes.Buffer
			code := program().Dispatch(context.Background(), []string{tc.command}, &out, &errOut)
			got := errOut.String()
			if code != 2 || !strings.Contains(got, tc.want) {
				t.Errorf("exit code %d, stderr %q; want 2 and %q", code, got, tc.want)
			}
			for _, want := range []string{"https://discord.com/developers/applications", "Bot", "Reset Token",
				"DISCORD_TOKEN=your-token " + strings.TrimSuffix("strategobot "+tc.command, " run") + "\n", "invites it"} {
				if !strings.Contains(got, want) {
					t.Errorf("stderr %q; want %q", got, want)
				}
			}
			if strings.Contains(got, "README") || strings.Contains(got, "docs/") {
				t.Errorf("stderr %q names a file the admin may not have", got)
			}
			// check prints the link itself; it logs nothing, and is no other command.
			if tc.command == "check" && (!strings.Contains(got, "check prints the link") || strings.Contains(got, "logs the link") || strings.Contains(got, "prints it too")) {
				t.Errorf("stderr %q: check's advice sends the admin to check, or to a log", got)
			}
			if n := asked.Load(); n != 0 {
				t.Errorf("%d requests to Discord", n)
			}
		})
	}
}

// TestVersionLine reads the build information as a build may carry it:
// released, in development, with or without its revision.
func TestVersionLine(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "strategobot, no build information"},
		{"a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"},
			Settings: vcs("vcs", "git", "vcs.revision", "0123456789abcdef0123", "vcs.time", "2026-11-28T10:00:00Z", "vcs.modified", "false")},
			"strategobot v1.2.0, revision 0123456789ab of 2026-11-28T10:00:00Z, go1.26.8"},
		{"a modified tree", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", "abc", "vcs.modified", "true")},
			"strategobot devel, revision abc (modified), go1.26.8"},
		{"built without version control", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"strategobot devel, revision unknown, go1.26.8"},
		{"nothing known", &debug.BuildInfo{}, "strategobot devel, revision unknown, Go version unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionLine(tc.info); got != tc.want {
				t.Errorf("versionLine = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNameBase: an error of a request sent to a proxy names the proxy, not
// Discord's address, and still wraps the original error.
func TestNameBase(t *testing.T) {
	inner := &url.Error{Op: "Get", URL: discordgo.EndpointGateway, Err: errors.New("connection refused")}
	err := fmt.Errorf("connect to Discord: %w", inner)
	tests := []struct {
		base string
		want string
	}{
		{"http://127.0.0.1:8080/api/v9/", `connect to Discord: Get "http://127.0.0.1:8080/api/v9/gateway": connection refused`},
		{"http://127.0.0.1:8080/api/v9", `connect to Discord: Get "http://127.0.0.1:8080/api/v9/gateway": connection refused`},
		{DiscordAPIBaseURL, `connect to Discord: Get "https://discord.com/api/v9/gateway": connection refused`},
	}
	for _, tc := range tests {
		got := nameBase(err, tc.base)
		if got.Error() != tc.want || !errors.Is(got, inner) {
			t.Errorf("nameBase(…, %q) = %q (wraps the original: %v), want %q", tc.base, got, errors.Is(got, inner), tc.want)
		}
	}
	if nameBase(nil, "http://x/") != nil {
		t.Error("nameBase(nil) is not nil")
	}
}

// TestLogNamesBase: an error in the log, the bot's reconnect warnings
// included, names the configured API base.
func TestLogNamesBase(t *testing.T) {
	cfg := defaultConfig()
	cfg.APIBaseURL = "http://127.0.0.1:8080/api/v9/"
	for _, format := range []string{"text", "json"} {
		cfg.LogFormat = format
		var out bytes.Buffer
		err := &url.Error{Op: "Get", URL: discordgo.EndpointGateway, Err: errors.New("connection refused")}
		newLogger(cfg, &out).Warn("reconnecting to Discord failed; trying again", "error", err)
		if !strings.Contains(out.String(), "http://127.0.0.1:8080/api/v9/gateway") || strings.Contains(out.String(), "discord.com") {
			t.Errorf("%s log %q, want the configured base", format, out.String())
		}
	}
}

// TestLogWithholdsSecrets: an error written from a game's hidden pieces,
// logged by storage or this command as by the bot, keeps only its kind, in
// either format; other errors keep their text.
func TestLogWithholdsSecrets(t *testing.T) {
	cfg := defaultConfig()
	refused := fmt.Errorf("replaying match 4: %w", &game.MoveError{Move: game.Move{From: 0, To: 10}, Reason: "the Flag cannot move"})
	for _, format := range []string{"text", "json"} {
		cfg.LogFormat = format
		var out bytes.Buffer
		log := newLogger(cfg, &out)
		log.Error("replaying failed", "error", refused)
		log.Error("the database is away", "error", errors.New("connection reset"))
		if got := out.String(); strings.Contains(got, "Flag") || !strings.Contains(got, "illegal move") || !strings.Contains(got, "connection reset") {
			t.Errorf("%s log:\n%s", format, got)
		}
	}
}
