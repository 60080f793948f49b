package bolt

import (
	"bytes"
	"encoding/binary"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// Bucket names. Records live in the first five and in outbox; the rest are
// indexes kept in the same transaction as the records they point to.
var (
	bucketMeta       = []byte("meta")
	bucketMatches    = []byte("matches")    // id → match record
	bucketChallenges = []byte("challenges") // id → challenge record
	bucketPlayers    = []byte("players")    // user id → player settings
	bucketStandings  = []byte("standings")  // guild 0 variant user → standing
	bucketServers    = []byte("servers")    // guild id → server settings
	bucketLeases     = []byte("leases")     // name → expiry (unix ns) and holder
	bucketFollowers  = []byte("followers")  // match id, user id → ""

	bucketByPlayer     = []byte("idx_player")    // user 0 state id → ""
	bucketByChannel    = []byte("idx_channel")   // channel 0 state id → ""
	bucketTimers       = []byte("idx_timer")     // unix kind id → ""
	bucketChallengesBy = []byte("idx_challenge") // 'u'|'c' user-or-channel 0 id → ""
	bucketVacations    = []byte("idx_vacation")  // unix user → "" (the end of each player's last vacation)

	bucketOutbox      = []byte("outbox")           // id → notice record
	bucketOutboxQueue = []byte("idx_outbox_queue") // queue 0 id → ""
	bucketOutboxDue   = []byte("idx_outbox_due")   // unix id → "" (queue heads only)

	allBuckets = [][]byte{bucketMeta, bucketMatches, bucketChallenges, bucketPlayers, bucketStandings,
		bucketByPlayer, bucketByChannel, bucketTimers, bucketChallengesBy,
		bucketOutbox, bucketOutboxQueue, bucketOutboxDue, bucketServers, bucketLeases, bucketFollowers,
		bucketTourneys, bucketTourneyBy, bucketTourneyWake, bucketTourneyGames, bucketVacations}

	keySchema = []byte("schema")
)

// Index states of a match: active matches sort apart from finished ones, so
// listing a player's running games never walks their history.
const (
	stateActive   = 'a'
	stateFinished = 'f'
)

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// prefixKey builds name 0 tag… : the 0 separates names (Discord ids have no NUL).
func prefixKey(name string, tag ...byte) []byte {
	k := make([]byte, 0, len(name)+1+len(tag)+8)
	k = append(k, name...)
	k = append(k, 0)
	return append(k, tag...)
}

// timerKey is the big-endian unix time, the kind and the id: keys sort by
// time, so the next timer is the first key and due ones a prefix of the bucket.
func timerKey(at time.Time, kind storage.DeadlineKind, id uint64) []byte {
	k := make([]byte, 0, 17)
	k = binary.BigEndian.AppendUint64(k, uint64(max(at.Unix(), 0)))
	k = append(k, byte(kind))
	return binary.BigEndian.AppendUint64(k, id)
}

// vacationKey is the big-endian unix time a player's last vacation ends,
// then their user id: keys sort by that end; nil when they took none.
func vacationKey(p *storage.PlayerSettings) []byte {
	end := p.VacationEnds()
	if end.IsZero() {
		return nil
	}
	return append(binary.BigEndian.AppendUint64(nil, uint64(max(end.Unix(), 0))), p.UserID...)
}

func parseTimerKey(k []byte) (storage.Deadline, bool) {
	if len(k) != 17 {
		return storage.Deadline{}, false
	}
	return storage.Deadline{
		At:   time.Unix(int64(binary.BigEndian.Uint64(k)), 0).UTC(),
		Kind: storage.DeadlineKind(k[8]),
		ID:   binary.BigEndian.Uint64(k[9:]),
	}, true
}

// eachReverse calls fn with the ids under prefix, newest (largest) first,
// until fn returns false.
func eachReverse(b *bbolt.Bucket, prefix []byte, fn func(id uint64) bool) {
	c := b.Cursor()
	end := append(append([]byte(nil), prefix...), 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
	k, _ := c.Seek(end)
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Prev() {
		if len(k) == len(prefix)+8 && !fn(binary.BigEndian.Uint64(k[len(prefix):])) {
			return
		}
	}
}

// each calls fn with the ids under prefix, oldest first, until fn returns false.
func each(b *bbolt.Bucket, prefix []byte, fn func(id uint64) bool) {
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) == len(prefix)+8 && !fn(binary.BigEndian.Uint64(k[len(prefix):])) {
			return
		}
	}
}
