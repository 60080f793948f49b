package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
)

// serve wires storage, pictures and the Discord session together and runs the
// bot until ctx ends (SIGINT or SIGTERM).
func serve(ctx context.Context, cfg config, logger *slog.Logger) error {
	info, _ := debug.ReadBuildInfo()
	logger.Info("starting", "version", versionLine(info), "database", databaseName(cfg.Database), "api", shownBase(cfg.APIBaseURL))
	db, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	pics, err := render.New()
	if err != nil {
		return err
	}
	session, err := newSession(cfg.Token, cfg.APIBaseURL)
	if err != nil {
		return err
	}
	// Each process serves its shards' servers; Discord sends DMs to shard 0.
	session.ShardID, session.ShardCount = cfg.ShardID, cfg.ShardCount
	var metrics *bot.Metrics
	reg := newRegistry()
	if cfg.MetricsAddr != "" {
		metrics = bot.NewMetrics(reg)
	}
	limits := bot.Limits{OpenChallenges: cfg.OpenChallenges, PracticeMatches: cfg.PracticeMatches, ComputerThinkers: cfg.Thinkers}
	if os.Getenv("GOMAXPROCS") == "" {
		// The computer thinks at the lowest priority on Ps of its own, so
		// that people's moves keep every core (bot.Limits.GoProcs).
		runtime.GOMAXPROCS(limits.GoProcs(runtime.GOMAXPROCS(0)))
	}
	b := bot.New(bot.Config{
		Metrics:         metrics,
		Shared:          postgres.IsURL(cfg.Database),
		GuildID:         cfg.GuildID,
		Threads:         cfg.Threads,
		DefaultMoveTime: time.Duration(cfg.DefaultMoveTime),
		ChallengeExpiry: time.Duration(cfg.ChallengeExpiry),
		Limits:          limits,
		Logger:          logger,
	}, session, db, pics)
	if cfg.WebAddr != "" {
		handler, err := b.EnableWeb(ctx, cfg.PublicURL)
		if err != nil {
			return err
		}
		stopWeb, err := serveWeb(cfg.WebAddr, cfg.PublicURL, handler, logger)
		if err != nil {
			return err
		}
		defer stopWeb()
	}
	if cfg.MetricsAddr != "" {
		if err := serveMetrics(ctx, cfg.MetricsAddr, cfg.Profiling, reg, b, logger); err != nil {
			return err
		}
	}
	return b.Run(ctx)
}

// openStore opens the database the configuration names: the PostgreSQL
// server of a postgres:// URL, or else a bbolt file.
func openStore(ctx context.Context, cfg config, logger *slog.Logger) (storage.Store, error) {
	if postgres.IsURL(cfg.Database) {
		db, err := postgres.Open(ctx, postgres.Options{URL: cfg.Database, Reminders: bot.Reminders, Logger: logger})
		if err != nil {
			return nil, err
		}
		return db, nil
	}
	if info, err := os.Stat(cfg.Database); err == nil && info.IsDir() {
		return nil, configError{fmt.Errorf("database %s is a folder: set database to a file, such as %s", cfg.Database, filepath.Join(cfg.Database, bolt.DefaultPath))}
	}
	if err := checkBackupDir(cfg.BackupDir); err != nil {
		return nil, err
	}
	return openUnlessStopped(ctx, func() (storage.Store, error) {
		db, err := bolt.Open(bolt.Options{
			Path:        cfg.Database,
			BackupDir:   cfg.BackupDir,
			BackupEvery: time.Duration(cfg.BackupEvery),
			BackupKeep:  cfg.BackupKeep,
			Reminders:   bot.Reminders,
			Logger:      logger,
		})
		if errors.Is(err, storage.ErrInUse) {
			return nil, fmt.Errorf("%w: stop that one first, or give this one a database of its own "+
				"(several processes share a PostgreSQL database, not a bbolt file)", err)
		}
		if err != nil {
			return nil, err
		}
		return db, nil
	})
}

// errConfig marks an error at start that only a change of the
// configuration, or of the files and folders it names, mends: run exits 2.
var errConfig = errors.New("the configuration must change")

// configError is an error of errConfig.
type configError struct{ err error }

