package bot

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestMetrics: a match and a move, counted as an operator sees them.
func TestMetrics(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	metrics := NewMetrics(reg)
	h := newHarness(t, func(c *Config) { c.Metrics = metrics })
	h.startClassic()
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.bot.deliverDue(context.Background())
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	value := func(name string, labels map[string]string) float64 {
		for _, f := range families {
			if f.GetName() != name {
				continue
			}
		metrics:
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if want, ok := labels[l.GetName()]; ok && want != l.GetValue() {
						continue metrics
					}
				}
				return metricValue(m)
			}
		}
		return -1
	}
	tests := []struct {
		name   string
		labels map[string]string
		want   func(float64) bool
	}{
		{"strategobot_moves_total", nil, func(v float64) bool { return v == 1 }},
		{"strategobot_matches_total", map[string]string{"event": "started"}, func(v float64) bool { return v == 1 }},
		{"strategobot_interactions_total", map[string]string{"kind": "command", "outcome": "ok"}, func(v float64) bool { return v >= 2 }},
		{"strategobot_interactions_total", map[string]string{"kind": "component", "outcome": "ok"}, func(v float64) bool { return v >= 3 }},
		{"strategobot_outbox_notices_total", map[string]string{"outcome": "delivered"}, func(v float64) bool { return v >= 8 }},
		{"strategobot_outbox_depth", nil, func(v float64) bool { return v == 0 }},
		{"strategobot_render_seconds", nil, func(v float64) bool { return v >= 3 }}, // samples
		// Three pictures of 16 bands at least; the harness's renderer is shared, so more.
		{"strategobot_picture_bands_total", nil, func(v float64) bool { return v >= 48 }},
		{"strategobot_picture_bands_reused_total", nil, func(v float64) bool { return v > 0 && v < value("strategobot_picture_bands_total", nil) }},
		{"strategobot_database_seconds", map[string]string{"op": "apply_move"}, func(v float64) bool { return v == 1 }},
	}
	for _, tc := range tests {
		if v := value(tc.name, tc.labels); !tc.want(v) {
			t.Errorf("%s%v = %v", tc.name, tc.labels, v)
		}
	}
}

// metricValue is a counter's or gauge's value, or a histogram's count.
func metricValue(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	return -1
}

// gather returns the value of the one metric of family name on reg, and
// whether reg has it.
func gather(t *testing.T, reg *prometheus.Registry, name string) (float64, bool) {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return metricValue(f.GetMetric()[0]), true
		}
	}
	return 0, false
}

// TestOutboxDepthCountsEveryNotice: the depth gauge counts every notice
// owed, also those behind their queue's oldest, not only the queues' heads
// that may be tried.
func TestOutboxDepthCountsEveryNotice(t *testing.T) {
	t.Parallel()
	db, err := bolt.Open(bolt.Options{Path: filepath.Join(t.TempDir(), "bot.db"), NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reg := prometheus.NewRegistry()
	metrics := NewMetrics(reg)
	metrics.watchOutbox(db)
	if v, _ := gather(t, reg, "strategobot_outbox_depth"); v != 0 {
		t.Errorf("an empty outbox: depth %v", v)
	}
	m := storagetest.Started(t, db, storagetest.NewMatch(game.VariantClassic), 1)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range 2 { // two moves undelivered: three queues of two
		side, mv := storagetest.RandomMove(t, m, r)
		if m, _, err = db.ApplyMove(context.Background(), m.ID, m.Version, side, mv, storagetest.T0.Add(time.Duration(i+1)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := gather(t, reg, "strategobot_outbox_depth"); v != 6 {
		t.Errorf("two moves' notices owed: depth %v, want 6", v)
	}
}

// TestBackupMetrics: a store that makes its own backups (bbolt's
// backup_dir) shows when the newest was taken and how many failed, for an
// alert; without backups the two metrics are absent, not 0, so that an
// alert on an old backup does not fire.
func TestBackupMetrics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	taken := T0.Add(-time.Hour)
	backups := filepath.Join(dir, "backups")
	if err := os.Mkdir(backups, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(backups, "strategobot-"+taken.Format("20060102T150405Z")+".db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts bolt.Options
		on   bool
	}{
		{"off", bolt.Options{Path: filepath.Join(dir, "plain.db")}, false},
		// The next backup is due in 23 hours: none is made meanwhile.
		{"on", bolt.Options{Path: filepath.Join(dir, "backed.db"), BackupDir: backups, BackupEvery: 24 * time.Hour,
			Now: func() time.Time { return T0 }}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.NoSync = true
			db, err := bolt.Open(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			reg := prometheus.NewRegistry()
			New(Config{Metrics: NewMetrics(reg)}, nil, db, nil)
			last, ok := gather(t, reg, "strategobot_backup_last_success_timestamp_seconds")
			failures, fok := gather(t, reg, "strategobot_backup_failures_total")
			switch {
			case !tc.on && (ok || fok):
				t.Errorf("backups off: the metrics are there (%v %v)", last, failures)
			case tc.on && (!ok || last != float64(taken.Unix())):
				t.Errorf("last success %v (%v), want %d", last, ok, taken.Unix())
			case tc.on && (!fok || failures != 0):
				t.Errorf("failures %v (%v), want 0", failures, fok)
			}
		})
	}
	// Failures counted by the store are shown as they are.
	reg := prometheus.NewRegistry()
	NewMetrics(reg).watchBackups(failingBackups{})
	if v, ok := gather(t, reg, "strategobot_backup_failures_total"); !ok || v != 2 {
		t.Errorf("failures %v (%v), want 2", v, ok)
	}
	if v, ok := gather(t, reg, "strategobot_backup_last_success_timestamp_seconds"); !ok || v != 0 {
		t.Errorf("no backup yet: last success %v (%v), want 0", v, ok)
	}
}

// failingBackups is a store's backups that have all failed, twice.
type failingBackups struct{}

func (failingBackups) Backups() (time.Time, uint64, bool) { return time.Time{}, 2, true }
