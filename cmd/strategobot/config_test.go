package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func noEnv(string) string { return "" }

func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// TestExampleConfig keeps config.example.toml complete: it must parse, and
// name and explain every key the bot reads.
func TestExampleConfig(t *testing.T) {
	cfg, err := loadConfig("../../config.example.toml", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, defaultConfig()) {
		t.Errorf("the example file's values differ from the defaults:\n%+v\n%+v", cfg, defaultConfig())
	}
	text, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(config{})
	for i := 0; i < typ.NumField(); i++ {
		key, env := typ.Field(i).Tag.Get("toml"), typ.Field(i).Tag.Get("env")
		if key == "-" {
			continue
		}
		if !strings.Contains(string(text), "\n"+key+" = ") {
			t.Errorf("config.example.toml does not set %s", key)
		}
		if !strings.Contains(string(text), "("+env+")") {
			t.Errorf("config.example.toml does not name %s's variable %s", key, env)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("kept.db ", "")                    // the data of a bot that ran with database = "kept.db "
	write("host=db user=bot dbname=x", "")   // and of one that ran with a connection string of keywords
	srv := filepath.Join(dir, "srv", "$bot") // a folder whose real name holds a $
	if err := os.MkdirAll(srv, 0o700); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		check func(config) bool
		err   string
	}{
		{name: "file values", file: write("a.toml", "database = \"x.db\"\nthreads = true\ndefault_move_time = \"7d\"\n"),
			check: func(c config) bool {
				return c.Database == "x.db" && c.Threads && time.Duration(c.DefaultMoveTime) == 7*24*time.Hour
			}},
		{name: "environment wins", file: write("b.toml", "database = \"x.db\"\n"), env: map[string]string{"STRATEGOBOT_DATABASE": "y.db", "STRATEGOBOT_BACKUP_KEEP": "3", "DISCORD_TOKEN": "tok"},
			check: func(c config) bool { return c.Database == "y.db" && c.BackupKeep == 3 && c.Token == "tok" }},
		{name: "a token with a Bot prefix, quotes and a newline", env: map[string]string{"DISCORD_TOKEN": "\"Bot abc.def\"\n"},
			check: func(c config) bool { return c.Token == "abc.def" }},
		{name: "a token of spaces is no token, but a blank one", env: map[string]string{"DISCORD_TOKEN": "  \n"},
			check: func(c config) bool { return c.Token == "" && c.TokenBlank }},
		{name: "a token of quotes and Bot is a blank one", env: map[string]string{"DISCORD_TOKEN": "' Bot '"},
			check: func(c config) bool { return c.Token == "" && c.TokenBlank }},
		{name: "no token is not a blank one", env: map[string]string{"DISCORD_TOKEN": ""},
			check: func(c config) bool { return c.Token == "" && !c.TokenBlank }},
		{name: "a token is not a blank one", env: map[string]string{"DISCORD_TOKEN": " abc.def "},
			check: func(c config) bool { return c.Token == "abc.def" && !c.TokenBlank }},
		{name: "unknown key", file: write("c.toml", "databse = \"x.db\"\n"), err: "c.toml: unknown key databse; did you mean database?"},
		// Keys are read as written, as the environment's names are: the
		// decoder alone would take Database for database, and the second
		// of database and DATABASE would be lost unsaid.
		{name: "a key in capitals", file: write("case.toml", "Database = \"x.db\"\n"),
			err: "case.toml: unknown key Database: keys are written in lower case: database"},
		{name: "a key twice, once in capitals", file: write("case2.toml", "database = \"a.db\"\nDATABASE = \"b.db\"\n"),
			err: "case2.toml: unknown key DATABASE: keys are written in lower case: database"},
		{name: "a table named as a key in capitals", file: write("case4.toml", "[Threads]\n"),
			err: "case4.toml: line 1: unknown key Threads: keys are written in lower case: threads"},
		{name: "a key in capitals with a value of another kind", file: write("case5.toml", "Threads = \"yes\"\n"),
			err: "case5.toml: line 1: unknown key Threads: keys are written in lower case: threads"},
		{name: "a token key in capitals", file: write("case3.toml", "Token = \"MTIz.secret\"\n"),
			err: "case3.toml: the bot reads its token only from DISCORD_TOKEN, never from a file: remove Token from"},
		{name: "a key in a table", file: write("c3.toml", "[bot]\ndatabase = \"x.db\"\n"),
			err: "c3.toml: database is in a table [bot], where the bot does not look: move it above the file's first [table] line"},
		{name: "a key in a table after an empty one", file: write("c5.toml", "[web]\n[bot]\ndatabase = \"x.db\"\n"),
			err: "c5.toml: database is in a table [bot], where the bot does not look"},
		{name: "an unknown table", file: write("c4.toml", "[colours]\nred = 1\n"),
			err: "c4.toml: unknown table [colours]: the bot reads no tables: remove [colours] and write the bot's keys at the top of the file, above any [table] line. The keys are: database, api_base_url, guild_id, threads,"},
		{name: "an empty table", file: write("c6.toml", "database = \"x.db\"\n\n[web]\n"),
			err: "c6.toml: unknown table [web]: the bot reads no tables: remove [web] and write the bot's keys at the top of the file, above any [table] line (in place of [web]: web_addr). The keys are: database,"},
		{name: "an empty table of tables", file: write("c7.toml", "[[backup]]\n"),
			err: "c7.toml: unknown table [backup]: the bot reads no tables: remove [backup] and write the bot's keys at the top of the file, above any [table] line (in place of [backup]: backup_dir, backup_every, backup_keep). The keys are: database,"},
		{name: "an empty dotted table", file: write("c8.toml", "[a.b]\n"), err: "c8.toml: unknown table [a.b]: the bot reads no tables: remove [a.b]"},
		{name: "an empty table's keys listed whole", file: write("c9.toml", "[x]\n"), err: "The keys are: " + strings.Join(fileKeys(), ", ")},
		// A dotted key is a key of a table the file never opens with a [table] line: named as written.
		{name: "a dotted key", file: write("dot.toml", "web.addr = \"127.0.0.1:8080\"\n"),
			err: "dot.toml: unknown key web.addr: the bot's keys have no dots; did you mean web_addr?"},
		{name: "a known key dotted", file: write("dot4.toml", "bot.database = \"x.db\"\n"),
			err: "dot4.toml: unknown key bot.database: the bot's keys have no dots; did you mean database?"},
		{name: "a dotted key like none", file: write("dot2.toml", "colour.red = 1\n"),
			err: "dot2.toml: unknown key colour.red: the bot's keys have no dots. The keys are: database, api_base_url,"},
		{name: "a dotted key of a table the file opens", file: write("dot3.toml", "[web]\nport.number = 1\n"),
			err: "dot3.toml: unknown table [web]: the bot reads no tables: remove [web]"},
		{name: "unknown key like none", file: write("c2.toml", "colour = \"red\"\n"), err: "c2.toml: unknown key colour. The keys are: database, api_base_url,"},
		{name: "a token in a table", file: write("t2.toml", "[discord]\ntoken = \"\"\n"),
			err: "t2.toml: the bot reads its token only from DISCORD_TOKEN, never from a file: remove discord.token from"},
		{name: "a blank token in the file", file: write("t3.toml", "token = \"  \"\n"),
			err: "t3.toml: the bot reads its token only from DISCORD_TOKEN, never from a file: remove token from"},
		{name: "a token in the file", file: write("t.toml", "database = \"x.db\"\ntoken = \"secret\"\n"), err: "only from DISCORD_TOKEN, never from a file"},
		{name: "a token under another name", file: write("t4.toml", "discord_token = \"MTIz.secret\"\n"),
			err: "t4.toml: the bot reads its token only from DISCORD_TOKEN, never from a file: remove discord_token from"},
		{name: "an environment file's token line, unquoted", file: write("t5.toml", "database = \"x.db\"\nDISCORD_TOKEN=MTIzNDU2Nzg5.secret\n"),
			err: "t5.toml: line 2 holds a token, but the bot reads its token only from DISCORD_TOKEN, never from a file: remove that line from"},
		{name: "an exported token line", file: write("t6.toml", "export DISCORD_TOKEN=MTIzNDU2Nzg5.secret\n"), err: "t6.toml: line 1 holds a token"},
		{name: "a value without quotes", file: write("q.toml", "database = MTIzNDU2Nzg5secret\n"), err: `q.toml: line 1: database is text in quotes, like database = "…"`},
		{name: "a bool as a word", file: write("q2.toml", "threads = yes\n"), err: "q2.toml: line 1: threads is true or false"},
		{name: "an unknown key with a bare value", file: write("q3.toml", "databse = MTIzNDU2Nzg5secret\n"), err: `q3.toml: line 1: databse: expected a value, such as "text in quotes"`},
		{name: "guild_id not a number", env: map[string]string{"STRATEGOBOT_GUILD_ID": "my server"}, err: `guild_id "my server" (from STRATEGOBOT_GUILD_ID) must be a server's id, a number`},
		{name: "guild_id a number", env: map[string]string{"STRATEGOBOT_GUILD_ID": "123456789012345678"},
			check: func(c config) bool { return c.GuildID == "123456789012345678" }},
		{name: "metrics_addr without a port", env: map[string]string{"STRATEGOBOT_METRICS_ADDR": "localhost"}, err: `metrics_addr "localhost" (from STRATEGOBOT_METRICS_ADDR) must be an address and port to listen on, such as 127.0.0.1:9464`},
		{name: "web_addr with a scheme", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "http://127.0.0.1:8080", "STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org"},
			err: `web_addr "http://127.0.0.1:8080" (from STRATEGOBOT_WEB_ADDR) must be an address and port to listen on, such as 127.0.0.1:8080`},
		{name: "metrics_addr a port alone", env: map[string]string{"STRATEGOBOT_METRICS_ADDR": ":9464"}, check: func(c config) bool { return c.MetricsAddr == ":9464" }},
		// net.Listen takes a port by its service name, as it did before the addresses were checked.
		{name: "metrics_addr a port by name", env: map[string]string{"STRATEGOBOT_METRICS_ADDR": "127.0.0.1:http"}, check: func(c config) bool { return c.MetricsAddr == "127.0.0.1:http" }},
		{name: "web_addr a port by name", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "localhost:https", "STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org"},
			check: func(c config) bool { return c.WebAddr == "localhost:https" }},
		{name: "metrics_addr a port that is no service", env: map[string]string{"STRATEGOBOT_METRICS_ADDR": "127.0.0.1:metrics"}, err: `metrics_addr "127.0.0.1:metrics" (from STRATEGOBOT_METRICS_ADDR) must be an address and port to listen on`},
		{name: "metrics_addr a port too high", env: map[string]string{"STRATEGOBOT_METRICS_ADDR": "127.0.0.1:65536"}, err: `metrics_addr "127.0.0.1:65536" (from STRATEGOBOT_METRICS_ADDR) must be an address and port to listen on`},
		{name: "profiling without metrics_addr", env: map[string]string{"STRATEGOBOT_PROFILING": "true"}, err: "profiling serves Go's profiles at metrics_addr, which is empty"},
		{name: "a postgres URL that does not parse", env: map[string]string{"STRATEGOBOT_DATABASE": "postgres://bot:s3cret@db:99999/x"},
			err: "database postgres://bot:xxxxx@db:99999/x (from STRATEGOBOT_DATABASE) is not a valid PostgreSQL connection string"},
		{name: "a postgres URL naming a certificate that is not there", env: map[string]string{"STRATEGOBOT_DATABASE": "postgres://bot:s3cret@db/x?sslmode=verify-full&sslrootcert=" + filepath.Join(dir, "none.pem")},
			err: "database postgres://bot:xxxxx@db/x?sslmode=verify-full&sslrootcert=" + filepath.Join(dir, "none.pem") + " (from STRATEGOBOT_DATABASE) names a file the bot cannot read (open " + filepath.Join(dir, "none.pem") + ": no such file or directory)"},
		{name: "a keyword/value connection string", env: map[string]string{"STRATEGOBOT_DATABASE": "host=db user=bot password=s3cret dbname=x"},
			err: "config: database (from STRATEGOBOT_DATABASE) looks like a PostgreSQL connection string of keywords (host=… user=…), which the bot does not read: write it as a URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE"},
		{name: "a file name with an equals sign", env: map[string]string{"STRATEGOBOT_DATABASE": "data/a=b.db"},
			check: func(c config) bool { return c.Database == "data/a=b.db" }},
		{name: "one limit named alone", env: map[string]string{"STRATEGOBOT_MAX_PRACTICE_MATCHES": "0"}, err: "config: max_practice_matches 0 (from STRATEGOBOT_MAX_PRACTICE_MATCHES) must be at least 1"},
		{name: "a duration as written", env: map[string]string{"STRATEGOBOT_CHALLENGE_EXPIRY": "31d"}, err: "challenge_expiry 31d (from STRATEGOBOT_CHALLENGE_EXPIRY) must be between 1m and 30d"},
		{name: "bad duration", file: write("d.toml", "default_move_time = \"soon\"\n"), err: `d.toml: line 1: default_move_time: "soon" is not a duration: write it like 30m, 24h or 7d`},
		{name: "a duration without its unit", file: write("n.toml", "default_move_time = 24\n"), err: `n.toml: line 1: default_move_time: 24 has no unit: write it like 30m, 24h or 7d`},
		{name: "a key set twice", file: write("twice.toml", "database = \"a.db\"\ndatabase = \"b.db\"\n"), err: "twice.toml: database is set twice (lines 1 and 2): keep one"},
		{name: "a key set twice, once quoted", file: write("twice2.toml", "threads = true\n\"threads\" = false\n"), err: "twice2.toml: threads is set twice (lines 1 and 2): keep one"},
		{name: "a key set three times", file: write("thrice.toml", "backup_keep = 1\nbackup_keep = 2\nbackup_keep = 3\n"), err: "thrice.toml: backup_keep is set 3 times (lines 1, 2 and 3): keep one"},
		{name: "a table set twice", file: write("twice3.toml", "[web]\n[web]\n"), err: "twice3.toml: line 2: web is set a second time: keep one"},
		{name: "a syntax error, without the library's name", file: write("s.toml", "[section\n"), err: "s.toml: line 2: expected"},
		{name: "move time out of range", file: write("e.toml", "default_move_time = \"1m\"\n"), err: "between 5m and 7d"},
		{name: "bad url", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "discord"}, err: "api_base_url"},
		{name: "bad bool", env: map[string]string{"STRATEGOBOT_THREADS": "maybe"}, err: "use true or false"},
		{name: "missing named file", file: filepath.Join(dir, "none.toml"),
			err: "none.toml: there is no such file: create it with a key per line, such as database = \"strategobot.db\" (strategobot run -h lists the keys), or name no file"},
		{name: "a bool in quotes", file: write("h.toml", "\nthreads = \"yes\"\n"), err: "h.toml: line 2: threads is true or false, without quotes"},
		{name: "a number in quotes", file: write("i.toml", "backup_keep = \"7\"\n"), err: "backup_keep is a whole number, without quotes"},
		{name: "a number in single quotes", file: write("i2.toml", "backup_keep = '7'\n"), err: "backup_keep is a whole number, without quotes"},
		{name: "a number in triple quotes", file: write("i3.toml", "backup_keep = \"\"\"7\"\"\"\n"), err: "backup_keep is a whole number, without quotes"},
		{name: "a number for a text", file: write("j.toml", "guild_id = 1234\n"), err: `guild_id is text in quotes, like guild_id = "…"`},
		{name: "a table for a duration", file: write("k.toml", "backup_every = {}\n"), err: `backup_every is a duration in quotes, like "24h"`},
		{name: "bad level", env: map[string]string{"STRATEGOBOT_LOG_LEVEL": "loud"}, err: "log_level"},
		{name: "postgres", file: write("f.toml", "database = \"postgres://bot:pw@db.example/strategobot\"\n"),
			check: func(c config) bool { return c.Database == "postgres://bot:pw@db.example/strategobot" }},
		{name: "postgres with backup_dir", env: map[string]string{"STRATEGOBOT_DATABASE": "postgresql://bot@db/strategobot", "STRATEGOBOT_BACKUP_DIR": "backups"},
			err: "back up PostgreSQL with pg_dump instead (pg_dump --format=custom --file=strategobot.dump DATABASE_URL) and leave backup_dir empty"},
		{name: "a database of blanks", env: map[string]string{"STRATEGOBOT_DATABASE": " "}, err: "config: database (from STRATEGOBOT_DATABASE) must name a bbolt file or a postgres:// URL"},
		{name: "a database with a blank after it", env: map[string]string{"STRATEGOBOT_DATABASE": "bot.db "}, err: `config: database "bot.db " (from STRATEGOBOT_DATABASE) begins or ends with a blank: remove it`},
		// A blank around a postgres:// URL, as an environment file may leave it: named without its password.
		{name: "a postgres URL with a blank after it", env: map[string]string{"STRATEGOBOT_DATABASE": "postgres://bot:s3cret@db/x "},
			err: `config: database "postgres://bot:xxxxx@db/x " (from STRATEGOBOT_DATABASE) begins or ends with a blank: remove it`},
		{name: "a postgres URL with a blank before it", env: map[string]string{"STRATEGOBOT_DATABASE": " postgresql://bot@db/x?password=s3cret"},
			err: `config: database " postgresql://bot@db/x?password=xxxxx" (from STRATEGOBOT_DATABASE) begins or ends with a blank: remove it`},
		// A proxy's password in an api_base_url refused: named as xxxxx.
		{name: "an api_base_url not http, with a password", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "ftp://bot:s3cret@proxy/api/v9/"},
			err: `config: api_base_url "ftp://bot:xxxxx@proxy/api/v9/" (from STRATEGOBOT_API_BASE_URL) must be an http(s) URL`},
		{name: "an api_base_url without a host, with a password", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "http://bot:s3cret@"},
			err: `config: api_base_url "http://bot:xxxxx@" (from STRATEGOBOT_API_BASE_URL) must be an http(s) URL`},
		{name: "an api_base_url without its scheme, with a password", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "bot:s3cret@proxy/api/v9/"},
			err: `config: api_base_url "bot:xxxxx@proxy/api/v9/" (from STRATEGOBOT_API_BASE_URL) must be an http(s) URL`},
		{name: "an api_base_url that does not parse, with a password", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "http://bot:s3cret@proxy:port/api/v9/"},
			err: `config: api_base_url "http://bot:xxxxx@proxy:port/api/v9/" (from STRATEGOBOT_API_BASE_URL) must be an http(s) URL`},
		// A port no address has: refused at start (exit 2), not found unreachable at every restart (exit 1).
		{name: "an api_base_url on a port too high", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "http://127.0.0.1:99999/api/v9/"},
			err: `config: api_base_url "http://127.0.0.1:99999/api/v9/" (from STRATEGOBOT_API_BASE_URL) must be an http(s) URL like https://discord.com/api/v9/, on a port from 1 to 65535`},
		{name: "an api_base_url on port 0", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "http://127.0.0.1:0/api/v9/"},
			err: `on a port from 1 to 65535`},
		{name: "an api_base_url on a port", env: map[string]string{"STRATEGOBOT_API_BASE_URL": "http://127.0.0.1:8080/api/v9/"},
			check: func(c config) bool { return c.APIBaseURL == "http://127.0.0.1:8080/api/v9/" }},
		// A shell's ~ or $VARIABLE, which neither a TOML file nor systemd's EnvironmentFile expands: refused, not
		// taken for a folder named "~" to create.
		{name: "a database under ~", file: write("tilde.toml", "database = \"~/strategobot.db\"\n"),
			err: `tilde.toml line 1) starts with ~, which the bot does not expand as a shell does: write the full path, such as `},
		{name: "a backup_dir under ~", env: map[string]string{"STRATEGOBOT_BACKUP_DIR": "~/backups"},
			err: `config: backup_dir "~/backups" (from STRATEGOBOT_BACKUP_DIR) starts with ~, which the bot does not expand as a shell does: write the full path, such as `},
		{name: "a database under $HOME", env: map[string]string{"STRATEGOBOT_DATABASE": "$HOME/strategobot.db"},
			err: `config: database "$HOME/strategobot.db" (from STRATEGOBOT_DATABASE) names $HOME, which the bot does not expand as a shell does: write the full path`},
		{name: "a backup_dir under ${STATE_DIRECTORY}", env: map[string]string{"STRATEGOBOT_BACKUP_DIR": "${STATE_DIRECTORY}/backups"},
			err: `config: backup_dir "${STATE_DIRECTORY}/backups" (from STRATEGOBOT_BACKUP_DIR) names ${STATE_DIRECTORY}, which the bot does not expand as a shell does: write the full path`},
		{name: "a configuration file under ~", file: "~/strategobot-none.toml",
			err: `config: config file "~/strategobot-none.toml" (from -config or STRATEGOBOT_CONFIG) starts with ~, which the bot does not expand as a shell does: write the full path, such as `},
		// A $NAME of a folder that exists is its name: the bot's first run there creates the file.
		{name: "a new database in a folder named with a $", env: map[string]string{"STRATEGOBOT_DATABASE": filepath.Join(srv, "strategobot.db")},
			check: func(c config) bool { return c.Database == filepath.Join(srv, "strategobot.db") }},
		{name: "a new backup_dir in a folder named with a $", env: map[string]string{"STRATEGOBOT_BACKUP_DIR": filepath.Join(srv, "backups")},
			check: func(c config) bool { return c.BackupDir == filepath.Join(srv, "backups") }},
		{name: "a $NAME under a folder named with a $", env: map[string]string{"STRATEGOBOT_DATABASE": filepath.Join(srv, "$BOT.db")},
			err: `names $BOT, which the bot does not expand as a shell does: write the full path`},
		{name: "a $NAME folder under a folder named with a $", env: map[string]string{"STRATEGOBOT_DATABASE": filepath.Join(srv, "${X}", "bot.db")},
			err: `names ${X}, which the bot does not expand as a shell does: write the full path`},
		{name: "a file name with a ~ inside", env: map[string]string{"STRATEGOBOT_DATABASE": "bot~1.db"},
			check: func(c config) bool { return c.Database == "bot~1.db" }},
		// A bot that ran on such a file before the blank was refused keeps its data.
		{name: "a database with a blank after it that holds the data", file: write("blank.toml", "database = \"kept.db \"\n"),
			check: func(c config) bool { _, err := os.Stat(c.Database); return c.Database == "kept.db " && err == nil }},
		{name: "a connection string of keywords that names the data", file: write("keywords.toml", "database = \"host=db user=bot dbname=x\"\n"),
			check: func(c config) bool {
				_, err := os.Stat(c.Database)
				return c.Database == "host=db user=bot dbname=x" && err == nil
			}},
		{name: "a folder for the file", file: dir, err: "config " + dir + " is a folder: name the configuration file, such as " + filepath.Join(dir, "strategobot.toml")},
		{name: "no database", file: write("g.toml", "database = \"\"\n"), err: "postgres:// URL"},
		{name: "web on", file: write("w.toml", "web_addr = \"127.0.0.1:8080\"\npublic_url = \"https://stratego.example.org\"\n"),
			check: func(c config) bool {
				return c.WebAddr == "127.0.0.1:8080" && c.PublicURL == "https://stratego.example.org"
			}},
		{name: "web_addr alone", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "127.0.0.1:8080"}, err: "web_addr and public_url go together"},
		// One port for both: the second listen would find the bot's own first, "another program".
		{name: "web_addr and metrics_addr on one port", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "127.0.0.1:8080",
			"STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org", "STRATEGOBOT_METRICS_ADDR": "127.0.0.1:8080"},
			err: "web_addr 127.0.0.1:8080 (from STRATEGOBOT_WEB_ADDR) and metrics_addr 127.0.0.1:8080 (from STRATEGOBOT_METRICS_ADDR) are one port: give each its own, such as 127.0.0.1:8080 and 127.0.0.1:9464"},
		{name: "web_addr on every address and metrics_addr on its port", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080",
			"STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org", "STRATEGOBOT_METRICS_ADDR": "localhost:8080"},
			err: "web_addr :8080 (from STRATEGOBOT_WEB_ADDR) and metrics_addr localhost:8080 (from STRATEGOBOT_METRICS_ADDR) are one port"},
		{name: "web_addr and metrics_addr on one port of two addresses", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "10.1.2.3:8080",
			"STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org", "STRATEGOBOT_METRICS_ADDR": "127.0.0.1:8080"},
			check: func(c config) bool { return c.WebAddr == "10.1.2.3:8080" && c.MetricsAddr == "127.0.0.1:8080" }},
		{name: "web_addr and metrics_addr on any free ports", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "127.0.0.1:0",
			"STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org", "STRATEGOBOT_METRICS_ADDR": "127.0.0.1:0"},
			check: func(c config) bool { return c.WebAddr == "127.0.0.1:0" }},
		{name: "public_url alone", env: map[string]string{"STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org"}, err: "web_addr and public_url go together"},
		{name: "public_url relative", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "stratego.example.org"}, err: "public_url \"stratego.example.org\""},
		{name: "public_url on a port out of range", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org:84430"},
			err: `public_url "https://stratego.example.org:84430" (from STRATEGOBOT_PUBLIC_URL): the port must be a number from 1 to 65535`},
		{name: "public_url on port 0", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org:0"},
			err: "the port must be a number from 1 to 65535"},
		{name: "public_url on a port", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "https://stratego.example.org:8443"},
			check: func(c config) bool { return c.PublicURL == "https://stratego.example.org:8443" }},
		{name: "public_url not http", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "ftp://stratego.example.org"}, err: "http or https"},
		{name: "public_url over http", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "http://x.org"},
			err: `public_url "http://x.org" (from STRATEGOBOT_PUBLIC_URL) must be https, like https://x.org: a board's link carries its capability, which plain http would send unencrypted`},
		{name: "public_url over http on a port", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "http://stratego.example.org:8080"},
			err: `public_url "http://stratego.example.org:8080" (from STRATEGOBOT_PUBLIC_URL) must be https, like https://stratego.example.org:8080`},
		{name: "public_url over http on a private address", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "http://192.168.1.5:8080"}, err: "must be https"},
		{name: "public_url over http at localhost", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "127.0.0.1:8080", "STRATEGOBOT_PUBLIC_URL": "http://localhost:8080"},
			check: func(c config) bool { return c.PublicURL == "http://localhost:8080" }},
		{name: "public_url over http at 127.0.0.1", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "127.0.0.1:8080", "STRATEGOBOT_PUBLIC_URL": "http://127.0.0.1:8080"},
			check: func(c config) bool { return c.PublicURL == "http://127.0.0.1:8080" }},
		{name: "public_url over http at ::1", env: map[string]string{"STRATEGOBOT_WEB_ADDR": "[::1]:8080", "STRATEGOBOT_PUBLIC_URL": "http://[::1]:8080"},
			check: func(c config) bool { return c.PublicURL == "http://[::1]:8080" }},
		{name: "public_url with a path", env: map[string]string{"STRATEGOBOT_WEB_ADDR": ":8080", "STRATEGOBOT_PUBLIC_URL": "https://example.org/stratego"}, err: "root of its host"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(dir) // no strategobot.toml here unless a test writes one
			cfg, err := loadConfig(tc.file, envOf(tc.env))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				for _, secret := range []string{"MTIz", "s3cret"} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("error %q shows the secret %s", err, secret)
					}
				}
				for _, file := range []string{"README", "docs/", "config.example.toml"} {
					if strings.Contains(err.Error(), file) {
						t.Errorf("error %q sends the admin, who may have the binary alone, to %s", err, file)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(cfg) {
				t.Fatalf("config %+v", cfg)
			}
		})
	}
}