func (e configError) Error() string   { return e.err.Error() }
func (e configError) Unwrap() []error { return []error{e.err, errConfig} }

// checkBackupDir makes sure at start that the bot may write its backups in
// dir, creating dir itself (not its parents) if need be: the first backup
// is made backup_every later, when a mistake would show in the log alone.
// A folder above dir that does not exist is a mistake, such as a misspelt
// path, that creating it would hide.
func checkBackupDir(dir string) error {
	if dir == "" {
		return nil
	}
	fail := func(err error) error {
		return configError{fmt.Errorf("backup_dir %s: the bot may not write its backups there (%w): create that folder and let the user the bot runs as write in it, or set backup_dir to another one "+
			"(a systemd unit with ProtectSystem=strict may write only in its ReadWritePaths)", dir, err)}
	}
	info, err := os.Stat(dir)
	switch {
	case err == nil && !info.IsDir():
		return configError{fmt.Errorf("backup_dir %s is a file, not a folder: set backup_dir to a folder, such as %s", dir, filepath.Join(filepath.Dir(dir), "backups"))}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		parent := filepath.Dir(filepath.Clean(dir))
		if file := bolt.FileAbove(dir); file != "" {
			return configError{fmt.Errorf("backup_dir %s: %s is a file, not a folder: set backup_dir to a folder in one that exists", dir, file)}
		}
		if info, err := os.Stat(parent); err != nil || !info.IsDir() {
			return configError{fmt.Errorf("backup_dir %s: the folder %s does not exist: create it, or set backup_dir to a folder in one that exists (the bot creates backup_dir itself, not the folders above it)", dir, parent)}
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fail(err)
		}
	case err != nil:
		return fail(err)
	}
	f, err := os.CreateTemp(dir, ".strategobot-write-test-*")
	if err != nil {
		return fail(err)
	}
	f.Close()
	if err := os.Remove(f.Name()); err != nil {
		// Backups could be written there, but old ones not removed.
		return fail(err)
	}
	return nil
}

// openUnlessStopped runs open, which takes no context, and returns as soon
// as ctx ends: bbolt waits up to bolt.DefaultTimeout for another
// process's lock, longer than a stop may take. A store opened after that is
// closed.
func openUnlessStopped(ctx context.Context, open func() (storage.Store, error)) (storage.Store, error) {
	type opened struct {
		db  storage.Store
		err error
	}
	done := make(chan opened, 1)
	go func() {
		db, err := open()
		done <- opened{db, err}
	}()
	select {
	case o := <-done:
		return o.db, o.err
	case <-ctx.Done():
		go func() {
			if o := <-done; o.err == nil {
				_ = o.db.Close()
			}
		}()
		return nil, fmt.Errorf("open the database: %w", ctx.Err())
	}
}

// databaseName is the database as logs and messages may show it: a
// postgres:// URL without its passwords (postgres.Redacted).
func databaseName(database string) string {
	if !postgres.IsURL(database) {
		return keywordPassword.ReplaceAllString(database, "${1}xxxxx")
	}
	return postgres.Redacted(database)
}

// keywordPassword matches a password in a database named by keywords
// ("host=db password=…"): the bbolt file of a bot that ran with one before
// such names were refused (config.validate) is named so.
var keywordPassword = regexp.MustCompile(`((?:^|\s)(?:ssl)?password\s*=\s*)(?:'[^']*'|\S+)`)

// hidePassword rewords err without the passwords of a postgres:// URL,
// should an error quote the URL whole rather than as postgres.Redacted
// shows it: in the query (?password=, ?sslpassword=) and the user part.
func hidePassword(err error, database string) error {
	if err == nil {
		return err
	}
	if !postgres.IsURL(database) {
		if shown := databaseName(database); shown != database && strings.Contains(err.Error(), database) {
			return &rebasedError{msg: strings.ReplaceAll(err.Error(), database, shown), err: err}
		}
		return err
	}
	u, perr := url.Parse(database)
	if perr != nil {
		return err
	}
	msg := err.Error()
	for _, key := range []string{"password", "sslpassword"} { // as postgres.Redacted hides them
		if pw := u.Query().Get(key); pw != "" {
			for _, secret := range []string{url.QueryEscape(pw), url.PathEscape(pw), pw} {
				msg = strings.ReplaceAll(msg, key+"="+secret, key+"=xxxxx")
			}
		}
	}
	if pw, ok := u.User.Password(); ok && pw != "" {
		raw := strings.TrimPrefix(u.User.String(), u.User.Username()+":")
		for _, secret := range []string{raw, pw} {
			msg = strings.ReplaceAll(msg, ":"+secret+"@", ":xxxxx@")
		}
	}
	if msg == err.Error() {
		return err
	}
	return &rebasedError{msg: msg, err: err}
}

