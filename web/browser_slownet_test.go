package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// slowNet serves f's server as a slow phone network does: the requests of
// a path it holds wait until let go, either before the server acts on them
// (the request is still on its way) or after (its answer is), and it counts
// the requests of each path that reached it.
type slowNet struct {
	*httptest.Server
	mu    sync.Mutex
	holds map[string]*hold
	seen  map[string]int
}

// hold is one path's requests held; arrived gets a value as each arrives.
type hold struct {
	after   bool // the server has acted and answered; the answer waits
	open    chan struct{}
	arrived chan struct{}
	done    sync.WaitGroup // the held requests answered
}

func newSlowNet(t *testing.T, f *fixture) *slowNet {
	t.Helper()
	n := &slowNet{holds: map[string]*hold{}, seen: map[string]int{}}
	n.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.mu.Lock()
		n.seen[r.URL.Path]++
		h := n.holds[r.URL.Path]
		n.mu.Unlock()
		if h == nil {
			f.srv.ServeHTTP(w, r)
			return
		}
		h.done.Add(1)
		defer h.done.Done()
		h.arrived <- struct{}{}
		if !h.after {
			<-h.open
			f.srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, r)
		<-h.open
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(func() {
		n.mu.Lock()
		for _, h := range n.holds {
			select {
			case <-h.open:
			default:
				close(h.open)
			}
		}
		n.mu.Unlock()
		n.CloseClientConnections()
		n.Close()
	})
	return n
}

// hold holds path's requests from now on (after: their answers), until the
// function it returns lets them all go; it returns once they are answered.
func (n *slowNet) hold(path string, after bool) (h *hold, letGo func()) {
	h = &hold{after: after, open: make(chan struct{}), arrived: make(chan struct{}, 16)}
	n.mu.Lock()
	n.holds[path] = h
	n.mu.Unlock()
	return h, func() {
		n.mu.Lock()
		delete(n.holds, path)
		n.mu.Unlock()
		close(h.open)
		h.done.Wait()
	}
}

// count is how many requests of path have reached the network.
func (n *slowNet) count(path string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.seen[path]
}

// waitFor waits until a held request has arrived.
func (h *hold) waitFor(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-h.arrived:
	case <-ctx.Done():
		t.Fatalf("%s never came", what)
	}
}
