package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/clocktest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// linkLimits is limits whose link's figures are rate and burst, and whose
// client's and refused figures are too large to bind.
func linkLimits(rate, burst float64) [numScopes]rateLimit {
	l := limitsFor(1e9)
	l[perLink] = rateLimit{rate, burst}
	return l
}

// frozenLimits gives f's server the limits of Options.Rate rate on a clock
// that moves only when the test moves it.
func frozenLimits(f *fixture, rate float64) *clocktest.Clock {
	clock := clocktest.New(storagetest.T0)
	f.srv.limiter = newLimiter(limitsFor(rate))
	f.srv.limiter.now = clock.Now
	return clock
}

// fromClient makes one request as client (as the reverse proxy names it)
// with tok (none when empty), and returns its status; a 429 must be the
// throttled answer, the same words for whoever asks, with the security
// headers.
func fromClient(t *testing.T, f *fixture, path, tok, client string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", f.ts.URL+path, nil)
	if tok != "" {
		req.Header.Set(CapabilityHeader, tok)
	}
	req.Header.Set("X-Forwarded-For", client)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		var body map[string]string
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body) != 1 || body["error"] != lang.For("").Sprintf(txtTooMany) {
			t.Fatalf("%s: the throttled answer says %v (%v), want only the words for too many requests", path, body, err)
		}
		h := resp.Header
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("Cache-Control") != "no-store" {
			t.Fatalf("%s: the throttled answer lacks the security headers: %v", path, h)
		}
	}
	return resp.StatusCode
}

// TestRateLimitClientOverLinks: a client's requests over all its links
// together are limited too, not only each link's: links are had for the
// asking (/stratego watch) and each request replays a game. A player's few
// boards, each as fast as its own limit allows, never meet the client's
// limit; a loop over fifty spectator links does, and another client is not
// held back by it.
func TestRateLimitClientOverLinks(t *testing.T) {
	f := newFixture(t)
	clock := frozenLimits(f, 5)
	var public, red []string
	for i := range 50 {
		m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), uint64(i+1))
		public = append(public, f.token(m.ID, game.PublicViewer))
		red = append(red, f.token(m.ID, game.RedViewer))
	}
	// What a page asks again and again: its state, its texts, a replay's
	// frames.
	paths := []string{"/api/state", "/api/texts", "/api/replay?ply=0"}
	tests := []struct {
		name   string
		client string
		links  []string // asked in turn, rounds times over
		rounds int
		wait   time.Duration // how long the clock moves on before
		wantOK int           // answered 200; the others 429
	}{
		{"a player's three boards and a watched match, each at its own link's whole burst", "198.51.100.1", append(red[:3:3], public[3]), 20, 0, 80},
		{"the same four a second later, each at its own link's rate", "198.51.100.1", append(red[:3:3], public[3]), 5, time.Second, 20},
		{"a loop over fifty spectator links, five times at once", "198.51.100.2", public, 5, 0, ClientLinks * 20},
		{"another client meanwhile", "198.51.100.3", public[:3], 1, 0, 3},
		{"another client on the same links meanwhile", "198.51.100.4", public, 1, 0, 50},
		{"the loop a second later: ClientLinks links' rate, not fifty", "198.51.100.2", public, 2, time.Second, ClientLinks * 5},
		{"the loop a minute later: ClientLinks links' burst, no more", "198.51.100.2", public, 5, time.Minute, ClientLinks * 20},
	}
	for _, tc := range tests {
		clock.Advance(tc.wait)
		ok, n := 0, 0
		for range tc.rounds {
			for _, tok := range tc.links {
				switch code := fromClient(t, f, paths[n%len(paths)], tok, tc.client); code {
				case http.StatusOK:
					ok++
				case http.StatusTooManyRequests:
				default:
					t.Fatalf("%s: request %d answered %d", tc.name, n+1, code)
				}
				n++
			}
		}
		if ok != tc.wantOK {
			t.Errorf("%s: %d of %d requests answered, want %d", tc.name, ok, n, tc.wantOK)
		}
	}
}