// newSession makes a discordgo session whose REST calls go to apiBase instead
// of Discord's own API when they differ (a REST proxy such as nirn-proxy, or
// a local stand-in). discordgo's endpoints are package variables fixed at
// start-up, so the session gets an HTTP client that rewrites the address of
// each request rather than changing them.
func newSession(token, apiBase string) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("create the Discord session: %w", err)
	}
	s.MaxRestRetries = 5
	// discordgo logs its errors alone (logLibrariesTo sends them to the
	// bot's log): its warnings and debug lines may quote what the gateway
	// sends, members' messages included.
	s.LogLevel = discordgo.LogError
	base, err := url.Parse(apiBase)
	if err != nil {
		return nil, fmt.Errorf("api_base_url: %w", err)
	}
	// The outbox sends several messages at once, and members' answers go
	// alongside: Go's default of two idle connections a host would open and
	// close a connection for most requests.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 32
	s.Client = &http.Client{Timeout: 20 * time.Second, Transport: transport}
	if strings.TrimSuffix(apiBase, "/")+"/" != discordgo.EndpointAPI {
		s.Client.Transport = &rebase{to: base, next: transport}
	}
	return s, nil
}

// rebase sends requests for Discord's API to another base URL.
type rebase struct {
	to   *url.URL
	next http.RoundTripper
}

func (r *rebase) RoundTrip(req *http.Request) (*http.Response, error) {
	const prefix = "/api/v9/"
	if !strings.HasPrefix(req.URL.Path, prefix) {
		return r.next.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host = r.to.Scheme, r.to.Host
	out.URL.Path = strings.TrimSuffix(r.to.Path, "/") + "/" + strings.TrimPrefix(req.URL.Path, prefix)
	out.URL.RawPath = ""
	out.Host = r.to.Host
	return r.next.RoundTrip(out)
}

// nameBase words err with the configured API base in place of Discord's own
// address. discordgo builds each request on https://discord.com/api/v9/ and
// the session's transport sends it to apiBase, so an error of the HTTP
// client names an address the bot never used.
func nameBase(err error, apiBase string) error {
	base := strings.TrimSuffix(shownBase(apiBase), "/") + "/"
	if err == nil || base == discordgo.EndpointAPI || !strings.Contains(err.Error(), discordgo.EndpointAPI) {
		return err
	}
	return &rebasedError{msg: strings.ReplaceAll(err.Error(), discordgo.EndpointAPI, base), err: err}
}

// shownBase is the api_base_url as logs and errors show it: a password in
// it (a proxy's basic authentication) as xxxxx, also in one that does not
// parse or has no "//" after its scheme, which the configuration refuses
// by quoting it.
func shownBase(apiBase string) string {
	if u, err := url.Parse(apiBase); err == nil && u.Opaque == "" {
		return u.Redacted()
	}
	at := strings.LastIndex(apiBase, "@")
	if at < 0 {
		return apiBase
	}
	start := 0
	if i := strings.Index(apiBase[:at], "://"); i >= 0 {
		start = i + len("://")
	}
	user, _, password := strings.Cut(apiBase[start:at], ":")
	if !password {
		return apiBase
	}
	return apiBase[:start] + user + ":xxxxx" + apiBase[at:]
}

// rebasedError is an error reworded by nameBase; it still wraps the original.
type rebasedError struct {
	msg string
	err error
}

func (e *rebasedError) Error() string { return e.msg }
func (e *rebasedError) Unwrap() error { return e.err }
