package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// A snapshot is a match as one change left it: the stored match, its game
// replayed at most once, and its players' and server's settings, each read
// at most once. Every notice the change owes is composed from it, so that a
// move costs one load and one replay of its match (the one in the move's own
// transaction) however many people are told of it, and each player's
// settings are read once.
//
// The match and the game are never changed: each composer gets its own copy
// of the game (Clone, which costs no replay). The one change that does not
// make a new version, the clock's start when the board of the side to move
// has arrived, makes a new snapshot from this one (clockStarted) by the same
// rule the store applies, storage.Changes.StartClock.
type snapshot struct {
	m      *storage.Match
	shared *snapshotReads
}

// snapshotReads is what the snapshots of one version share: what is read or
// computed at most once for it.
type snapshotReads struct {
	gameOnce sync.Once
	game     *game.Game // the game after the change: at len(m.Log)
	gameErr  error

	mu      sync.Mutex
	players [2]*storage.PlayerSettings
	server  *storage.ServerSettings
}

// newSnapshot returns the snapshot of m. g is m's game when the change
// already replayed it, or nil; known are settings already read for the
// change (the mover's, say), kept for whichever side they belong to.
func newSnapshot(m *storage.Match, g *game.Game, known ...*storage.PlayerSettings) *snapshot {
	s := &snapshot{m: m, shared: &snapshotReads{}}
	if g != nil {
		s.shared.gameOnce.Do(func() { s.shared.game = g.Clone() })
	}
	for _, p := range known {
		if p == nil {
			continue
		}
		if side, ok := m.SideOf(p.UserID); ok {
			s.shared.players[side] = p
		}
	}
	return s
}

// gameAt returns the game after log actions of the match's log, the
// snapshot's own when log is the whole log, and replays it otherwise. replays
// counts the replays made.
func (s *snapshot) gameAt(log int, replays func()) (*game.Game, error) {
	if log != len(s.m.Log) {
		replays()
		return s.m.GameAt(log)
	}
	r := s.shared
	r.gameOnce.Do(func() {
		replays()
		r.game, r.gameErr = s.m.Game()
	})
	if r.gameErr != nil {
		return nil, r.gameErr
	}
	return r.game.Clone(), nil
}

// player returns the settings of the member playing side, read once.
func (s *snapshot) player(side game.Side, read func(user string) *storage.PlayerSettings) *storage.PlayerSettings {
	r := s.shared
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.players[side] == nil {
		r.players[side] = read(s.m.Players[side].UserID)
	}
	return r.players[side]
}

// server returns the settings of the match's server, read once.
func (s *snapshot) server(read func(guildID string) *storage.ServerSettings) *storage.ServerSettings {
	r := s.shared
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.server == nil {
		r.server = read(s.m.GuildID)
	}
	return r.server
}

// clockStarted returns the snapshot once n, the notice that starts the clock
// of the side to move, was done at time at, and false when it starts
// nothing (see storage.Changes.StartClock).
func (s *snapshot) clockStarted(c storage.Changes, n *storage.Notice, at time.Time) (*snapshot, bool) {
	m, ok := c.StartClock(s.m, n, at)
	if !ok {
		return nil, false
	}
	return &snapshot{m: m, shared: s.shared}, true
}

// snapshotCache keeps the latest snapshot of each match changed lately, for
// the outbox. It is filled by the one path after every change (afterChange)
// and by the outbox's own loads, so it always holds the newest version this
// process knows. When several processes share the database, another one may
// have changed the match since: snapshotFor asks the store for its version
// before it trusts a kept snapshot, and a process that takes over the
// outbox forgets them all (another process may have started their clocks).
//
// A clock's start makes no new version, and a change of the same turn
// (a gift of time, a pause, a vacation) may be stored while the board
// that starts it is on its way: it is stored waiting for the board, and the
// store starts its clock when the board arrives, in whichever order the
// bot learns of the two. So the cache keeps each match's latest clock
// starts (starts), and applies them, by the store's rule, to the snapshot
// it keeps and to any newer one put after them: no later notice is told
// the turn as still waiting for its board.
type snapshotCache struct {
	mu      sync.Mutex
	changes storage.Changes
	byMatch map[storage.MatchID]*snapshot
	starts  map[storage.MatchID][]clockStart
}

// clockStart is a notice that started a clock, and when it was done.
type clockStart struct {
	n  storage.Notice
	at time.Time
}

// snapshotsKept bounds the cache: more matches than change at once on a busy
// bot, at a few kilobytes each.
const snapshotsKept = 1024

// newSnapshotCache returns an empty cache that starts clocks by the rules of
// changes (the store's own: storage.Store.Changes).
func newSnapshotCache(changes storage.Changes) *snapshotCache {
	return &snapshotCache{changes: changes, byMatch: make(map[storage.MatchID]*snapshot), starts: make(map[storage.MatchID][]clockStart)}
}

// withStarts returns s with the clock starts known of its match applied, in
// the order they were done (each applies only while it still starts
// something: the same turn, still waiting for that board).
func (c *snapshotCache) withStarts(s *snapshot) *snapshot {
	for _, st := range c.starts[s.m.ID] {
		if next, ok := s.clockStarted(c.changes, &st.n, st.at); ok {
			s = next
		}
	}
	return s
}