// TestRateLimitRefusedLinks: requests with no link or a forged one are
// limited per client too, before anything is looked up, so that a flood of
// them is answered 429; the flood holds back neither another client nor
// the flooding client's own valid links.
func TestRateLimitRefusedLinks(t *testing.T) {
	f := newFixture(t)
	clock := frozenLimits(f, 5)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	valid := f.token(m.ID, game.PublicViewer)
	forged := testSigner(t, 1).Sign(Capability{Match: m.ID, Viewer: game.RedViewer, Expires: f.now.Add(time.Hour)})
	malformed := strings.Repeat("A", len(valid)-1)
	const flooder, other = "198.51.100.66", "2001:db8:7::1"
	tests := []struct {
		name   string
		client string
		tok    string
		times  int
		wait   time.Duration // how long the clock moves on before
		want   int           // each answer's status
	}{
		{"a client's forged links up to one link's burst", flooder, forged, 20, 0, http.StatusForbidden},
		{"the flood's next forged link", flooder, forged, 3, 0, http.StatusTooManyRequests},
		{"the flood's requests with no link", flooder, "", 2, 0, http.StatusTooManyRequests},
		{"the flood's malformed links", flooder, malformed, 2, 0, http.StatusTooManyRequests},
		{"the flooding client's own valid link", flooder, valid, 2, 0, http.StatusOK},
		{"another client's forged link", other, forged, 1, 0, http.StatusForbidden},
		{"another client with no link", other, "", 1, 0, http.StatusForbidden},
		{"another client's valid link", other, valid, 2, 0, http.StatusOK},
		{"the flood a second later: one link's rate", flooder, forged, 5, time.Second, http.StatusForbidden},
		{"and no more", flooder, forged, 1, 0, http.StatusTooManyRequests},
	}
	for _, tc := range tests {
		clock.Advance(tc.wait)
		for i := range tc.times {
			if got := fromClient(t, f, "/api/state", tc.tok, tc.client); got != tc.want {
				t.Fatalf("%s, #%d: %d, want %d", tc.name, i+1, got, tc.want)
			}
		}
	}
}

