package storagetest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

func testPlayers(t *testing.T, s storage.Store) {
	ctx := context.Background()
	p := must(s.Player(ctx, "1001")).in(t)
	if p.UserID != "1001" || p.Numbering != game.NumberingModern || p.NoReminders || !p.DMsReach() || len(p.Setups) != 0 || p.Version != 0 || p.Locale != "" || p.DMChannel != "" {
		t.Fatalf("defaults: %+v", p)
	}
	classic := game.RandomSetup(game.DefaultRules(game.VariantClassic), 4)
	custom := game.DefaultRules(game.VariantCustom)
	custom.Army = must(game.ParseArmy("10 2 2 B F", game.NumberingModern)).in(t)
	customSetup := game.RandomSetup(custom, 5)
	p = must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		p.Numbering = game.NumberingClassic
		p.NoReminders = true
		p.NoOwnMoves = true
		p.Locale = "nl"
		p.DMChannel = "7001"
		p.DMBlockedAt = T0
		if err := p.SaveSetup(storage.SavedSetup{Name: "wall", Variant: game.VariantClassic, Setup: classic, Saved: T0}); err != nil {
			return err
		}
		if err := p.SaveSetup(storage.SavedSetup{Name: "Tiny", Variant: game.VariantCustom, Army: custom.Army, Setup: customSetup, Saved: T0}); err != nil {
			return err
		}
		p.Defaults = map[game.Variant]string{game.VariantClassic: "wall"}
		return nil
	})).in(t)
	if p.Version != 1 {
		t.Errorf("version %d after one update", p.Version)
	}
	got := must(s.Player(ctx, "1001")).in(t)
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("loaded %+v\nwant %+v", got, p)
	}
	if got.Setups[0].Name != "Tiny" || got.Setups[1].Army != game.VariantClassic.Army() {
		t.Errorf("saved set-ups not sorted by name or army not set: %+v", got.Setups)
	}
	if s, ok := got.SavedSetup("WALL"); !ok || s.Setup != classic {
		t.Errorf("SavedSetup is not case-insensitive or lost the set-up")
	}
	boom := errors.New("boom")
	_, err := s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error { p.NoReminders = false; return boom })
	wantErr(t, "fn error", err, boom)
	p = must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		if !p.DeleteSetup("tiny") {
			return errors.New("no set-up tiny")
		}
		p.DMBlockedAt = time.Time{} // a DM got through again
		return nil
	})).in(t)
	if len(p.Setups) != 1 || !p.DMsReach() || !p.NoReminders || p.Version != 2 {
		t.Errorf("after the second update: %+v", p)
	}
	if other := must(s.Player(ctx, "1002")).in(t); other.Version != 0 {
		t.Errorf("another player changed: %+v", other)
	}
}

// testPlayersOnVacation: the players whose last vacation ends after a time
// are listed, by user id, as each change of their settings leaves it: a
// vacation begun, ended early, taken back, and one of last year.
func testPlayersOnVacation(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	change := func(user string, fn func(p *storage.PlayerSettings) error) {
		t.Helper()
		must(s.UpdatePlayer(ctx, user, fn)).in(t)
	}
	change("1003", func(p *storage.PlayerSettings) error { return p.StartVacation(T0, 5) })
	change("1001", func(p *storage.PlayerSettings) error { return p.StartVacation(T0.Add(day), 2) })
	change("1002", func(p *storage.PlayerSettings) error { p.Locale = "nl"; return nil }) // never on vacation
	change("1004", func(p *storage.PlayerSettings) error { return p.StartVacation(T0.Add(-400*day), 10) })
	steps := []struct {
		name   string
		change func() // nil: none
		at     time.Time
		want   []string
	}{
		{name: "at their start", at: T0.Add(day), want: []string{"1001", "1003"}},
		{name: "a second before the first ends", at: T0.Add(3*day - time.Second), want: []string{"1001", "1003"}},
		{name: "as the first ends", at: T0.Add(3 * day), want: []string{"1003"}},
		{name: "one ended early", change: func() {
			change("1003", func(p *storage.PlayerSettings) error { p.EndVacation(T0.Add(day)); return nil })
		}, at: T0.Add(day), want: []string{"1001"}},
		{name: "one taken back", change: func() {
			change("1001", func(p *storage.PlayerSettings) error { p.CancelVacation(T0.Add(day)); return nil })
		}, at: T0, want: []string{"1003"}},
		{name: "one begun again", change: func() {
			change("1001", func(p *storage.PlayerSettings) error { return p.StartVacation(T0.Add(2*day), 3) })
		}, at: T0.Add(4 * day), want: []string{"1001"}},
		{name: "all over", at: T0.Add(5 * day), want: nil},
	}
	for _, step := range steps {
		if step.change != nil {
			step.change()
		}
		got := must(s.PlayersOnVacation(ctx, step.at)).in(t)
		if !reflect.DeepEqual(got, step.want) && (len(got) > 0 || len(step.want) > 0) {
			t.Errorf("%s: players on vacation at %v: %v, want %v", step.name, step.at, got, step.want)
		}
	}
}