// TestUnknownEnv: a STRATEGOBOT_ variable that is no setting is refused,
// with the setting it resembles; settings, STRATEGOBOT_CONFIG, the tests'
// own variables and other programs' variables pass.
func TestUnknownEnv(t *testing.T) {
	tests := []struct {
		environ []string
		want    string
	}{
		{[]string{"STRATEGOBOT_DATABSE=x.db"}, "STRATEGOBOT_DATABSE is set, but the bot reads no variable of that name: unset it. Did you mean STRATEGOBOT_DATABASE?"},
		{[]string{"HOME=/root", "STRATEGOBOT_TOKEN=abc"}, "STRATEGOBOT_TOKEN is set, but the bot reads no variable of that name: unset it. The token goes in DISCORD_TOKEN. (strategobot run -h"},
		{[]string{"STRATEGOBOT_COLOUR=red"}, "STRATEGOBOT_COLOUR is set, but the bot reads no variable of that name: unset it. (strategobot run -h"},
		{[]string{"STRATEGOBOT_DATABASE=x.db", "STRATEGOBOT_CONFIG=", "STRATEGOBOT_TEST_POSTGRES_REQUIRED=1", "DISCORD_TOKEN=x", "PATH=/bin"}, ""},
		// Names are read as written: one in small letters is not the setting.
		{[]string{"strategobot_database=x.db"}, "strategobot_database is set, but the bot reads no variable of that name: names are in capitals, STRATEGOBOT_DATABASE."},
		{[]string{"Strategobot_Web_Adr=:8080"}, "Strategobot_Web_Adr is set, but the bot reads no variable of that name: unset it. Did you mean STRATEGOBOT_WEB_ADDR?"},
		// A token's variable is misnamedToken's, asked only by the commands that need the token.
		{[]string{"discord_token=abc"}, ""},
		{[]string{"strategobot_test_x=1"}, ""},
	}
	for _, tc := range tests {
		err := unknownEnv(tc.environ)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.environ, err, tc.want)
		}
	}
}

