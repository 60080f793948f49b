package bot

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
)

// TestUnreadableNoticesFillNoLimit: more notices that cannot be read
// (damaged, or written by a newer strategobot) than a read of the outbox
// takes at once come before a real one, frank's set-up invitation, due a
// minute after them; and one of them is held back already. The loop
// sleeps until frank's invitation is due, not until that hold ends (an
// hour at most), and the pass then sends it. Before, each read of the due
// notices counted them in its limit: the look-ahead of the loop read
// nothing else and it slept until the hold ended, and the pass met only
// them and returned with frank's invitation unsent, breaking its promise
// that every notice due at its start is sent or put off (for up to three
// passes).
func TestUnreadableNoticesFillNoLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := h.srv.AddGuild("Another Club")
	dave, erin := other.AddMember("dave"), other.AddMember("erin")
	frank, gina := other.AddMember("frank"), other.AddMember("gina")
	h.shutdown()
	ctx := context.Background()
	db, err := bolt.Open(bolt.Options{Path: h.dbPath, NoSync: true, Reminders: Reminders})
	if err != nil {
		t.Fatal(err)
	}
	newMatch := func(red, blue string) {
		m := &storage.Match{GuildID: other.ID, ChannelID: other.General().ID, Rules: game.DefaultRules(game.VariantClassic),
			MoveTime: 24 * time.Hour, Created: h.clock.Now()}
		m.Players[game.Red] = storage.Player{UserID: red, Name: red}
		m.Players[game.Blue] = storage.Player{UserID: blue, Name: blue}
		if _, err := db.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	// putOff puts every notice due off to at, and returns their ids.
	putOff := func(at time.Time) []uint64 {
		due, err := db.DueNotices(ctx, farFuture, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, n := range due {
			if _, err := db.NoticeRetry(ctx, n.ID, at); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, n.ID)
		}
		return ids
	}
	for range 40 {
		newMatch(dave.ID, erin.ID)
	}
	start := h.clock.Now()
	bad := putOff(start.Add(time.Minute))
	if len(bad) <= outboxLookAhead+1 {
		t.Fatalf("%d notices owed, want more than %d", len(bad), outboxLookAhead+1)
	}
	newMatch(frank.ID, gina.ID)
	readableAt := start.Add(2 * time.Minute)
	putOff(readableAt)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := bbolt.Open(h.dbPath, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bbolt.Tx) error {
		for _, id := range bad {
			if err := tx.Bucket([]byte("outbox")).Put(binary.BigEndian.AppendUint64(nil, id), []byte(`{"v":99}`)); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	h.start()
	// One of them met by an earlier pass and held back past frank's
	// invitation's time; the others not met yet.
	held := timerKey{kind: holdNotice, id: bad[0]}
	for until := start; !until.After(readableAt); {
		until = h.bot.outboxHolds.failed(held, start)
	}
	next, ok, err := h.bot.outboxNext(ctx)
	if err != nil || !ok || !next.Equal(readableAt) {
		t.Errorf("the outbox's loop sleeps until %v (%v, %v), want %v, when frank's invitation is due", next, ok, err, readableAt)
	}
	h.advance(2 * time.Minute)
	if n := countDMs(frank, "Send me your secret set-up"); n != 1 {
		t.Errorf("frank got %d invitations by the end of the pass at the time it was due, want 1", n)
	}
	if n := countDMs(dave, "Send me your secret set-up"); n != 0 {
		t.Errorf("dave got %d invitations from notices that cannot be read", n)
	}
}
