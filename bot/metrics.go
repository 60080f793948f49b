package bot

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
	"github.com/strategobot/strategobot/storage"
)

// Metrics are what an operator watches: moves, matches, interactions by
// outcome, Discord's errors by code, the outbox, how long pictures and the
// database take, and the database's own backups. They register on the
// registry the caller gives (main makes one; there is no global registry);
// nil Metrics count nothing.
type Metrics struct {
	moves        prometheus.Counter
	matches      *prometheus.CounterVec // by event: started, finished, abandoned
	interactions *prometheus.CounterVec // by kind and outcome
	discord      *prometheus.CounterVec // Discord's errors, by HTTP status and JSON code
	delivered    *prometheus.CounterVec // outbox notices, by outcome
	render       prometheus.Histogram
	database     *prometheus.HistogramVec // by operation
	outbox       func() float64           // the notices owed, counted at scrape time
	bands        func() (bands, reused uint64)
	backups      backupReporter // nil: the store makes no backups of its own
}

// backupReporter is a store that makes periodic backups of its own
// (bbolt's backup_dir: bolt.DB.Backups): when the newest was taken (zero:
// none yet), how many failed since the start, and whether it makes any.
type backupReporter interface {
	Backups() (last time.Time, failures uint64, on bool)
}

var (
	backupLastDesc = prometheus.NewDesc("strategobot_backup_last_success_timestamp_seconds",
		"When the newest periodic backup in backup_dir (bbolt) was taken, in unix seconds, by its name: read at the start, then at each backup made; 0 before the first. Absent when backups are off.", nil, nil)
	backupFailuresDesc = prometheus.NewDesc("strategobot_backup_failures_total",
		"Periodic backups that failed since the start (the copy not made, or older ones not removed); the log says why. Absent when backups are off.", nil, nil)
)

// backupCollector shows the store's backups, when it makes any: nothing
// when it does not, so that an alert on an old backup stays quiet.
type backupCollector struct{ m *Metrics }

func (c backupCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- backupLastDesc
	ch <- backupFailuresDesc
}

func (c backupCollector) Collect(ch chan<- prometheus.Metric) {
	if c.m.backups == nil {
		return
	}
	last, failures, on := c.m.backups.Backups()
	if !on {
		return
	}
	var at float64
	if !last.IsZero() {
		at = float64(last.Unix())
	}
	ch <- prometheus.MustNewConstMetric(backupLastDesc, prometheus.GaugeValue, at)
	ch <- prometheus.MustNewConstMetric(backupFailuresDesc, prometheus.CounterValue, float64(failures))
}

// NewMetrics makes the bot's metrics and registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		moves: prometheus.NewCounter(prometheus.CounterOpts{Name: "strategobot_moves_total", Help: "Moves played, by people and the computer."}),
		matches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "strategobot_matches_total",
			Help: "Matches started, finished (with a result) and called off."}, []string{"event"}),
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "strategobot_interactions_total",
			Help: "Interactions answered (ok) or not (failed: Discord refused the answer or it was late), by kind."}, []string{"kind", "outcome"}),
		discord: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "strategobot_discord_errors_total",
			Help: "Errors Discord answered, by HTTP status and JSON error code (0: none)."}, []string{"status", "code"}),
		delivered: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "strategobot_outbox_notices_total",
			Help: "Outbox notices handled: delivered, retried later, or given up (unreachable or refused)."}, []string{"outcome"}),
		render: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "strategobot_render_seconds",
			Help: "Drawing and encoding one board picture.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 12)}),
		database: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "strategobot_database_seconds",
			Help: "Database operations, by operation.", Buckets: prometheus.ExponentialBuckets(0.0002, 2, 14)}, []string{"op"}),
	}
	reg.MustRegister(m.moves, m.matches, m.interactions, m.discord, m.delivered, m.render, m.database, backupCollector{m},
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "strategobot_outbox_depth",
			Help: "Notices in the outbox: recorded and neither delivered nor given up, due or waiting (a retry's time, an older notice of their queue); -1: the database did not answer."},
			func() float64 {
				if m.outbox == nil {
					return 0
				}
				return m.outbox()
			}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "strategobot_picture_bands_total",
			Help: "Bands of pictures encoded (a picture is compressed in horizontal bands)."},
			func() float64 { b, _ := m.bandStats(); return float64(b) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "strategobot_picture_bands_reused_total",
			Help: "Bands of pictures found compressed already, in this or an earlier picture: a low share means the picture cache is too small for the load."},
			func() float64 { _, r := m.bandStats(); return float64(r) }))
	return m
}