// TestCleanToken: the "Bot " a guide writes before the token is taken away
// in any case and before any blank, as are the blanks and quotes around
// it; the token itself is left whole.
func TestCleanToken(t *testing.T) {
	const token = "MTIzNDU2.abc.def"
	tests := []struct{ raw, want string }{
		{token, token},
		{" " + token + "\n", token},
		{`"` + token + `"`, token},
		{"Bot " + token, token},
		{"bot " + token, token},
		{"BOT " + token, token},
		{"Bot\t" + token, token},
		{"Bot\u00a0" + token, token}, // a no-break space, as a document or a chat puts after a word
		{"Bot  " + token, token},
		{`"bot ` + token + `"`, token},
		// Quotes around the token after the prefix, as a guide's "Bot <token>" filled in.
		{`Bot "` + token + `"`, token},
		{`bot '` + token + `'`, token},
		{` "Bot ' ` + token + ` '" `, token},
		{`Bot ""`, ""},
		{"Bot", ""},
		{"bot\u00a0", ""},
		// A token that begins with the letters is no prefix.
		{"Bot" + token, "Bot" + token},
		{"bo " + token, "bo " + token},
	}
	for _, tc := range tests {
		got := cleanToken(tc.raw)
		if got != tc.want {
			t.Errorf("cleanToken(%q) = %q, want %q", tc.raw, got, tc.want)
		}
		if got == token && tokenProblem(got) != "" {
			t.Errorf("%q: %s", tc.raw, tokenProblem(got))
		}
	}
}

