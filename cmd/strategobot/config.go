package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/bwmarrin/discordgo"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/internal/logsafe"
	"github.com/strategobot/strategobot/storage/postgres"
)

// config is everything the bot reads at start. Every field has a working
// default, so DISCORD_TOKEN alone runs the bot. config.example.toml documents
// each key; env names the environment variable that overrides it.
type config struct {
	Token           string   `toml:"-" env:"DISCORD_TOKEN"`
	TokenBlank      bool     `toml:"-"` // DISCORD_TOKEN is set, but holds no token: only spaces, quotes or "Bot "
	Database        string   `toml:"database" env:"STRATEGOBOT_DATABASE"`
	APIBaseURL      string   `toml:"api_base_url" env:"STRATEGOBOT_API_BASE_URL"`
	GuildID         string   `toml:"guild_id" env:"STRATEGOBOT_GUILD_ID"`
	Threads         bool     `toml:"threads" env:"STRATEGOBOT_THREADS"`
	DefaultMoveTime duration `toml:"default_move_time" env:"STRATEGOBOT_DEFAULT_MOVE_TIME"`
	ChallengeExpiry duration `toml:"challenge_expiry" env:"STRATEGOBOT_CHALLENGE_EXPIRY"`
	OpenChallenges  int      `toml:"max_open_challenges" env:"STRATEGOBOT_MAX_OPEN_CHALLENGES"`
	PracticeMatches int      `toml:"max_practice_matches" env:"STRATEGOBOT_MAX_PRACTICE_MATCHES"`
	Thinkers        int      `toml:"computer_thinkers" env:"STRATEGOBOT_COMPUTER_THINKERS"`
	BackupDir       string   `toml:"backup_dir" env:"STRATEGOBOT_BACKUP_DIR"`
	BackupEvery     duration `toml:"backup_every" env:"STRATEGOBOT_BACKUP_EVERY"`
	BackupKeep      int      `toml:"backup_keep" env:"STRATEGOBOT_BACKUP_KEEP"`
	WebAddr         string   `toml:"web_addr" env:"STRATEGOBOT_WEB_ADDR"`
	PublicURL       string   `toml:"public_url" env:"STRATEGOBOT_PUBLIC_URL"`
	MetricsAddr     string   `toml:"metrics_addr" env:"STRATEGOBOT_METRICS_ADDR"`
	Profiling       bool     `toml:"profiling" env:"STRATEGOBOT_PROFILING"`
	ShardID         int      `toml:"shard_id" env:"STRATEGOBOT_SHARD_ID"`
	ShardCount      int      `toml:"shard_count" env:"STRATEGOBOT_SHARD_COUNT"`
	LogLevel        string   `toml:"log_level" env:"STRATEGOBOT_LOG_LEVEL"`
	LogFormat       string   `toml:"log_format" env:"STRATEGOBOT_LOG_FORMAT"`
}

// defaultConfigFile is read when it exists and no other file is named.
const defaultConfigFile = "strategobot.toml"

// DiscordAPIBaseURL is Discord's own REST base, the default of api_base_url.
const DiscordAPIBaseURL = "https://discord.com/api/v9/"

func defaultConfig() config {
	return config{
		Database:        "strategobot.db",
		APIBaseURL:      DiscordAPIBaseURL,
		DefaultMoveTime: duration(24 * time.Hour),
		ChallengeExpiry: duration(24 * time.Hour),
		OpenChallenges:  bot.DefaultOpenChallenges,
		PracticeMatches: bot.DefaultPracticeMatches,
		ShardCount:      1,
		BackupEvery:     duration(6 * time.Hour),
		BackupKeep:      7,
		LogLevel:        "info",
		LogFormat:       "text",
	}
}

// duration is a time.Duration written as "24h", "90m" or "7d" in files and the environment.
type duration time.Duration

func (d *duration) UnmarshalText(b []byte) error {
	v, err := parseDuration(string(b))
	if err != nil {
		return err
	}
	*d = duration(v)
	return nil
}

func (d duration) String() string { return time.Duration(d).String() }

// parseDuration reads Go durations and also whole days ("7d").
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err == nil && n >= 0 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if _, number := strconv.ParseFloat(s, 64); err != nil && number == nil {
		// A bare number, as TOML writes one: no quotes to show, a unit to add.
		return 0, fmt.Errorf("%s has no unit: write it like 30m, 24h or 7d", s)
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: write it like 30m, 24h or 7d", s)
	}
	return d, nil
}

// loadProcessConfig is loadConfig of this process's environment, which
// must not set a STRATEGOBOT_ variable the bot does not read. A
// DISCORD_TOKEN set to nothing (DISCORD_TOKEN= in an environment file) is
// a blank token, not a missing one.
func loadProcessConfig(path string) (config, error) {
	if err := unknownEnv(os.Environ()); err != nil {
		return config{}, err
	}
	cfg, err := loadConfig(path, os.Getenv)
	if _, set := os.LookupEnv("DISCORD_TOKEN"); set && cfg.Token == "" {
		cfg.TokenBlank = true
	}
	return cfg, err
}

