package storagetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

func testServers(t *testing.T, s storage.Store) {
	ctx := context.Background()
	d := must(s.Server(ctx, "9001")).in(t)
	if !reflect.DeepEqual(d, &storage.ServerSettings{GuildID: "9001"}) || !d.AllowsChannel("any") || d.VacationAllowance() != storage.DefaultVacationDays {
		t.Fatalf("defaults: %+v", d)
	}
	off, five, limit, noVacations := false, 5, 0, 0 // chosen values that are also zero values must survive
	want := storage.ServerSettings{GuildID: "9001", Version: 1, Channels: []string{"1", "2"}, Board: storage.BoardLive,
		Variant: game.VariantBarrage, MoveTime: 2 * time.Hour, NoPractice: true, StarterRole: "77", OrganiserRole: "78",
		Rules: storage.RuleDefaults{TwoSquares: &five, MoreSquares: &off, MaxMoves: &limit}, VacationDays: &noVacations, CommandChecked: true}
	got := must(s.UpdateServer(ctx, "9001", func(x *storage.ServerSettings) error {
		x.Channels, x.Board, x.Variant, x.MoveTime, x.NoPractice, x.StarterRole = want.Channels, want.Board, want.Variant, want.MoveTime, want.NoPractice, want.StarterRole
		x.Rules, x.VacationDays, x.OrganiserRole, x.CommandChecked = want.Rules, want.VacationDays, want.OrganiserRole, want.CommandChecked
		x.GuildID, x.Version = "other", 99 // the store's, whatever fn says
		return nil
	})).in(t)
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("after the update: %+v, want %+v", got, want)
	}
	if loaded := must(s.Server(ctx, "9001")).in(t); !reflect.DeepEqual(*loaded, want) {
		t.Errorf("loaded: %+v, want %+v", loaded, want)
	}
	rules := game.DefaultRules(game.VariantClassic)
	got.Rules.Apply(&rules)
	if rules.TwoSquares != 5 || rules.MoreSquares || !rules.ScoutStrikesAtRange || rules.MaxMoves != 0 {
		t.Errorf("the server's rule defaults applied: %+v", rules)
	}
	if got.VacationAllowance() != 0 {
		t.Errorf("vacations turned off read back as an allowance of %d days", got.VacationAllowance())
	}
	if !got.AllowsChannel("2") || got.AllowsChannel("3") {
		t.Errorf("channel list %v allows the wrong channels", got.Channels)
	}
	for _, bad := range []func(x *storage.ServerSettings){
		func(x *storage.ServerSettings) { x.MoveTime = time.Minute },
		func(x *storage.ServerSettings) { x.Board = storage.BoardLive + 1 },
		func(x *storage.ServerSettings) { x.Channels = make([]string, storage.MaxServerChannels+1) },
		func(x *storage.ServerSettings) { four := 4; x.Rules.TwoSquares = &four },
		func(x *storage.ServerSettings) { many := game.MaxMovesLimit + 1; x.Rules.MaxMoves = &many },
		func(x *storage.ServerSettings) { many := storage.MaxVacationDays + 1; x.VacationDays = &many },
		func(x *storage.ServerSettings) { fewer := -1; x.VacationDays = &fewer },
	} {
		_, err := s.UpdateServer(ctx, "9001", func(x *storage.ServerSettings) error { bad(x); return nil })
		wantErr(t, "a bad server setting", err, storage.ErrInvalid)
	}
	refused := errors.New("refused")
	if _, err := s.UpdateServer(ctx, "9001", func(*storage.ServerSettings) error { return refused }); !errors.Is(err, refused) {
		t.Errorf("fn's error: %v", err)
	}
	if loaded := must(s.Server(ctx, "9001")).in(t); loaded.Version != 1 {
		t.Errorf("refused updates changed the settings: %+v", loaded)
	}
	testServerVacationDays(t, s)
	testServerBoard(t, s)
	if _, err := s.Server(ctx, ""); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("no guild id: %v", err)
	}
}

// testServerVacationDays: a server's vacation allowance tells no choice (the
// default) from vacations turned off (zero) and from a number of days, and
// each reads back as it was written.
func testServerVacationDays(t *testing.T, s storage.Store) {
	ctx := context.Background()
	days := func(n int) *int { return &n }
	for _, tc := range []struct {
		name  string
		set   *int
		allow int
	}{
		{"ten days", days(10), 10},
		{"off", days(0), 0},
		{"the most", days(storage.MaxVacationDays), storage.MaxVacationDays},
		{"no choice again", nil, storage.DefaultVacationDays},
		{"off again", days(0), 0},
	} {
		got := must(s.UpdateServer(ctx, "9002", func(x *storage.ServerSettings) error { x.VacationDays = tc.set; return nil })).in(t)
		loaded := must(s.Server(ctx, "9002")).in(t)
		for what, x := range map[string]*storage.ServerSettings{"updated": got, "loaded": loaded} {
			if (x.VacationDays == nil) != (tc.set == nil) || x.VacationAllowance() != tc.allow {
				t.Errorf("%s: %s: vacation days %v, allowance %d, want %d", tc.name, what, x.VacationDays, x.VacationAllowance(), tc.allow)
			}
		}
	}
}

// testServerBoard: a server's choice of boards tells no choice (the bot's
// default) from a choice of a new picture per move, the zero value's old
// meaning, and each reads back as it was written.
func testServerBoard(t *testing.T, s storage.Store) {
	ctx := context.Background()
	for _, mode := range []storage.BoardMode{storage.BoardPerMove, storage.BoardThread, storage.BoardDefault, storage.BoardLive, storage.BoardPerMove} {
		got := must(s.UpdateServer(ctx, "9003", func(x *storage.ServerSettings) error { x.Board = mode; return nil })).in(t)
		loaded := must(s.Server(ctx, "9003")).in(t)
		if got.Board != mode || loaded.Board != mode {
			t.Errorf("boards %v: updated %v, loaded %v", mode, got.Board, loaded.Board)
		}
	}
}