// started records that n, a notice that starts a clock, was done at time
// at, and starts the clock in the snapshot kept of its match, whatever its
// version: the store started it in the version it held then. It returns
// the kept snapshot once started, and false when nothing kept changed.
func (c *snapshotCache) started(n storage.Notice, at time.Time) (*snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// One start per audience is enough: a player's next board starts a
	// new turn, which the last one's start no longer applies to.
	starts := c.starts[n.Match][:0:0]
	for _, st := range c.starts[n.Match] {
		if st.n.To != n.To {
			starts = append(starts, st)
		}
	}
	if _, ok := c.starts[n.Match]; !ok && len(c.starts) >= snapshotsKept {
		for id := range c.starts { // any one, as put drops a snapshot
			delete(c.starts, id)
			break
		}
	}
	c.starts[n.Match] = append(starts, clockStart{n: n, at: at})
	s, ok := c.byMatch[n.Match]
	if !ok {
		return nil, false
	}
	next, ok := s.clockStarted(c.changes, &n, at)
	if !ok {
		return nil, false
	}
	c.byMatch[n.Match] = next
	return next, true
}

// put keeps s unless a newer version of its match is kept already. Of the
// same version it keeps what was read and replayed for the one kept (the
// outbox may have loaded and composed from it before the change's own
// snapshot came), and the match whose clock has started further (the
// outbox may have started it meanwhile: clockStarted).
//
// It returns the snapshot kept of the match: s, or s with the clock starts
// the cache knows of (withStarts), or a newer one.
func (c *snapshotCache) put(s *snapshot) *snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s = c.withStarts(s)
	if old, ok := c.byMatch[s.m.ID]; ok && old.m.Version >= s.m.Version {
		if old.m.Version == s.m.Version && clockFurther(old.m, s.m) {
			c.byMatch[s.m.ID] = &snapshot{m: s.m, shared: old.shared}
		}
		return c.byMatch[s.m.ID]
	}
	if _, ok := c.byMatch[s.m.ID]; !ok && len(c.byMatch) >= snapshotsKept {
		for id := range c.byMatch { // any one: the map's order is random
			delete(c.byMatch, id)
			delete(c.starts, id)
			break
		}
	}
	c.byMatch[s.m.ID] = s
	return s
}

// clockFurther reports whether b, a version of a match, has started more of
// its clock than a of the same version: the game's, or more set-up invites
// arrived.
func clockFurther(a, b *storage.Match) bool {
	if a.ClockPending != b.ClockPending {
		return !b.ClockPending
	}
	arrived := func(m *storage.Match) (n int) {
		for _, t := range m.InviteArrived {
			if !t.IsZero() {
				n++
			}
		}
		return n
	}
	return arrived(b) > arrived(a)
}

// get returns the snapshot of match id at version, if kept.
func (c *snapshotCache) get(id storage.MatchID, version uint64) (*snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.byMatch[id]
	if !ok || version == 0 || s.m.Version != version {
		return nil, false
	}
	return s, true
}

// forgetAll drops every snapshot kept.
func (c *snapshotCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.byMatch)
	clear(c.starts)
}

// forget drops what is kept of match id: after a write whose outcome is
// unknown, the next reader loads it.
func (c *snapshotCache) forget(id storage.MatchID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byMatch, id)
	delete(c.starts, id)
}

// snapshotFor returns the snapshot to compose notice n from: the one its
// change left when still kept, or the match as stored now, loaded once and
// kept for the notices that follow.
func (b *Bot) snapshotFor(ctx context.Context, n storage.Notice) (*snapshot, error) {
	if s, ok := b.snapshots.get(n.Match, n.Version); ok && b.stillNewest(ctx, s) {
		return s, nil
	}
	m, err := b.store.Match(ctx, n.Match)
	if err != nil {
		return nil, fmt.Errorf("loading match %d for its notice %d: %w", n.Match, n.ID, unread(err))
	}
	s := newSnapshot(m, nil)
	if kept, ok := b.snapshots.get(m.ID, m.Version); ok {
		// A notice of an earlier change, composed late: the version kept
		// is the one loaded, and what was replayed and read for it serves
		// (a fresh snapshot would replay it again).
		s = &snapshot{m: m, shared: kept.shared}
	}
	return b.snapshots.put(s), nil
}

// stillNewest reports whether s is its match's newest version. Alone on its
// database the bot sees every change, so it is; sharing the database,
// another process may have changed the match since, and the store says.
func (b *Bot) stillNewest(ctx context.Context, s *snapshot) bool {
	if !b.cfg.Shared {
		return true
	}
	v, err := b.store.MatchVersion(ctx, s.m.ID)
	return err == nil && v == s.m.Version
}

// noticeDone records that n was done at time at, with the notices it owes
// next, and starts the clock in the kept snapshot as the store does: the
// notices of the same change still to be composed see the deadline that
// holds, without a new load.
func (b *Bot) noticeDone(ctx context.Context, n storage.Notice, at time.Time, follow ...storage.Notice) error {
	err := b.store.NoticeDone(ctx, n.ID, at, follow...)
	if err == nil {
		b.made.forgetNotice(n.ID)
	}
	if !n.StartsClock || n.Match == 0 {
		return err
	}
	switch {
	case err != nil:
		b.snapshots.forget(n.Match) // the clock may have started or not
	default:
		if next, started := b.snapshots.started(n, at); started {
			b.webChanged(next) // the pages' clocks start too
			break
		}
		b.webClockStarted(ctx, n.Match)
	}
	return err
}

// countReplay counts a replay of a match by the bot itself.
func (b *Bot) countReplay() { b.replays.Add(1) }

// readServer returns how a snapshot reads its server's settings.
func (b *Bot) readServer(ctx context.Context) func(string) *storage.ServerSettings {
	return func(guildID string) *storage.ServerSettings { return b.serverOf(ctx, guildID) }
}