// TestTokenProblem: a DISCORD_TOKEN that no bot token is by its characters
// alone is refused by run and check before Discord is asked, and named
// without the token; backup and copydb, which read no token, do not ask.
func TestTokenProblem(t *testing.T) {
	tests := []struct {
		name, token, want string
	}{
		{"a token", "MTIzNDU2.abc.def", ""},
		// A token broken over two lines, or with a blank inside: HTTP refuses such a header, which would
		// read as Discord unreachable.
		{"a token with a line break inside", "MTIzNDU2.abc\ndef",
			"DISCORD_TOKEN holds a line break, a tab or a blank inside the token, which is one word: copy it again, on one line"},
		{"a token with a carriage return inside", "MTIzNDU2.abc\r\ndef", "DISCORD_TOKEN holds a line break"},
		{"a token with a blank inside", "MTIzNDU2.abc def", "DISCORD_TOKEN holds a line break"},
		// Another control character, such as the escape of a terminal's bracketed paste, is refused by HTTP
		// as well: not taken for Discord unreachable, which a service manager would restart for ever.
		{"a token with a paste's escape around it", "\x1b[200~MTIzNDU2.abc.def\x1b[201~",
			"DISCORD_TOKEN holds a control character (such as a terminal's escape, pasted with it) inside the token: copy it again"},
		{"a token with a DEL inside", "MTIzNDU2.abc\x7fdef", "DISCORD_TOKEN holds a control character"},
		// The README's first command copied as it stands: refused before Discord, which would take it for mistyped.
		{"the examples' placeholder", "your-token",
			"DISCORD_TOKEN holds the placeholder of an example command, not the bot's token: put the token in its place, from your application → Bot → Reset Token"},
		{"a placeholder in capitals", "<YOUR_TOKEN>", "DISCORD_TOKEN holds the placeholder of an example command"},
		{"the unit file's placeholder", "…", "DISCORD_TOKEN holds the placeholder of an example command"},
		// A copy through a document or a chat: curly quotes, a shortened token's ellipsis, a space of no width.
		{"a token in curly quotes", "“MTIzNDU2.abc.def”",
			"DISCORD_TOKEN holds a character no token has (such as a curly quote or an ellipsis, which a copy through a document or a chat brings): copy it again"},
		{"a token shortened with an ellipsis", "MTIzNDU2.abc.de…", "DISCORD_TOKEN holds a character no token has"},
		{"a token with a space of no width", "MTIzNDU2.abc\u200b.def", "DISCORD_TOKEN holds a character no token has"},
	}
	for _, tc := range tests {
		got := tokenProblem(tc.token)
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if strings.Contains(got, "MTIz") || strings.Contains(got, "abc") {
			t.Errorf("%s: %q quotes the token", tc.name, got)
		}
		// A configuration is no business of the token's: backup and copydb load it whatever DISCORD_TOKEN holds.
		if _, err := loadConfig("", envOf(map[string]string{"DISCORD_TOKEN": tc.token})); err != nil {
			t.Errorf("%s: the configuration is refused: %v", tc.name, err)
		}
	}
}