// unknownEnv refuses a STRATEGOBOT_ variable of environ that is no
// setting, as unknownKeys refuses such a key of the file: a misspelt
// name would otherwise leave its setting at the default unnoticed. The
// tests' own STRATEGOBOT_TEST_ variables are not the bot's business.
func unknownEnv(environ []string) error {
	known := append(configEnvNames(), "STRATEGOBOT_CONFIG")
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		// Names are read as written: strategobot_database is not
		// STRATEGOBOT_DATABASE.
		upper := strings.ToUpper(name)
		if !strings.HasPrefix(upper, "STRATEGOBOT_") || strings.HasPrefix(upper, "STRATEGOBOT_TEST_") || slices.Contains(known, name) {
			continue
		}
		if name != upper && slices.Contains(known, upper) {
			return fmt.Errorf("%s is set, but the bot reads no variable of that name: names are in capitals, %s. (strategobot run -h lists them.)", name, upper)
		}
		hint := ""
		if k := nearest(upper, known); k != "" {
			hint = " Did you mean " + k + "?"
		} else if strings.Contains(upper, "TOKEN") {
			hint = " The token goes in DISCORD_TOKEN."
		}
		return fmt.Errorf("%s is set, but the bot reads no variable of that name: unset it.%s (strategobot run -h lists them.)", name, hint)
	}
	return nil
}

// misnamedToken says which variable of environ was meant to hold the
// token, when DISCORD_TOKEN holds none: one that holds what looks like a
// bot token, named discord_token (names are read as written) or as other
// programs name a Discord token's variable, such as DISCORD_BOT_TOKEN or
// BOT_TOKEN; "" when there is none. A token of another kind (a webhook's,
// GitHub's) is not taken for one, nor a _FILE variable, which holds a
// path. The commands that need the token add it to their advice
// (noTokenAdvice); backup and copydb, which need none, do not ask. The
// value is never quoted.
func misnamedToken(environ []string) string {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if token := cleanToken(value); token == "" || tokenShapeAdvice(token) != "" || tokenProblem(token) != "" || strings.HasSuffix(upper, "_FILE") {
			continue
		}
		switch {
		case name == "DISCORD_TOKEN" || strings.HasPrefix(upper, "STRATEGOBOT_"): // STRATEGOBOT_TOKEN: unknownEnv's
		case upper == "DISCORD_TOKEN":
			return name + " is set, but the bot reads its token only from DISCORD_TOKEN, in capitals: name the variable so"
		case strings.Contains(upper, "TOKEN") && strings.Contains(upper, "DISCORD"), upper == "BOT_TOKEN", upper == "TOKEN":
			return name + " is set, but the bot reads its token only from DISCORD_TOKEN: name the variable so"
		}
	}
	return ""
}

