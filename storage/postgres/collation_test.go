package postgres

import (
	"context"
	"slices"
	"testing"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/pgtest"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// TestUserOrderInAnyCollation: Followers and PlayersOnVacation list user
// ids in the order of their bytes, as bbolt keeps its keys and as
// Standings breaks its ties (COLLATE "C"), in a database whose collation
// is another: ICU's en-US here, the user_id columns given it, as a
// database made with that locale gives every column. Before, they were
// ordered by the database's collation, which puts "a" before "B".
func TestUserOrderInAnyCollation(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Options{URL: pgtest.NewDatabase(t), Reminders: storagetest.Reminders})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, table := range []string{"followers", "players"} {
		if _, err := db.pool.Exec(ctx, `ALTER TABLE `+table+` ALTER COLUMN user_id TYPE text COLLATE "en-US-x-icu"`); err != nil {
			t.Fatal(err)
		}
	}
	users := []string{"b", "B", "a", "A1"}
	want := slices.Clone(users)
	slices.Sort(want) // bytes: "A1", "B", "a", "b"
	m, err := db.CreateMatch(ctx, storagetest.NewMatch(game.VariantClassic))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if err := db.Follow(ctx, m.ID, u, true); err != nil {
			t.Fatal(err)
		}
		if _, err := db.UpdatePlayer(ctx, u, func(p *storage.PlayerSettings) error { return p.StartVacation(storagetest.T0, 5) }); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := db.Followers(ctx, m.ID); err != nil || !slices.Equal(got, want) {
		t.Errorf("Followers: %q, %v; want %q", got, err, want)
	}
	if got, err := db.PlayersOnVacation(ctx, storagetest.T0); err != nil || !slices.Equal(got, want) {
		t.Errorf("PlayersOnVacation: %q, %v; want %q", got, err, want)
	}
}