// TestMisnamedToken: with no token in DISCORD_TOKEN, a variable meant to
// hold it is named, its value never quoted: one whose value looks like a
// bot token, not another kind of token, nor a _FILE variable's path.
func TestMisnamedToken(t *testing.T) {
	tests := []struct {
		environ []string
		want    string
	}{
		{[]string{"discord_token=MTIz.abc.secret"}, "discord_token is set, but the bot reads its token only from DISCORD_TOKEN, in capitals: name the variable so"},
		{[]string{"HOME=/root", "DISCORD_BOT_TOKEN=MTIz.abc.secret"}, "DISCORD_BOT_TOKEN is set, but the bot reads its token only from DISCORD_TOKEN: name the variable so"},
		{[]string{"BOT_TOKEN=MTIz.abc.secret"}, "BOT_TOKEN is set, but the bot reads its token only from DISCORD_TOKEN"},
		{[]string{"DISCORD_TOKEN=", "TOKEN=MTIz.abc.secret"}, "TOKEN is set, but the bot reads its token only from DISCORD_TOKEN"},
		{[]string{"BOT_TOKEN=\"Bot MTIz.abc.secret\"\n"}, "BOT_TOKEN is set, but the bot reads its token only from DISCORD_TOKEN"}, // as cleanToken reads DISCORD_TOKEN
		{[]string{"GITHUB_TOKEN=ghp_secret", "STRATEGOBOT_TOKEN=MTIz.abc.secret", "DISCORD_TOKEN="}, ""},
		// A value no bot token is: another kind of token, a path, a placeholder.
		{[]string{"DISCORD_TOKEN=", "TOKEN=ghp_secret"}, ""},
		{[]string{"DISCORD_TOKEN_FILE=/run/secrets/discord.token"}, ""},
		{[]string{"DISCORD_TOKEN_FILE=MTIz.abc.secret"}, ""},
		{[]string{"DISCORD_WEBHOOK_TOKEN=Wc3bSeCretSeCretSeCretSeCretSeCret_-secret"}, ""},
		{[]string{"discord_token=your-token"}, ""},
		{[]string{"BOT_TOKEN=MTIz.abc secret.x"}, ""},
		{nil, ""},
	}
	for _, tc := range tests {
		got := misnamedToken(tc.environ)
		if got != tc.want && (tc.want == "" || !strings.HasPrefix(got, tc.want)) {
			t.Errorf("%q: %q, want %q", tc.environ, got, tc.want)
		}
		if strings.Contains(got, "secret") {
			t.Errorf("%q: %q quotes the token", tc.environ, got)
		}
	}
}

