package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
)

// flaky answers the first requests of each listed path with a status, as a
// busy or restarting server would, and passes the rest on.
type flaky struct {
	next http.Handler
	mu   sync.Mutex
	fail map[string][]int // path → statuses still to answer with
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	statuses := f.fail[r.URL.Path]
	if len(statuses) > 0 {
		f.fail[r.URL.Path] = statuses[1:]
	}
	f.mu.Unlock()
	if len(statuses) > 0 {
		httpError(w, statuses[0], "busy")
		return
	}
	f.next.ServeHTTP(w, r)
}

// TestBrowserRetries: texts and events refused for a while (too many
// requests, a server's failure) are asked for again until they come.
func TestBrowserRetries(t *testing.T) {
	g, _ := attackOrInfiltrate(t)
	w := &world{m: playingMatch(g)}
	w.srv = New(Options{Auth: viewerAuth{}, Matches: w, Rate: 1e9})
	f := &flaky{next: w.srv, fail: map[string][]int{
		"/api/texts":  {http.StatusServiceUnavailable, http.StatusTooManyRequests},
		"/api/events": {http.StatusTooManyRequests, http.StatusBadGateway},
	}}
	w.ts = httptest.NewServer(f)
	t.Cleanup(func() { w.ts.CloseClientConnections(); w.ts.Close() })
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.ts.URL+"/board#"+strconv.Itoa(int(game.PublicViewer)))); err != nil {
		t.Fatal(err)
	}
	browsertest.Wait(t, ctx, "the board after the retries", `document.querySelectorAll(".sq.red").length > 0 && !document.body.dataset.refused`)
	f.mu.Lock()
	defer f.mu.Unlock()
	for path, left := range f.fail {
		if len(left) > 0 {
			t.Fatalf("%s was not asked again", path)
		}
	}
}
