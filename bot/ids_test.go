package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

func TestCustomIDs(t *testing.T) {
	tests := []customID{
		{kind: kindChallenge, action: actAccept, id: 7, arg: "random"},
		{kind: kindSetup, action: actConfirm, id: 123456789, version: 42},
		{kind: kindMove, action: actTarget, id: 18446744073709551615, version: 18446744073709551615, arg: "J10", menu: 3},
		{kind: kindMove, action: actPiece, id: 4, version: 9, menu: 1},
		{kind: kindMoveAt, action: actBack, id: 4},
		{kind: kindMoveAt, action: actTarget, id: 4, version: 300, arg: "B5"},
		{kind: kindResign, action: actNo, id: 1},
	}
	for _, c := range tests {
		s := c.String()
		if len(s) > 100 {
			t.Errorf("%q is longer than Discord's 100 characters", s)
		}
		back, err := parseCustomID(s)
		if err != nil || back != c {
			t.Errorf("%q -> %+v, %v; want %+v", s, back, err, c)
		}
	}
	for _, bad := range []string{"", "ch", "ch:acc", "ch:acc:x", "ch:acc:1:y", "mv:piece:1:2::x", "mv:piece:1:2::-1"} {
		if _, err := parseCustomID(bad); err == nil {
			t.Errorf("parseCustomID(%q) accepted", bad)
		}
	}
}

func TestChallengeTerms(t *testing.T) {
	b := New(Config{}, nil, nil, nil)
	tests := []struct {
		name  string
		opts  options
		want  string // error text, or "" for success
		check func(game.Rules, time.Duration, string) bool
		nl    string // the error as a Dutch member reads it, when given
	}{
		{"defaults", options{}, "", func(r game.Rules, d time.Duration, side string) bool {
			return r == game.DefaultRules(game.VariantClassic) && d == 24*time.Hour && side == "random"
		}, ""},
		{"barrage, 1 hour, red", stringOpts(optVariant, "Barrage", optMoveTime, "1h", optSide, "red"), "", func(r game.Rules, d time.Duration, side string) bool {
			return r.Variant == game.VariantBarrage && d == time.Hour && side == "red"
		}, ""},
		{"custom without army", stringOpts(optVariant, "Custom"), "Custom needs an army", nil, ""},
		{"army without custom", stringOpts(optArmy, "10 2 F"), "is for Custom matches", nil, ""},
		{"bad army", stringOpts(optVariant, "Custom", optArmy, "10 2 B"), "exactly one Flag", nil, "Dat leger werkt niet: een leger heeft precies één Vlag nodig, dit heeft er 0."},
		{"unknown piece", stringOpts(optVariant, "Custom", optArmy, "10 2 Q F"), "Q", nil, "Dat leger werkt niet:"},
		{"bad two squares", func() options {
			o := stringOpts(optVariant, "Custom", optArmy, "10 2 2 B F")
			o[optTwoSquares] = &discordgo.ApplicationCommandInteractionDataOption{Name: optTwoSquares, Type: discordgo.ApplicationCommandOptionInteger, Value: float64(4)}
			return o
		}(), "two_squares is 3, 5 or off, not 4", nil, "Die regels werken niet: two_squares is 3, 5 of uit, niet 4."},
		{"custom", stringOpts(optVariant, "Custom", optArmy, "10 2 2 B F"), "", func(r game.Rules, _ time.Duration, _ string) bool {
			return r.Army[game.Scout] == 2 && r.Army.Total() == 5
		}, ""},
		{"too short", stringOpts(optMoveTime, "1m"), "between 5 minutes and 7 days", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, d, side, err := b.challengeTerms(tc.opts, &storage.ServerSettings{}, game.NumberingModern)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				if got := b.explain(lang.For("nl"), err, "challenge"); tc.nl != "" && !strings.Contains(got, tc.nl) {
					t.Errorf("in Dutch: %q, want %q", got, tc.nl)
				}
				return
			}
			if err != nil || !tc.check(r, d, side) {
				t.Fatalf("got %+v %v %q %v", r, d, side, err)
			}
		})
	}
	if got := rulesSummary(lang.Printer{}, game.DefaultRules(game.VariantClassic), storage.MaxMoveTime, storage.TimeControl{}); got != "Classic · 7 days per move" {
		t.Errorf("summary %q", got)
	}
}

// stringOpts builds string options from name, value pairs.
func stringOpts(kv ...string) options {
	o := options{}
	for k := 0; k+1 < len(kv); k += 2 {
		o[kv[k]] = &discordgo.ApplicationCommandInteractionDataOption{Name: kv[k], Type: discordgo.ApplicationCommandOptionString, Value: kv[k+1]}
	}
	return o
}