// TestDatabasePasswordHidden: a PostgreSQL password, in a URL's user part
// or in its query (?password=), shows neither in the name logged at start
// nor in a logged error that quotes the URL, nor in a configuration error.
func TestDatabasePasswordHidden(t *testing.T) {
	tests := []struct {
		database, want string
	}{
		{"postgres://bot:s3cret@db/x", "postgres://bot:xxxxx@db/x"},
		{"postgres://bot@db/x?password=s3cret&sslmode=require", "postgres://bot@db/x?password=xxxxx&sslmode=require"},
		{"postgresql://bot@db/x?password=s3%26cret", "postgresql://bot@db/x?password=xxxxx"},
		{"postgres://bot@db/x?sslmode=require", "postgres://bot@db/x?sslmode=require"},
		// The password of the client's key (sslpassword), which libpq and pgx take too.
		{"postgres://bot@db/x?sslcert=c.pem&sslkey=k.pem&sslpassword=s3cret", "postgres://bot@db/x?sslcert=c.pem&sslkey=k.pem&sslpassword=xxxxx"},
		{"postgres://bot:s3cret@db/x?password=s3cret&sslpassword=s3%26cret", "postgres://bot:xxxxx@db/x?password=xxxxx&sslpassword=xxxxx"},
		{"strategobot.db", "strategobot.db"},
		{"host=db user=bot password=s3cret dbname=x", "host=db user=bot password=xxxxx dbname=x"},
		{"host=db sslpassword='s3cret key' user=bot", "host=db sslpassword=xxxxx user=bot"},
	}
	for _, tc := range tests {
		if got := databaseName(tc.database); got != tc.want {
			t.Errorf("databaseName(%q) = %q, want %q", tc.database, got, tc.want)
		}
		var log bytes.Buffer
		logger := newLogger(config{Database: tc.database, APIBaseURL: DiscordAPIBaseURL, LogLevel: "info", LogFormat: "text"}, &log)
		logger.Error("strategobot stopped", "error", fmt.Errorf("database %s: failed to connect", tc.database))
		if strings.Contains(log.String(), "s3cret") || strings.Contains(log.String(), "s3%26cret") {
			t.Errorf("%q: the log shows the password:\n%s", tc.database, log.String())
		}
	}
	_, err := loadConfig("", envOf(map[string]string{"STRATEGOBOT_DATABASE": "postgres://bot@db:99999/x?password=s3cret"}))
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "password=xxxxx") {
		t.Errorf("configuration error %v", err)
	}
}

