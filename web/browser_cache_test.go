package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// countingWriter counts the bytes of an answer's body.
type countingWriter struct {
	http.ResponseWriter
	n *int
}

func (w countingWriter) Write(b []byte) (int, error) {
	*w.n += len(b)
	return w.ResponseWriter.Write(b)
}

func (w countingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// TestBrowserAssetsCached: a player opens the board from each DM of a
// match, many times a day on a phone: the second time, the browser takes
// the page's script, style and pictures from its cache (the script and the
// style are named by their build, ?v=, and cached for good; a picture is
// asked again and answered "not modified"), rather than fetch them whole
// again. The texts and the state come anew, as always.
func TestBrowserAssetsCached(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	var mu sync.Mutex
	sent := map[string]int{} // the bytes of each static file's bodies
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/static/") {
			f.srv.ServeHTTP(w, r)
			return
		}
		n := 0
		f.srv.ServeHTTP(countingWriter{w, &n}, r)
		mu.Lock()
		sent[r.URL.Path] += n
		mu.Unlock()
	}))
	defer func() { ts.CloseClientConnections(); ts.Close() }() // the page's event stream too
	open := func() map[string]int {
		t.Helper()
		mu.Lock()
		clear(sent)
		mu.Unlock()
		if err := chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(ts.URL+"/board#"+f.token(m.ID, game.RedViewer)),
			chromedp.WaitVisible(chromedp.CSS(`#resign`)),
			chromedp.Poll[chromedp.Void](`document.querySelector(".sq.red") !== null && getComputedStyle(document.querySelector(".sq.red")).backgroundImage.indexOf("tile-red") >= 0`),
		); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		got := map[string]int{}
		for p, n := range sent {
			got[p] = n
		}
		return got
	}
	first := open()
	if first["/static/board.js"] == 0 || first["/static/board.css"] == 0 {
		t.Fatalf("the first load fetched no script or style: %v", first)
	}
	second := open()
	total := 0
	for _, n := range second {
		total += n
	}
	if total > 0 {
		t.Errorf("the second load fetched %d bytes of static files again: %v", total, second)
	}
}

// TestAssetCacheHeaders: only an asset asked for under the build served is
// kept for good; under another build's name (an old page's link after an
// upgrade, which this bot answers with its own build's file) or none, it is
// asked again, and answered "not modified" while it is the same.
func TestAssetCacheHeaders(t *testing.T) {
	f := newFixture(t)
	get := func(path, etag string) (int, http.Header) {
		t.Helper()
		req, _ := http.NewRequest("GET", f.ts.URL+path, nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	for _, tt := range []struct {
		path    string
		forGood bool
	}{
		{"/static/board.js?v=" + f.srv.buildName(), true},
		{"/static/board.css?v=" + f.srv.buildName(), true},
		{"/static/board.js?v=0123456789ab", false},
		{"/static/board.js", false},
		{"/static/lake.svg", false},
	} {
		code, h := get(tt.path, "")
		cc, etag := h.Get("Cache-Control"), h.Get("ETag")
		if code != 200 || etag == "" || strings.Contains(cc, "immutable") != tt.forGood || (!tt.forGood && cc != "no-cache") {
			t.Errorf("%s: %d, Cache-Control %q, ETag %q", tt.path, code, cc, etag)
			continue
		}
		if code, _ := get(tt.path, etag); code != http.StatusNotModified {
			t.Errorf("%s asked again with its ETag: %d, want 304", tt.path, code)
		}
	}
	if code, h := get("/static/none.svg", ""); code != http.StatusNotFound || strings.Contains(h.Get("Cache-Control"), "immutable") || h.Get("ETag") != "" {
		t.Errorf("a file that is not there: %d, Cache-Control %q, ETag %q", code, h.Get("Cache-Control"), h.Get("ETag"))
	}
	// A folder lists nothing: the page names each file it needs.
	for _, path := range []string{"/static/", "/static/?v=" + f.srv.buildName()} {
		if code, _ := get(path, ""); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, code)
		}
	}
}