// tokenProblem says why token, DISCORD_TOKEN as cleanToken leaves it, is
// no bot token by its characters alone, before Discord is asked; "" when
// it may be one. The commands that send the token ask (run and check);
// backup and copydb, which read none, run whatever DISCORD_TOKEN holds.
// The token is never quoted.
func tokenProblem(token string) string {
	switch {
	case strings.ContainsFunc(token, unicode.IsSpace):
		// HTTP refuses a header with a line break, before any request: the
		// bot would take Discord for unreachable.
		return "DISCORD_TOKEN holds a line break, a tab or a blank inside the token, which is one word: copy it again, on one line, " +
			"from your application → Bot → Reset Token at https://discord.com/developers/applications"
	case strings.ContainsFunc(token, unicode.IsControl):
		// As a line break: HTTP refuses the header before any request.
		return "DISCORD_TOKEN holds a control character (such as a terminal's escape, pasted with it) inside the token: copy it again, " +
			"from your application → Bot → Reset Token at https://discord.com/developers/applications"
	case isPlaceholder(token):
		// The README's first command copied as it stands: no token has
		// that shape, and Discord would refuse it as mistyped.
		return "DISCORD_TOKEN holds the placeholder of an example command, not the bot's token: put the token in its place, " +
			"from your application → Bot → Reset Token at https://discord.com/developers/applications"
	case strings.ContainsFunc(token, func(r rune) bool { return r > unicode.MaxASCII }):
		// A token is letters, digits, - _ and dots: Discord would refuse
		// it as mistyped, and say no more.
		return "DISCORD_TOKEN holds a character no token has (such as a curly quote or an ellipsis, which a copy through a document or a chat brings): " +
			"copy it again, from your application → Bot → Reset Token at https://discord.com/developers/applications"
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// loadConfig reads the defaults, then the file (path, or strategobot.toml when
// path is empty and that file exists), then the environment.
func loadConfig(path string, getenv func(string) string) (config, error) {
	cfg := defaultConfig()
	file, explicit := path, path != ""
	if !explicit {
		file = defaultConfigFile
	}
	from := origins{file: file, env: map[string]string{}}
	md, err := toml.DecodeFile(file, &cfg)
	switch {
	case err == nil:
		if err := unknownKeys(file, md); err != nil {
			return cfg, err
		}
		from.lines = keyLines(file, md)
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		// No file is fine: the defaults and the environment are enough.
	case errors.Is(err, fs.ErrNotExist) && shellPath("config file", file, " (from -config or STRATEGOBOT_CONFIG)") != "":
		return cfg, errors.New("config: " + shellPath("config file", file, " (from -config or STRATEGOBOT_CONFIG)"))
	case errors.Is(err, fs.ErrNotExist):
		return cfg, fmt.Errorf("config %s: there is no such file: create it with a key per line, such as database = \"strategobot.db\" "+
			"(strategobot run -h lists the keys), or name no file (neither -config nor STRATEGOBOT_CONFIG) to read ./%s when it exists, else the defaults",
			file, defaultConfigFile)
	case errors.Is(err, fs.ErrPermission):
		return cfg, fmt.Errorf("config %s: this user may not read it: make the user the bot runs as its owner (chmod 600 keeps it from others)", file)
	case errors.Is(err, syscall.EISDIR):
		return cfg, fmt.Errorf("config %s is a folder: name the configuration file, such as %s", file, filepath.Join(file, defaultConfigFile))
	default:
		if line, ok := tokenLine(file, err); ok {
			return cfg, fmt.Errorf("config %s: line %d holds a token, but the bot reads its token only from DISCORD_TOKEN, never from a file: remove that line from %s and set DISCORD_TOKEN", file, line, file)
		}
		return cfg, fmt.Errorf("config %s: %w", file, explainTOML(file, err))
	}
	if err := applyEnv(&cfg, getenv, from.env); err != nil {
		return cfg, err
	}
	raw := cfg.Token
	cfg.Token = cleanToken(raw)
	cfg.TokenBlank = raw != "" && cfg.Token == ""
	return cfg, cfg.validate(from)
}

// origins says where the values of the keys came from, for the messages
// about them: the configuration file's lines, or the environment.
type origins struct {
	file  string
	lines map[string]int    // the keys the file sets, and their lines (0: unknown)
	env   map[string]string // the keys the environment sets, and their variables
}

// of says where key's value came from, as " (from FILE line N)" or
// " (from VARIABLE)", which also names the file's line it wins over; "" for
// a default.
func (o origins) of(key string) string {
	inFile := ""
	if n, ok := o.lines[key]; ok {
		inFile = o.file
		if n > 0 {
			inFile = fmt.Sprintf("%s line %d", o.file, n)
		}
	}
	switch variable := o.env[key]; {
	case variable != "" && inFile != "":
		return fmt.Sprintf(" (from %s, which wins over %s)", variable, inFile)
	case variable != "":
		return " (from " + variable + ")"
	case inFile != "":
		return " (from " + inFile + ")"
	}
	return ""
}

// keyLines are the keys file sets (md), each with the line that sets it:
// the first line that starts with the key, bare or quoted, and "=", which
// is it, as the bot reads no tables and a key is set once (0 when no such
// line is found).
func keyLines(file string, md toml.MetaData) map[string]int {
	text, _ := os.ReadFile(file)
	lines := strings.Split(string(text), "\n")
	found := map[string]int{}
	for _, key := range fileKeys() {
		if !md.IsDefined(key) {
			continue
		}
		found[key] = 0
		if at := linesSetting(lines, key); len(at) > 0 {
			found[key] = at[0]
		}
	}
	return found
}

// linesSetting are the numbers of the lines that start with key, bare or
// quoted, and "=".
func linesSetting(lines []string, key string) []int {
	k := regexp.QuoteMeta(key)
	at := regexp.MustCompile(`^\s*(` + k + `|"` + k + `"|'` + k + `')\s*=`)
	var found []int
	for n, line := range lines {
		if at.MatchString(line) {
			found = append(found, n+1)
		}
	}
	return found
}

// definedTOML matches the decoder's error about a key set again.
var definedTOML = regexp.MustCompile(`^Key '([^']+)' has already been defined\.?$`)

// tableDefinedTOML matches the decoder's error about a table set again.
var tableDefinedTOML = regexp.MustCompile(`^line (\d+): Key '([^']+)' has already been defined\.?$`)

// setTwice words the decoder's error about key, set again on line: which
// lines set it, and to keep one.
func setTwice(file, line, key string) error {
	text, _ := os.ReadFile(file)
	at := linesSetting(strings.Split(string(text), "\n"), key)
	if len(at) < 2 {
		return fmt.Errorf("line %s: %s is set a second time: keep one", line, key)
	}
	times := "twice"
	if len(at) > 2 {
		times = fmt.Sprintf("%d times", len(at))
	}
	nums := make([]string, len(at))
	for i, n := range at {
		nums[i] = strconv.Itoa(n)
	}
	return fmt.Errorf("%s is set %s (lines %s): keep one", key, times, list(nums))
}

// lineTOML matches the line number of any decoder error.
var lineTOML = regexp.MustCompile(`^toml: line (\d+)`)

// tokenLine is the line of file that the decoder refused, when that line
// names a token (DISCORD_TOKEN=… copied from an environment file, say):
// the decoder's error would quote the start of the token.
func tokenLine(file string, err error) (int, bool) {
	m := lineTOML.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	text, rerr := os.ReadFile(file)
	if rerr != nil {
		return 0, false
	}
	lines := strings.Split(string(text), "\n")
	if n < 1 || n > len(lines) {
		return 0, false
	}
	line, _, _ := strings.Cut(lines[n-1], "#")
	return n, isTokenKey(line)
}

// isTokenKey reports whether a key (or a line) names a token: token,
// discord_token, DISCORD_TOKEN and the like.
func isTokenKey(key string) bool {
	return strings.Contains(strings.ToLower(key), "token")
}

// foundTOML matches the decoder's quote of a value it could not read, which
// may be the start of a secret.
var foundTOML = regexp.MustCompile(`expected value but found "[^"]*" instead`)

// keyTOML matches the decoder's error about one key's value: a value of the
// wrong kind ("incompatible types: …") or one the key's type refuses (a
// duration's own error).
var keyTOML = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]+)"\): (.*)$`)

