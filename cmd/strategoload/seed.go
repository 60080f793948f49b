package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/strategobot/strategobot/bot"
	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/storage/bolt"
	"github.com/strategobot/strategobot/storage/postgres"
)

// seed builds the stand-in's world, a channel and two members per match,
// and writes the running matches into the database, both set-ups done and
// what their start owes already delivered.
func (r *loadRun) seed(ctx context.Context, database string) ([]*loadMatch, error) {
	o := r.opts
	fmt.Fprintf(o.log, "writing %d running matches…\n", o.matches)
	club := r.srv.AddGuild("Load test")
	matches := make([]*loadMatch, o.matches)
	for k := range matches {
		m := &loadMatch{wake: make(chan struct{}, 1)}
		m.channel = club.AddChannel(fmt.Sprintf("match-%d", k+1))
		m.players[game.Red] = club.AddMember(fmt.Sprintf("red%d", k+1))
		m.players[game.Blue] = club.AddMember(fmt.Sprintf("blue%d", k+1))
		r.inbox[m.players[game.Red].DM().ID] = loadSlot{m, 0}
		r.inbox[m.players[game.Blue].DM().ID] = loadSlot{m, 1}
		r.inbox[m.channel.ID] = loadSlot{m, 2}
		matches[k] = m
	}
	db, err := openSeedStore(ctx, database)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if o.pages > 0 {
		if r.webKey, err = webKey(ctx, db); err != nil {
			return nil, err
		}
	}
	rules := game.DefaultRules(game.VariantClassic)
	now := time.Now()
	work := make(chan int)
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				lm := matches[k]
				m := &storage.Match{GuildID: lm.channel.GuildID, ChannelID: lm.channel.ID, Rules: rules, MoveTime: 24 * time.Hour,
					Casual: true, Phase: storage.PhaseSetup, Created: now}
				for side, p := range lm.players {
					m.Players[side] = storage.Player{UserID: p.ID, Name: p.Name}
				}
				m, err := db.CreateMatch(ctx, m)
				for side := range 2 {
					if err == nil {
						m, err = db.SetSetup(ctx, m.ID, 0, game.Side(side), game.RandomSetup(rules, o.seed*1_000_003+uint64(2*k+side)), storage.SetupConfirmed, now)
					}
				}
				if err == nil {
					lm.id = m.ID
					lm.game, err = m.Game()
				}
				if err != nil {
					errs <- fmt.Errorf("write match %d: %w", k+1, err)
					return
				}
			}
		}()
	}
	var failed error
feed:
	for k := range matches {
		select {
		case work <- k:
		case failed = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	if failed == nil && len(errs) > 0 {
		failed = <-errs
	}
	if failed != nil {
		return nil, failed
	}
	// The starts' messages are not part of the measure: they count as sent.
	for {
		due, err := db.DueNotices(ctx, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 1000)
		if err != nil {
			return nil, fmt.Errorf("read the starts' notices: %w", err)
		}
		if len(due) == 0 {
			break
		}
		for _, n := range due {
			if err := db.NoticeDone(ctx, n.ID, now); err != nil {
				return nil, fmt.Errorf("drop a start's notice: %w", err)
			}
		}
	}
	return matches, nil
}

// openSeedStore opens the database to write the matches into; a bbolt file
// without fsync, as a bulk load.
func openSeedStore(ctx context.Context, database string) (storage.Store, error) {
	if postgres.IsURL(database) {
		return postgres.Open(ctx, postgres.Options{URL: database, Reminders: bot.Reminders, Logger: slog.New(slog.DiscardHandler)})
	}
	return bolt.Open(bolt.Options{Path: database, NoSync: true, Reminders: bot.Reminders})
}

// waitRegistered waits until the bot has registered its command, which it
// does once it is connected and ready.
func (r *loadRun) waitRegistered(ctx context.Context, proc *loadBot) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		r.mu.Lock()
		n := r.requests["PUT /applications/{application_id}/commands"]
		r.mu.Unlock()
		if n > 0 {
			return nil
		}
		select {
		case <-proc.exited:
			return fmt.Errorf("the bot stopped at start; its log:\n%s", proc.tail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the bot did not register its command within 2 minutes; its log:\n%s", proc.tail())
		}
	}
}