// bandStats reads the renderer's band counts, once watchRenderer was called.
func (m *Metrics) bandStats() (bands, reused uint64) {
	if m.bands == nil {
		return 0, 0
	}
	return m.bands()
}

// watchRenderer lets the picture counters read the renderer's.
func (m *Metrics) watchRenderer(pics *render.Renderer) {
	if m != nil && pics != nil {
		m.bands = pics.BandStats
	}
}

// watchOutbox lets the depth gauge count the store's outbox: every
// notice, read at each scrape without decoding one (CountNotices).
func (m *Metrics) watchOutbox(store storage.Store) {
	if m == nil {
		return
	}
	m.outbox = func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		n, err := store.CountNotices(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	}
}

// watchBackups lets the backup metrics read the store's backups.
func (m *Metrics) watchBackups(store backupReporter) {
	if m != nil {
		m.backups = store
	}
}

func (m *Metrics) moved() {
	if m != nil {
		m.moves.Inc()
	}
}

func (m *Metrics) match(event string) {
	if m != nil {
		m.matches.WithLabelValues(event).Inc()
	}
}

var interactionKinds = map[discordgo.InteractionType]string{
	discordgo.InteractionApplicationCommand:             "command",
	discordgo.InteractionApplicationCommandAutocomplete: "autocomplete",
	discordgo.InteractionMessageComponent:               "component",
	discordgo.InteractionModalSubmit:                    "modal",
}

func (m *Metrics) interaction(i *discordgo.Interaction, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "failed"
		m.discordError(err)
	}
	m.interactions.WithLabelValues(interactionKinds[i.Type], outcome).Inc()
}

// discordError counts an error Discord answered; others (the network) are
// not Discord's answers and are left to the logs.
func (m *Metrics) discordError(err error) {
	var rest *discordgo.RESTError
	if m == nil || !errors.As(err, &rest) || rest.Response == nil {
		return
	}
	code := 0
	if rest.Message != nil {
		code = rest.Message.Code
	}
	m.discord.WithLabelValues(strconv.Itoa(rest.Response.StatusCode), strconv.Itoa(code)).Inc()
}

func (m *Metrics) notice(outcome string) {
	if m != nil {
		m.delivered.WithLabelValues(outcome).Inc()
	}
}

// rendered records how long one picture took since start.
func (m *Metrics) rendered(start time.Time) {
	if m != nil {
		m.render.Observe(time.Since(start).Seconds())
	}
}

// timedStore is the bot's store with its hot operations timed.
type timedStore struct {
	storage.Store
	m *Metrics
}

func (s timedStore) observe(op string, start time.Time) {
	s.m.database.WithLabelValues(op).Observe(time.Since(start).Seconds())
}

func (s timedStore) Match(ctx context.Context, id storage.MatchID) (*storage.Match, error) {
	defer s.observe("match", time.Now())
	return s.Store.Match(ctx, id)
}

func (s timedStore) MatchVersion(ctx context.Context, id storage.MatchID) (uint64, error) {
	defer s.observe("match_version", time.Now())
	return s.Store.MatchVersion(ctx, id)
}

func (s timedStore) ApplyMove(ctx context.Context, id storage.MatchID, v uint64, side game.Side, mv game.Move, at time.Time) (*storage.Match, *game.Game, error) {
	defer s.observe("apply_move", time.Now())
	return s.Store.ApplyMove(ctx, id, v, side, mv, at)
}

func (s timedStore) PlayerMatches(ctx context.Context, user string, active bool, limit int) ([]*storage.Match, error) {
	defer s.observe("player_matches", time.Now())
	return s.Store.PlayerMatches(ctx, user, active, limit)
}

func (s timedStore) DueNotices(ctx context.Context, now time.Time, limit int, skip ...uint64) ([]storage.Notice, error) {
	defer s.observe("due_notices", time.Now())
	return s.Store.DueNotices(ctx, now, limit, skip...)
}

func (s timedStore) NoticeDone(ctx context.Context, id uint64, at time.Time, follow ...storage.Notice) error {
	defer s.observe("notice_done", time.Now())
	return s.Store.NoticeDone(ctx, id, at, follow...)
}