// testVacationKeptToTheSecond: a vacation set by the caller's function with
// a fraction of a second is kept to the second, as a player's other times
// are (storage.PreparePlayer): UpdatePlayer returns it as a reload gives it
// back, and PlayersOnVacation lists the player by that end. Before, the
// record kept whole seconds, and PostgreSQL's index of vacations the
// fraction too, so that it listed a player whose vacation, read back, had
// ended, and bbolt did not.
func testVacationKeptToTheSecond(t *testing.T, s storage.Store) {
	ctx := context.Background()
	day := 24 * time.Hour
	got := must(s.UpdatePlayer(ctx, "1001", func(p *storage.PlayerSettings) error {
		p.Vacations = []storage.Vacation{{Start: T0.Add(250 * time.Millisecond), End: T0.Add(day + 750*time.Millisecond)}}
		return nil
	})).in(t)
	want := []storage.Vacation{{Start: T0, End: T0.Add(day)}}
	if !reflect.DeepEqual(got.Vacations, want) {
		t.Errorf("UpdatePlayer returned vacations %v, want them to the second, %v", got.Vacations, want)
	}
	if p := must(s.Player(ctx, "1001")).in(t); !reflect.DeepEqual(p.Vacations, want) {
		t.Errorf("vacations read back: %v, want %v", p.Vacations, want)
	}
	for _, st := range []struct {
		at   time.Time
		want []string
	}{
		{T0.Add(day - time.Second), []string{"1001"}},
		{T0.Add(day), nil},
		{T0.Add(day + 500*time.Millisecond), nil},
	} {
		if got := must(s.PlayersOnVacation(ctx, st.at)).in(t); !slices.Equal(got, st.want) {
			t.Errorf("players on vacation at %v: %v, want %v", st.at, got, st.want)
		}
	}
}

// PlayerRecord is a player's settings as a backend stores them: the user
// and the encoded record.
type PlayerRecord struct{ ID, Record string }

// RecordsBeforeTheVacationIndex are player records as a backend kept them
// before it indexed players by the end of their last vacation: one with two
// vacations, one with one, one with none; and two that cannot be read, one
// written by a newer strategobot, on vacation, and one damaged, which hold
// up no other: the migration indexes each by the vacations its record
// lists, as PostgreSQL's does in SQL, and none when it lists none (before,
// bbolt's migration failed at the first, and the file could not be
// opened). A backend's migration test writes them at the old schema,
// migrates, and calls CheckVacationIndex.
func RecordsBeforeTheVacationIndex() []PlayerRecord {
	return []PlayerRecord{
		{"1001", `{"v":2,"id":"1001","ver":3,"vacations":[[1700000000,1700086400],[1740000000,1740432000]]}`},
		{"1002", `{"v":2,"id":"1002","ver":1,"vacations":[[1700000000,1700086400]]}`},
		{"1003", `{"v":2,"id":"1003","ver":1}`},
		{"1004", `{"v":99,"id":"1004","ver":1,"vacations":[[1740000000,1750000000]]}`},
		{"1005", `{"v":2,"id":"1005","ver":1,"setups":7}`},
	}
}

// CheckVacationIndex checks that s, migrated from
// RecordsBeforeTheVacationIndex, lists each player on vacation after a time
// by the end of their last vacation.
func CheckVacationIndex(t *testing.T, s interface {
	PlayersOnVacation(ctx context.Context, at time.Time) ([]string, error)
}) {
	t.Helper()
	tests := []struct {
		at   int64
		want []string
	}{
		{1699999999, []string{"1001", "1002", "1004"}},
		{1700086400, []string{"1001", "1004"}},
		{1740431999, []string{"1001", "1004"}},
		{1740432000, []string{"1004"}},
		{1750000000, nil},
	}
	for _, tc := range tests {
		got, err := s.PlayersOnVacation(context.Background(), time.Unix(tc.at, 0))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("on vacation after %d: %v, want %v", tc.at, got, tc.want)
		}
	}
}