// TestAPIBasePasswordHidden: a password in api_base_url (a proxy's basic
// authentication) shows as xxxxx wherever the bot names the base.
func TestAPIBasePasswordHidden(t *testing.T) {
	tests := []struct{ base, want string }{
		{"https://bot:s3cret@proxy.example.org/api/v9/", "https://bot:xxxxx@proxy.example.org/api/v9/"},
		{"http://127.0.0.1:8080/api/v9/", "http://127.0.0.1:8080/api/v9/"},
		{DiscordAPIBaseURL, DiscordAPIBaseURL},
	}
	for _, tc := range tests {
		if got := shownBase(tc.base); got != tc.want {
			t.Errorf("shownBase(%q) = %q, want %q", tc.base, got, tc.want)
		}
		err := nameBase(fmt.Errorf("Get %q: connection refused", discordgo.EndpointAPI+"gateway"), tc.base)
		if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), strings.TrimSuffix(tc.want, "/")) {
			t.Errorf("%q: the error says %q", tc.base, err)
		}
	}
}

// TestTypeHintQuotes: a value of the wrong kind is told which kind the key
// takes, and to drop the quotes only when it had them.
func TestTypeHintQuotes(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ line, want string }{
		{`max_open_challenges = 1.5`, "line 1: max_open_challenges is a whole number"},
		{`max_open_challenges = true`, "line 1: max_open_challenges is a whole number"},
		{`max_open_challenges = "5"`, "line 1: max_open_challenges is a whole number, without quotes"},
		{`max_open_challenges = '5'`, "line 1: max_open_challenges is a whole number, without quotes"},
		{`threads = 1`, "line 1: threads is true or false"},
		{`threads = yes`, "line 1: threads is true or false"},
		{`threads = [true]`, "line 1: threads is true or false"},
		{`threads = "true"`, "line 1: threads is true or false, without quotes"},
		{`guild_id = 1234`, `line 1: guild_id is text in quotes, like guild_id = "…"`},
		// A value the decoder stops inside, unquoted: told what the key
		// takes, not where the decoder's reading broke off.
		{`default_move_time = 24h`, `line 1: default_move_time is a duration in quotes, like "24h"`},
		{`challenge_expiry = 7d # a week`, `line 1: challenge_expiry is a duration in quotes, like "24h"`},
		{`  "backup_every" = 6h`, `line 1: backup_every is a duration in quotes, like "24h"`},
		{`backup_dir = /var/backups/strategobot`, `line 1: backup_dir is text in quotes, like backup_dir = "…"`},
		{`web_addr = 127.0.0.1:8080`, `line 1: web_addr is text in quotes, like web_addr = "…"`},
		{`metrics_addr = :9464`, `line 1: metrics_addr is text in quotes, like metrics_addr = "…"`},
		{`guild_id = 12345678901234567a`, `line 1: guild_id is text in quotes, like guild_id = "…"`},
		{`backup_keep = 7x`, "line 1: backup_keep is a whole number"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, "c.toml")
		if err := os.WriteFile(path, []byte(tc.line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := loadConfig(path, noEnv)
		if want := "config " + path + ": " + tc.want; err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", tc.line, err, want)
		}
	}
}