// explainTOML says which kind of value a key takes when the file gives it
// another (such as threads = "yes"), instead of the decoder's Go types, and
// which lines set a key set twice, and words the decoder's other errors as
// the bot's own: "line N: key: …" and no "toml:" prefix, which names a
// library the reader need not know.
func explainTOML(file string, err error) error {
	if l := lineTOML.FindStringSubmatch(err.Error()); l != nil {
		// A known key's value written bare, such as 24h or 127.0.0.1:8080,
		// which the decoder stops inside: what the key takes says more than
		// where the decoder's reading broke off.
		if key, ok := bareValue(file, l[1]); ok {
			return fmt.Errorf("line %s: %s is %s", l[1], key, takes(key, ""))
		}
	}
	// The decoder's errors are text only: toml: line N (last key "K"): incompatible types: ….
	m := keyTOML.FindStringSubmatch(err.Error())
	if m == nil {
		if rest, ok := strings.CutPrefix(err.Error(), "toml: "); ok {
			if d := tableDefinedTOML.FindStringSubmatch(rest); d != nil {
				return setTwice(file, d[1], d[2]) // a [table] set twice
			}
			return errors.New(rest)
		}
		return err
	}
	line, key := m[1], m[2]
	if d := definedTOML.FindStringSubmatch(m[3]); d != nil {
		return setTwice(file, line, d[1])
	}
	if !slices.Contains(fileKeys(), key) {
		// The decoder read Threads as threads, and found it of another kind.
		for _, k := range fileKeys() {
			if strings.EqualFold(key, k) {
				return fmt.Errorf("line %s: unknown key %s: keys are written in lower case: %s", line, key, k)
			}
		}
	}
	if !strings.HasPrefix(m[3], "incompatible types") && !foundTOML.MatchString(m[3]) {
		return fmt.Errorf("line %s: %s: %s", line, key, m[3])
	}
	// Quotes are worth naming only when the value had them.
	unquote := ""
	if strings.Contains(m[3], "TOML value has type string") {
		unquote = ", without quotes"
	}
	if want := takes(key, unquote); want != "" {
		return fmt.Errorf("line %s: %s is %s", line, key, want)
	}
	// An unknown key with a value that does not parse: what it was is not
	// worth quoting.
	return fmt.Errorf("line %s: %s: %s", line, key, foundTOML.ReplaceAllString(m[3], "expected a value, such as \"text in quotes\", a number or true"))
}

// takes says which kind of value key takes, with unquote after a kind
// written without quotes; "" for a key the file has not.
func takes(key, unquote string) string {
	t := reflect.TypeFor[config]()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("toml") != key {
			continue
		}
		switch t.Field(i).Type {
		case reflect.TypeFor[bool]():
			return "true or false" + unquote
		case reflect.TypeFor[int]():
			return "a whole number" + unquote
		case reflect.TypeFor[duration]():
			return `a duration in quotes, like "24h"`
		default:
			return `text in quotes, like ` + key + ` = "…"`
		}
	}
	return ""
}

// setsKey matches a line that sets a key, bare or quoted, and what follows
// its "=".
var setsKey = regexp.MustCompile(`^\s*(?:([A-Za-z0-9_-]+)|"([A-Za-z0-9_-]+)"|'([A-Za-z0-9_-]+)')\s*=\s*(.*)$`)

// bareValue is the key that line (a number, from 1) of file sets, when it
// is one of the file's keys and its value is written without quotes and
// is no TOML value at all, such as 24h or /var/backups: the decoder's
// error about that line says only where its reading broke off.
func bareValue(file, line string) (string, bool) {
	n, _ := strconv.Atoi(line)
	text, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	lines := strings.Split(string(text), "\n")
	if n < 1 || n > len(lines) {
		return "", false
	}
	m := setsKey.FindStringSubmatch(strings.TrimSuffix(lines[n-1], "\r"))
	if m == nil {
		return "", false
	}
	key := m[1] + m[2] + m[3]
	value, _, _ := strings.Cut(m[4], "#")
	value = strings.TrimSpace(value)
	if !slices.Contains(fileKeys(), key) || value == "" || strings.ContainsAny(value[:1], `"'`) {
		return "", false
	}
	var v map[string]any
	if _, err := toml.Decode("v = "+value, &v); err == nil {
		return "", false // a value of another kind: the decoder's error names the key
	}
	return key, true
}

// cleanToken is the token as Discord issued it: without the spaces, quotes
// and "Bot " prefix a copy from the Developer Portal or a guide may bring
// along (the bot adds the prefix itself), quotes around the prefix and the
// token or around the token after it ("Bot <token>" filled in). The prefix
// is taken in any case and before any blank (bot, BOT, a tab, a no-break
// space): no token holds a blank, so a word before one is no part of it.
func cleanToken(token string) string {
	token = unquoteToken(token)
	if len(token) < 3 || !strings.EqualFold(token[:3], "bot") {
		return token
	}
	if rest := token[3:]; rest == "" {
		return "" // the prefix with nothing after it
	} else if r, _ := utf8.DecodeRuneInString(rest); unicode.IsSpace(r) {
		return unquoteToken(rest)
	}
	return token
}

