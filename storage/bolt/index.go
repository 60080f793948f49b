package bolt

import (
	bbolt "go.etcd.io/bbolt"

	"github.com/strategobot/strategobot/storage"
)

// indexEntry is one key of an index bucket; index values are empty.
type indexEntry struct {
	bucket []byte
	key    string
}

// matchIndex lists the index keys of a match: one per player and per channel
// (and thread), in its active or finished range, and its next timer.
func matchIndex(m *storage.Match) []indexEntry {
	if m == nil {
		return nil
	}
	state := byte(stateFinished)
	if m.Phase.Active() {
		state = stateActive
	}
	id := idKey(uint64(m.ID))
	var e []indexEntry
	add := func(bucket []byte, name string) {
		if name != "" {
			e = append(e, indexEntry{bucket, string(append(prefixKey(name, state), id...))})
		}
	}
	add(bucketByPlayer, m.Players[0].UserID)
	add(bucketByPlayer, m.Players[1].UserID)
	add(bucketByChannel, m.ChannelID)
	if m.ThreadID != m.ChannelID {
		add(bucketByChannel, m.ThreadID)
	}
	if d, ok := storage.MatchTimer(m); ok {
		e = append(e, indexEntry{bucketTimers, string(timerKey(d.At, d.Kind, d.ID))})
	}
	return e
}

// updateIndexes deletes the entries only in old and puts those only in new.
func updateIndexes(tx *bbolt.Tx, old, new []indexEntry) error {
	has := func(list []indexEntry, x indexEntry) bool {
		for _, y := range list {
			if y.key == x.key && string(y.bucket) == string(x.bucket) {
				return true
			}
		}
		return false
	}
	for _, x := range old {
		if !has(new, x) {
			if err := tx.Bucket(x.bucket).Delete([]byte(x.key)); err != nil {
				return err
			}
		}
	}
	for _, x := range new {
		if !has(old, x) {
			if err := tx.Bucket(x.bucket).Put([]byte(x.key), []byte{}); err != nil {
				return err
			}
		}
	}
	return nil
}