// TestLogFormatAnyCase: log_format is read in any case, as log_level is
// ("DEBUG"): "JSON" writes JSON, "Text" text.
func TestLogFormatAnyCase(t *testing.T) {
	dir := t.TempDir()
	for format, want := range map[string]string{"JSON": `{"time":`, "Json": `{"time":`, "Text": "time=", "TEXT": "time="} {
		path := filepath.Join(dir, "bot.toml")
		if err := os.WriteFile(path, []byte("log_level = \"DEBUG\"\nlog_format = \""+format+"\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := loadConfig(path, noEnv)
		if err != nil {
			t.Fatalf("log_format %q: %v", format, err)
		}
		var log bytes.Buffer
		newLogger(cfg, &log).Debug("started")
		if !strings.HasPrefix(log.String(), want) {
			t.Errorf("log_format %q writes %q, want it to start with %q", format, log.String(), want)
		}
	}
}

// TestValueNamesItsSource: a value out of range names where it came from,
// the file's line or the environment variable, and the file's line that a
// variable wins over, as a value of the wrong kind does.
func TestValueNamesItsSource(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, file string
		env        map[string]string
		want       string
	}{
		{"in the file", "threads = true\n\ndefault_move_time = \"1m\"\n", nil,
			"config: default_move_time 1m (from FILE line 3) must be between 5m and 7d"},
		{"in the environment, over the file", "default_move_time = \"3d\"\n", map[string]string{"STRATEGOBOT_DEFAULT_MOVE_TIME": "30d"},
			"config: default_move_time 30d (from STRATEGOBOT_DEFAULT_MOVE_TIME, which wins over FILE line 1) must be between 5m and 7d"},
		{"in the environment alone", "", map[string]string{"STRATEGOBOT_DEFAULT_MOVE_TIME": "30d"},
			"config: default_move_time 30d (from STRATEGOBOT_DEFAULT_MOVE_TIME) must be between 5m and 7d"},
		{"a quoted key", "  \"backup_keep\" = 0 # none\n", nil, "config: backup_keep 0 (from FILE line 1) must be at least 1"},
		{"two keys", "shard_id = 2\nshard_count = 1\n", nil,
			"config: shard_id 2 (from FILE line 1) must be below shard_count 1 (from FILE line 2): the shards are numbered from 0"},
		{"a key from the file beside a default", "shard_id = 1\n", nil,
			"config: shard_id 1 (from FILE line 1) must be below shard_count 1: the shards are numbered from 0"},
		{"no shards", "shard_count = 0\n", nil, "config: shard_count 0 (from FILE line 1) must be at least 1"},
		{"a shard below 0", "shard_id = -1\nshard_count = 2\n", nil, "config: shard_id -1 (from FILE line 1) must be at least 0"},
		{"a word", "log_format = \"yaml\"\n", nil, `config: log_format "yaml" (from FILE line 1) must be text or json`},
		{"a level", "", map[string]string{"STRATEGOBOT_LOG_LEVEL": "loud"}, `config: log_level "loud" (from STRATEGOBOT_LOG_LEVEL) must be debug, info, warn or error`},
		{"a public_url", "web_addr = \"127.0.0.1:8080\"\npublic_url = \"stratego.example.org\"\n", nil,
			`config: public_url "stratego.example.org" (from FILE line 2): write the address players open`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "bot.toml")
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := loadConfig(path, envOf(tc.env))
			want := strings.ReplaceAll(tc.want, "FILE", path)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %v, want %q", err, want)
			}
		})
	}
}