// TestStreamsPerPerson: a client's open streams are bounded over all its
// links, before many links' MaxStreamsPerLink add up (each board DM and
// each /stratego watch brings a fresh link); a link's own bound still holds
// over all clients, and another client gets its own streams.
func TestStreamsPerPerson(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	full := MaxStreamsPerClient / MaxStreamsPerLink // links whose every page fits the client's bound
	if full*MaxStreamsPerLink != MaxStreamsPerClient {
		t.Fatalf("the table counts on a person's bound of whole links' pages: MaxStreamsPerClient %d, MaxStreamsPerLink %d", MaxStreamsPerClient, MaxStreamsPerLink)
	}
	var links []string
	for i := range full + 1 {
		// A fresh link each time, as each /stratego watch makes.
		links = append(links, f.signer.Sign(Capability{Match: m.ID, Viewer: game.PublicViewer, Expires: f.now.Add(time.Hour + time.Duration(i)*time.Second)}))
	}
	open := func(tok, client string) int {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
		req.Header.Set(CapabilityHeader, tok)
		req.Header.Set("X-Forwarded-For", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp.StatusCode
	}
	const person, other = "198.51.100.7", "198.51.100.8"
	type step struct {
		name   string
		client string
		link   int
		times  int
		want   int
	}
	steps := []step{
		{"a person's first link, its eight pages", person, 0, MaxStreamsPerLink, http.StatusOK},
		{"the first link's ninth page", person, 0, 1, http.StatusTooManyRequests},
	}
	for k := 1; k < full; k++ {
		steps = append(steps, step{fmt.Sprintf("link %d's eight pages", k+1), person, k, MaxStreamsPerLink, http.StatusOK})
	}
	steps = append(steps,
		step{"one more link: the person's own bound", person, full, 1, http.StatusTooManyRequests},
		step{"that link from another client", other, full, 1, http.StatusOK},
		step{"the first link from another client: the link's own bound", other, 0, 1, http.StatusTooManyRequests})
	for _, tc := range steps {
		for i := range tc.times {
			if got := open(links[tc.link], tc.client); got != tc.want {
				t.Fatalf("%s, #%d: %d, want %d", tc.name, i+1, got, tc.want)
			}
		}
	}
}

// TestProxyDocsNameTheLimits: the admin's page on the reverse proxy gives
// the limits a client meets as the server keeps them.
func TestProxyDocsNameTheLimits(t *testing.T) {
	b, err := os.ReadFile("../docs/deploy/reverse-proxy.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	l := limitsFor(defaultRate)
	for _, want := range []string{
		fmt.Sprintf("%g times a second about each board", l[perLink].rate),
		fmt.Sprintf("%g times a second over all its links together (bursts of four times that)", l[perClient].rate),
		fmt.Sprintf("%g times a second with no link or a forged one", l[perRefused].rate),
		fmt.Sprintf("at most %d live pages open, and a link at most %d over all clients", MaxStreamsPerClient, MaxStreamsPerLink),
		fmt.Sprintf("The bot holds at most %d live pages open in all.", MaxStreams),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/deploy/reverse-proxy.md does not say %q", want)
		}
	}
	for s, lim := range l {
		if lim.burst != 4*lim.rate {
			t.Errorf("scope %d: burst %g, the page says four times the rate %g", s, lim.burst, lim.rate)
		}
	}
}

// TestClientNamedWithPort: a reverse proxy that appends the client's
// address with its port to X-Forwarded-For (as some load balancers do)
// names the same client with every new connection, from another port: the
// client is its address, the port aside, or each connection would bring
// another client's limits (its streams, its requests). An IPv6 address
// is its /64 however the proxy writes it: in brackets or not, with a port
// or not.
func TestClientNamedWithPort(t *testing.T) {
	for _, tc := range []struct{ forwarded, want string }{
		{"203.0.113.7", "203.0.113.7"},
		{"203.0.113.7:51234", "203.0.113.7"},
		{"198.51.100.1, 203.0.113.7:40000", "203.0.113.7"},
		{"[2001:db8:1:2::5]:443", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::5", "2001:db8:1:2::/64"},
		{"[::ffff:203.0.113.7]:8080", "203.0.113.7"},
		// IPv6 in brackets without a port, and with a port without
		// brackets: nine groups, or eight and a "::", are no address.
		{"[2001:db8:1:2::9]", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:3:4:5:6:443", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:3:4::6:443", "2001:db8:1:2::/64"},
		{"198.51.100.1, 2001:db8:1:2:3:4:5:6:40000", "2001:db8:1:2::/64"},
		{"::ffff:203.0.113.7:8080", "203.0.113.7"},
		// An address that reads whole is taken whole, its last group no port.
		{"1::2:3:4:5:6:443", "1:0:2:3::/64"},
		// Nothing else is read as an address with a port.
		{"2001:db8:1:2:3:4:5:6:99999", "2001:db8:1:2:3:4:5:6:99999"},
		{"2001:db8:1:2:3:4:5:6:44x", "2001:db8:1:2:3:4:5:6:44x"},
		{"203.0.113.7:80:80", "203.0.113.7:80:80"},
		{"[203.0.113.7]", "[203.0.113.7]"},
		{"[2001:db8:1:2::9", "[2001:db8:1:2::9"},
		{"unknown", "unknown"},
	} {
		r := httptest.NewRequest("GET", "/api/state", nil)
		r.Header.Set("X-Forwarded-For", tc.forwarded)
		if got := clientOf(r); got != tc.want {
			t.Errorf("X-Forwarded-For %q: client %q, want %q", tc.forwarded, got, tc.want)
		}
	}
}

// TestStreamsInAll: the server holds at most its bound of event streams
// open over all links and clients, each within its own bounds (many
// addresses, many links): the next is refused as too many, and a stream
// closed makes room for another.
func TestStreamsInAll(t *testing.T) {
	f := newFixture(t)
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	const bound = 5
	f.srv.streams.max = bound
	link := func(i int) Capability {
		return Capability{Match: m.ID, Viewer: game.PublicViewer, Expires: f.now.Add(time.Hour + time.Duration(i)*time.Second)}
	}
	client := func(i int) string { return fmt.Sprintf("2001:db8:%x::1", i) }
	open := func(i int) int {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/events", nil)
		// A link and an address of its own for each stream.
		req.Header.Set(CapabilityHeader, f.signer.Sign(link(i)))
		req.Header.Set("X-Forwarded-For", client(i))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp.StatusCode
	}
	for i := range bound {
		if got := open(i); got != http.StatusOK {
			t.Fatalf("stream %d of %d: %d", i+1, bound, got)
		}
	}
	if got := open(bound); got != http.StatusTooManyRequests {
		t.Fatalf("one stream more than the server holds: %d, want %d", got, http.StatusTooManyRequests)
	}
	// A stream that ends (its handler returns) makes room for another.
	f.srv.streams.release(link(0), network(client(0)))
	if got := open(bound + 1); got != http.StatusOK {
		t.Fatalf("a stream after one ended: %d", got)
	}
}
