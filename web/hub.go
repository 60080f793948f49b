package web

import (
	"crypto/sha256"
	"sync"

	"github.com/strategobot/strategobot/storage"
)

// The hub: the updates of each watched match, for its open event streams.

// hub fans a match's changes out to its open event streams.
type hub struct {
	mu   sync.Mutex
	subs map[storage.MatchID]map[chan update]struct{}
	// last is the update last published for each watched match.
	last map[storage.MatchID]update
}
type update struct {
	version uint64
	started bool // the clock of the side to move is no longer pending
	states  [3][]byte
	keys    [3][sha256.Size]byte // State.Sent's key of each viewer's state
}

// before reports whether u is older than the state sent last, version and
// started: within a version the clock only starts (storage.Changes.StartClock),
// so a pending state that arrives after the started one is stale.
func (u update) before(version uint64, started bool) bool {
	return u.version < version || (u.version == version && started && !u.started)
}
func newHub() *hub {
	return &hub{subs: map[storage.MatchID]map[chan update]struct{}{}, last: map[storage.MatchID]update{}}
}
func (h *hub) subscribe(id storage.MatchID) chan update {
	ch := make(chan update, 4)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[id] == nil {
		h.subs[id] = map[chan update]struct{}{}
	}
	h.subs[id][ch] = struct{}{}
	return ch
}
func (h *hub) unsubscribe(id storage.MatchID, ch chan update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs[id], ch)
	if len(h.subs[id]) == 0 {
		delete(h.subs, id)
		delete(h.last, id)
	}
}
func (h *hub) watched(id storage.MatchID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[id]) > 0
}

// publish hands u to every stream of the match; a stream too far behind
// loses its oldest pending update (each carries the whole state).
//
// A viewer whose state u leaves as the last update left it (its key) is
// handed that update's state again, sent at the time of the change it
// learnt of: a stream that lost that update, behind, sends it as it was,
// not one sent at the time of a change it cannot see (the other side's
// draft), whose time would then tell it when that came.
func (h *hub) publish(id storage.MatchID, u update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs[id]) == 0 {
		return
	}
	if last, ok := h.last[id]; ok {
		for v := range u.states {
			if u.keys[v] == last.keys[v] {
				u.states[v] = last.states[v]
			}
		}
	}
	h.last[id] = u
	for ch := range h.subs[id] {
		for {
			select {
			case ch <- u:
			default:
				select {
				case <-ch:
				default:
				}
				continue
			}
			break
		}
	}
}
