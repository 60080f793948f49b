package bot

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/strategobot/strategobot/internal/discordtest"
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