// unquoteToken is s without the spaces around it, and the quotes, double or
// single, around it with the spaces inside them.
func unquoteToken(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// unknownKeys refuses the keys and tables of a file the bot does not read.
// The bot reads no table: its keys are all at the top of the file, so even
// an empty [table] is refused, which would else hide a key put under it by
// mistake. A token in the file, at the top or in a table, gets its own
// advice: the token is kept out of files on purpose.
func unknownKeys(file string, md toml.MetaData) error {
	// The decoder takes a key in any case for the field it names (Database
	// for database), as TOML, whose keys are case-sensitive, does not: a
	// second spelling of a key would replace the first unsaid, and the
	// messages about its value could not find its line.
	for _, k := range md.Keys() {
		if len(k) != 1 || slices.Contains(fileKeys(), k[0]) {
			continue
		}
		for _, key := range fileKeys() {
			if strings.EqualFold(k[0], key) {
				return fmt.Errorf("config %s: unknown key %s: keys are written in lower case: %s", file, k, key)
			}
		}
	}
	undecoded := md.Undecoded()
	if len(undecoded) == 0 {
		return nil
	}
	for _, k := range undecoded {
		if isTokenKey(k[len(k)-1]) {
			return fmt.Errorf("config %s: the bot reads its token only from DISCORD_TOKEN, never from a file: remove %s from %s and set DISCORD_TOKEN", file, k, file)
		}
	}
	// A known key in a table: the table hides it.
	for _, k := range undecoded {
		if len(k) < 2 {
			continue
		}
		table, key := strings.Join(k[:len(k)-1], "."), k[len(k)-1]
		if slices.Contains(fileKeys(), key) {
			if !opensTable(file, k[:len(k)-1]) {
				return fmt.Errorf("config %s: unknown key %s: the bot's keys have no dots; did you mean %s?", file, k, key)
			}
			return fmt.Errorf("config %s: %s is in a table [%s], where the bot does not look: move it above the file's first [table] line", file, key, table)
		}
	}
	// A table, empty or not: k itself, or the table that holds it.
	for _, k := range undecoded {
		table := k
		if typ := md.Type(k...); typ != "Hash" && typ != "ArrayHash" {
			table = k[:len(k)-1]
		}
		if len(table) == 0 {
			continue
		}
		if !opensTable(file, table) {
			// No [table] line: a dotted key, such as web.addr, made the table.
			dotted := k
			for _, leaf := range undecoded {
				if typ := md.Type(leaf...); typ != "Hash" && typ != "ArrayHash" && len(leaf) > len(table) && slices.Equal(leaf[:len(table)], table) {
					dotted = leaf
					break
				}
			}
			if want := strings.ReplaceAll(dotted.String(), ".", "_"); slices.Contains(fileKeys(), want) {
				return fmt.Errorf("config %s: unknown key %s: the bot's keys have no dots; did you mean %s?", file, dotted, want)
			}
			return fmt.Errorf("config %s: unknown key %s: the bot's keys have no dots. The keys are: %s", file, dotted, strings.Join(fileKeys(), ", "))
		}
		instead := ""
		if prefixed := keysStartingWith(table[0] + "_"); len(prefixed) > 0 {
			instead = " (in place of [" + table.String() + "]: " + strings.Join(prefixed, ", ") + ")"
		}
		return fmt.Errorf("config %s: unknown table [%s]: the bot reads no tables: remove [%s] and write the bot's keys at the top of the file, above any [table] line%s. The keys are: %s",
			file, table, table, instead, strings.Join(fileKeys(), ", "))
	}
	keys := make([]string, len(undecoded))
	for i, k := range undecoded {
		keys[i] = k.String()
	}
	if k := nearest(keys[0], fileKeys()); k != "" {
		return fmt.Errorf("config %s: unknown key %s; did you mean %s?", file, strings.Join(keys, ", "), k)
	}
	return fmt.Errorf("config %s: unknown key %s. The keys are: %s", file, strings.Join(keys, ", "), strings.Join(fileKeys(), ", "))
}

// opensTable reports whether file has a [table] or [[table]] line for
// table or a table within it, rather than dotted keys alone (web.addr = …).
func opensTable(file string, table toml.Key) bool {
	text, _ := os.ReadFile(file)
	for _, line := range strings.Split(string(text), "\n") {
		line, _, _ = strings.Cut(line, "#")
		header, ok := strings.CutPrefix(strings.TrimSpace(line), "[")
		if !ok {
			continue
		}
		header = strings.Trim(header, "[] \t")
		parts := strings.Split(header, ".")
		if len(parts) < len(table) {
			continue
		}
		same := true
		for i, name := range table {
			if strings.Trim(strings.TrimSpace(parts[i]), `"'`) != name {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

// keysStartingWith are the keys of the file that start with prefix.
func keysStartingWith(prefix string) []string {
	var keys []string
	for _, k := range fileKeys() {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	return keys
}

// fileKeys are the keys of the configuration file, in the order of the file.
func fileKeys() []string {
	var keys []string
	t := reflect.TypeFor[config]()
	for i := range t.NumField() {
		if key := t.Field(i).Tag.Get("toml"); key != "-" {
			keys = append(keys, key)
		}
	}
	return keys
}

// nearest is the name of names within two edits of name, or "".
func nearest(name string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// configEnvNames are the environment variables that override the file's
// keys, in the order of the file.
func configEnvNames() []string {
	var names []string
	t := reflect.TypeFor[config]()
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("env"); name != "" && t.Field(i).Tag.Get("toml") != "-" {
			names = append(names, name)
		}
	}
	return names
}

// keyTable lists the keys of the configuration file, one a line after
// indent, each as it is written with its default, beside the environment
// variable that overrides it.
func keyTable(indent string) string {
	v := reflect.ValueOf(defaultConfig())
	t := v.Type()
	var lines [][2]string
	width := 0
	for i := range t.NumField() {
		key := t.Field(i).Tag.Get("toml")
		if key == "-" {
			continue
		}
		var value string
		switch f := v.Field(i).Interface().(type) {
		case string:
			value = strconv.Quote(f)
		case duration:
			value = strconv.Quote(formatDuration(time.Duration(f)))
		default:
			value = fmt.Sprint(f)
		}
		line := key + " = " + value
		width = max(width, len(line))
		lines = append(lines, [2]string{line, t.Field(i).Tag.Get("env")})
	}
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%s%-*s  %s\n", indent, width, l[0], l[1])
	}
	return b.String()
}

// formatDuration writes d as a person would in the file: "24h", "90m", "8d".
func formatDuration(d time.Duration) string {
	switch {
	case d > 24*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// applyEnv overrides fields from the environment variables named in their
// env tags, and records in set the file's key of each variable it read.
func applyEnv(cfg *config, getenv func(string) string, set map[string]string) error {
	v := reflect.ValueOf(cfg).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Tag.Get("env")
		raw := getenv(name)
		if name == "" || raw == "" {
			continue
		}
		if key := t.Field(i).Tag.Get("toml"); key != "-" {
			set[key] = name
		}
		f := v.Field(i)
		switch p := f.Addr().Interface().(type) {
		case *string:
			*p = raw
		case *bool:
			b, err := strconv.ParseBool(raw)
			if err != nil {
				return fmt.Errorf("%s=%q: use true or false", name, raw)
			}
			*p = b
		case *int:
			n, err := strconv.Atoi(raw)
			if err != nil {
				return fmt.Errorf("%s=%q: use a whole number", name, raw)
			}
			*p = n
		case *duration:
			if err := p.UnmarshalText([]byte(raw)); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return nil
}

// validate refuses values the bot cannot run with, each named with where
// it came from (from).
func (c config) validate(from origins) error {
	var problems []string
	switch {
	case strings.TrimSpace(c.Database) == "":
		problems = append(problems, "database"+from.of("database")+" must name a bbolt file or a postgres:// URL")
	case !postgres.IsURL(c.Database) && keywordValue.MatchString(c.Database) && !exists(c.Database):
		// Not quoted: it may hold a password. (A file of that name holds
		// the data of a bot that ran with it before: it is the database.)
		problems = append(problems, "database"+from.of("database")+" looks like a PostgreSQL connection string of keywords (host=… user=…), which the bot does not read: write it as a URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE")
	case !postgres.IsURL(c.Database) && shellPath("database", c.Database, from.of("database")) != "":
		problems = append(problems, shellPath("database", c.Database, from.of("database")))
	case c.Database != strings.TrimSpace(c.Database) && !exists(c.Database):
		// A file of that name holds the data of a bot that ran with it
		// before blanks were refused: it is still the database.
		// Quoted as logs show it: a postgres:// URL without its passwords.
		trimmed := strings.TrimSpace(c.Database)
		shown := strings.Replace(c.Database, trimmed, databaseName(trimmed), 1)
		problems = append(problems, fmt.Sprintf("database %q%s begins or ends with a blank: remove it", shown, from.of("database")))
	case postgres.IsURL(c.Database) && c.BackupDir != "":
		problems = append(problems, "backup_dir makes copies of a bbolt file; back up PostgreSQL with pg_dump instead (pg_dump --format=custom --file=strategobot.dump DATABASE_URL) and leave backup_dir empty")
	case postgres.IsURL(c.Database):
		var file *fs.PathError
		_, err := pgxpool.ParseConfig(c.Database)
		switch {
		case errors.As(err, &file):
			// A certificate or key the URL names (sslrootcert, sslcert, sslkey).
			problems = append(problems, fmt.Sprintf("database %s%s names a file the bot cannot read (%v): fix the path or let the bot's user read it", databaseName(c.Database), from.of("database"), file))
		case err != nil:
			// pgx's reason may quote the string, password and all.
			problems = append(problems, fmt.Sprintf("database %s%s is not a valid PostgreSQL connection string: write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE", databaseName(c.Database), from.of("database")))
		}
	}
	if why := shellPath("backup_dir", c.BackupDir, from.of("backup_dir")); why != "" {
		problems = append(problems, why)
	}
	if c.GuildID != "" && !isID(c.GuildID) {
		problems = append(problems, fmt.Sprintf("guild_id %q%s must be a server's id, a number such as 123456789012345678 (in Discord, Developer Mode, then right-click the server → Copy Server ID), or empty to register the command in every server", c.GuildID, from.of("guild_id")))
	}
	if u, err := url.Parse(c.APIBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		problems = append(problems, fmt.Sprintf("api_base_url %q%s must be an http(s) URL like %s", shownBase(c.APIBaseURL), from.of("api_base_url"), DiscordAPIBaseURL))
	} else if n, err := strconv.Atoi(u.Port()); u.Port() != "" && (err != nil || n < 1 || n > 65535) {
		// url.Parse takes any digits for a port; a dial refuses them only
		// once the bot runs, as if Discord could not be reached.
		problems = append(problems, fmt.Sprintf("api_base_url %q%s must be an http(s) URL like %s, on a port from 1 to 65535", shownBase(c.APIBaseURL), from.of("api_base_url"), DiscordAPIBaseURL))
	}
	if d := time.Duration(c.DefaultMoveTime); d < 5*time.Minute || d > 7*24*time.Hour {
		problems = append(problems, fmt.Sprintf("default_move_time %s%s must be between 5m and 7d", formatDuration(d), from.of("default_move_time")))
	}
	if d := time.Duration(c.ChallengeExpiry); d < time.Minute || d > 30*24*time.Hour {
		problems = append(problems, fmt.Sprintf("challenge_expiry %s%s must be between 1m and 30d", formatDuration(d), from.of("challenge_expiry")))
	}
	if c.BackupDir != "" && time.Duration(c.BackupEvery) < time.Minute {
		problems = append(problems, fmt.Sprintf("backup_every %s%s must be at least 1m", formatDuration(time.Duration(c.BackupEvery)), from.of("backup_every")))
	}
	if c.OpenChallenges < 1 {
		problems = append(problems, fmt.Sprintf("max_open_challenges %d%s must be at least 1", c.OpenChallenges, from.of("max_open_challenges")))
	}
	if c.PracticeMatches < 1 {
		problems = append(problems, fmt.Sprintf("max_practice_matches %d%s must be at least 1", c.PracticeMatches, from.of("max_practice_matches")))
	}
	if c.Thinkers < 0 {
		problems = append(problems, fmt.Sprintf("computer_thinkers %d%s must be at least 0 (0: one fewer than the cores)", c.Thinkers, from.of("computer_thinkers")))
	}
	switch {
	// Each message blames the value that is wrong, not both.
	case c.ShardCount < 1:
		problems = append(problems, fmt.Sprintf("shard_count %d%s must be at least 1", c.ShardCount, from.of("shard_count")))
	case c.ShardID < 0:
		problems = append(problems, fmt.Sprintf("shard_id %d%s must be at least 0", c.ShardID, from.of("shard_id")))
	case c.ShardID >= c.ShardCount:
		problems = append(problems, fmt.Sprintf("shard_id %d%s must be below shard_count %d%s: the shards are numbered from 0, so set shard_id lower or shard_count higher",
			c.ShardID, from.of("shard_id"), c.ShardCount, from.of("shard_count")))
	case c.ShardCount > 1 && !postgres.IsURL(c.Database):
		problems = append(problems, "several shards are several processes, which share a PostgreSQL database: set database to a postgres:// URL")
	}
	switch {
	case (c.WebAddr == "") != (c.PublicURL == ""):
		problems = append(problems, "web_addr and public_url go together: set both to serve the board in the browser (web_addr where the bot listens, public_url the https address your reverse proxy serves it at), or neither")
	case c.PublicURL != "":
		if err := bot.CheckPublicURL(c.PublicURL); err != nil {
			problems = append(problems, strings.Replace(err.Error(), fmt.Sprintf("public_url %q", c.PublicURL), fmt.Sprintf("public_url %q%s", c.PublicURL, from.of("public_url")), 1))
		} else if u, _ := url.Parse(c.PublicURL); u.Scheme != "https" && !isLoopback(u.Hostname()) {
			problems = append(problems, fmt.Sprintf("public_url %q%s must be https, like https://%s: a board's link carries its capability, which plain http would send unencrypted; "+
				"your reverse proxy serves the board over https (http is for trying it on this machine alone: localhost, 127.0.0.1 or [::1])", c.PublicURL, from.of("public_url"), u.Host))
		}
	}
	for _, a := range []struct{ key, addr, example string }{{"web_addr", c.WebAddr, "127.0.0.1:8080"}, {"metrics_addr", c.MetricsAddr, "127.0.0.1:9464"}} {
		if a.addr != "" && !isListenAddr(a.addr) {
			problems = append(problems, fmt.Sprintf("%s %q%s must be an address and port to listen on, such as %s", a.key, a.addr, from.of(a.key), a.example))
		}
	}
	if c.WebAddr != "" && c.MetricsAddr != "" && isListenAddr(c.WebAddr) && isListenAddr(c.MetricsAddr) && sharePort(c.WebAddr, c.MetricsAddr) {
		// The second listen would find the first, the bot's own, busy.
		problems = append(problems, fmt.Sprintf("web_addr %s%s and metrics_addr %s%s are one port: give each its own, such as 127.0.0.1:8080 and 127.0.0.1:9464",
			c.WebAddr, from.of("web_addr"), c.MetricsAddr, from.of("metrics_addr")))
	}
	if c.Profiling && c.MetricsAddr == "" {
		problems = append(problems, "profiling serves Go's profiles at metrics_addr, which is empty: set metrics_addr too, such as 127.0.0.1:9464, or leave profiling false")
	}
	if c.BackupKeep < 1 {
		problems = append(problems, fmt.Sprintf("backup_keep %d%s must be at least 1", c.BackupKeep, from.of("backup_keep")))
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		problems = append(problems, fmt.Sprintf("log_level %q%s must be debug, info, warn or error", c.LogLevel, from.of("log_level")))
	}
	if !strings.EqualFold(c.LogFormat, "text") && !strings.EqualFold(c.LogFormat, "json") { // any case, as log_level
		problems = append(problems, fmt.Sprintf("log_format %q%s must be text or json", c.LogFormat, from.of("log_format")))
	}
	if len(problems) > 0 {
		return errors.New("config: " + strings.Join(problems, "; "))
	}
	return nil
}

// shellPath says how path, the value of key (from: where it came from),
// holds what a shell would expand, ~ or a $VARIABLE, which neither a TOML
// file nor systemd's EnvironmentFile expands: the bot would take it for a
// folder of that name. "" when it holds none, or when a file or folder of
// that name exists (the data of a bot that ran with it); a $NAME of a
// folder that exists is that folder's real name (/srv/$bot/strategobot.db
// before the bot's first run made the file).
func shellPath(key, path, from string) string {
	if path == "" || exists(path) {
		return ""
	}
	if (path == "~" || strings.HasPrefix(path, "~/")) && !exists("~") {
		such := "/home/USER" + path[1:]
		if home, err := os.UserHomeDir(); err == nil {
			such = filepath.Join(home, path[1:])
		}
		return fmt.Sprintf("%s %q%s starts with ~, which the bot does not expand as a shell does: write the full path, such as %s", key, path, from, such)
	}
	// The names of the folders and the file that do not exist yet.
	for p := filepath.Clean(path); !exists(p); p = filepath.Dir(p) {
		if v := shellVariable.FindString(filepath.Base(p)); v != "" {
			return fmt.Sprintf("%s %q%s names %s, which the bot does not expand as a shell does: write the full path", key, path, from, v)
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	return ""
}

// shellVariable matches a shell's $NAME or ${NAME}.
var shellVariable = regexp.MustCompile(`\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)

// keywordValue matches a libpq connection string of keywords, such as
// "host=db user=bot password=…", which is no bbolt file's name.
var keywordValue = regexp.MustCompile(`(^|\s)(host|hostaddr|port|dbname|user|password|sslmode)\s*=`)

// isID reports whether s is a Discord id (a snowflake): a number.
func isID(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// isListenAddr reports whether addr is HOST:PORT (HOST may be empty) that
// net.Listen takes, without trying to listen: PORT a number or a service's
// name ("http"), as net.Listen reads it.
func isListenAddr(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	_, err = net.LookupPort("tcp", port)
	return err == nil
}

// sharePort reports whether listening on a and on b, two addresses
// isListenAddr takes, would take one port twice: the same port (not 0, any
// free one) on the same host, or on every address for either.
func sharePort(a, b string) bool {
	ha, pa, _ := net.SplitHostPort(a)
	hb, pb, _ := net.SplitHostPort(b)
	na, _ := net.LookupPort("tcp", pa)
	nb, _ := net.LookupPort("tcp", pb)
	if na == 0 || na != nb {
		return false
	}
	host := func(h string) string {
		if strings.EqualFold(h, "localhost") {
			return "127.0.0.1"
		}
		if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
			return ""
		}
		return h
	}
	ha, hb = host(ha), host(hb)
	return ha == "" || hb == "" || ha == hb
}

// isLoopback reports whether host names this machine alone: localhost or
// a loopback address (127.0.0.1, ::1).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// exists reports whether there is a file or folder at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return l, fmt.Errorf("log_level %q must be debug, info, warn or error", s)
	}
	return l, nil
}

// newLogger builds the process's logger from the config. An error logged
// names the configured API base, not Discord's address (see nameBase), and
// keeps only its kind when it was written from a game's hidden pieces
// (logsafe.Err): whoever reads the log may be a player. A duration is
// written as people read it, "1.5s", in JSON too (not in nanoseconds).
func newLogger(c config, w io.Writer) *slog.Logger {
	level, _ := parseLevel(c.LogLevel)
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Value.Kind() == slog.KindDuration {
			return slog.String(a.Key, a.Value.Duration().String())
		}
		switch v := a.Value.Any().(type) {
		case duration:
			return slog.String(a.Key, v.String())
		case error:
			if a.Value.Kind() == slog.KindAny {
				return slog.Any(a.Key, hidePassword(nameBase(logsafe.Err(v), c.APIBaseURL), c.Database))
			}
		}
		return a
	}}
	if strings.EqualFold(c.LogFormat, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// logLibrariesTo sends what the libraries log into logger, so that the log
// is one stream of one format (log_format = "json" all JSON): discordgo's
// own lines at their level, and whatever else writes with the standard
// log package (an HTTP server's errors) at info. discordgo logs only its
// errors at the level newSession leaves its sessions at (LogError); its
// warnings and debug lines may quote the gateway's payloads, messages and
// all, and stay off.
func logLibrariesTo(logger *slog.Logger) {
	discordgo.Logger = discordgoLogger(logger)
	slog.SetDefault(logger)
}

// discordgoLogger is a discordgo.Logger writing to logger, at the level
// that matches discordgo's.
func discordgoLogger(logger *slog.Logger) func(msgL, caller int, format string, a ...any) {
	return func(msgL, _ int, format string, a ...any) {
		level := slog.LevelError
		switch msgL {
		case discordgo.LogWarning:
			level = slog.LevelWarn
		case discordgo.LogInformational:
			level = slog.LevelInfo
		case discordgo.LogDebug:
			level = slog.LevelDebug
		}
		if strings.HasPrefix(format, "error connecting to gateway") {
			// Open returns this error too, and the bot logs it with what to
			// do: discordgo's copy, which names the gateway's URL, is detail.
			level = slog.LevelDebug
		}
		logger.Log(context.Background(), level, "discordgo: "+strings.TrimSpace(fmt.Sprintf(format, a...)))
	}
}
