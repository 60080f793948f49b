package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// Request limits: who a client is, and the rate limits per link, per
// client and for refused links.

// clientOf names the client of r for the rate limit: the last address of
// X-Forwarded-For, the one the admin's reverse proxy appended (any before it
// are the client's own claim), else the connection's peer. This trusts the
// proxy: web_addr must be reachable by it alone, as the README says, or a
// client could name itself anew with each request.
//
// An IPv6 client is its /64: a host is given a whole one, and could
// otherwise name itself anew with each request within it.
func clientOf(r *http.Request) string {
	if fwd := r.Header.Values("X-Forwarded-For"); len(fwd) > 0 {
		hops := strings.Split(fwd[len(fwd)-1], ",")
		if last := strings.TrimSpace(hops[len(hops)-1]); last != "" {
			return network(last)
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return network(r.RemoteAddr)
	}
	return network(host)
}

// network is the client an address names: an IPv4 address itself, an IPv6
// address its /64, its port aside (a proxy that appends the client's port
// would otherwise name it anew with each connection), in brackets or not;
// anything else as written.
func network(addr string) string {
	a, ok := address(addr)
	if !ok {
		return addr
	}
	if a = a.Unmap(); a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), 64).Masked().String()
}

// address reads the address of addr, as a proxy may write it: alone, in
// brackets, or with a port (after the brackets of an IPv6 address, or
// after its last group without them). An IPv6 address that reads whole
// is taken whole: "2001:db8::6:443" may be 2001:db8::6 with port 443, or
// an address whose last group is 443, and nothing tells which.
func address(addr string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(addr); err == nil {
		return a, true
	}
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		return ap.Addr(), true
	}
	if inner, ok := strings.CutPrefix(addr, "["); ok {
		if inner, ok := strings.CutSuffix(inner, "]"); ok {
			a, err := netip.ParseAddr(inner)
			return a, err == nil && a.Is6()
		}
		return netip.Addr{}, false
	}
	// An IPv6 address and a port, unbracketed: what is before the last
	// colon reads as an IPv6 address and what follows is a port.
	k := strings.LastIndexByte(addr, ':')
	if k < 0 || !isPort(addr[k+1:]) {
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(addr[:k])
	return a, err == nil && a.Is6()
}

// isPort reports whether s is a port number as written after an address:
// 1 to 5 decimal digits, at most 65535.
func isPort(s string) bool {
	if len(s) == 0 || len(s) > 5 {
		return false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// ClientLinks is how many links' worth of requests one client may make over
// all its links together: its requests come at most ClientLinks times
// Options.Rate a second, with a burst of ClientLinks links' bursts. A
// player's boards and spectated matches, each asked as fast as its own
// limit allows, or a club opening its pages at once through one address,
// stay within it; a loop over fifty spectator links does not.
const ClientLinks = 10

// limitScope is what a token bucket counts.
type limitScope uint8

const (
	// perLink counts one client's requests for one viewer of one match, so
	// that one spectator cannot starve the others.
	perLink limitScope = iota
	// perClient counts one client's requests over all its links: links are
	// had for the asking (/stratego watch), and each request replays a game.
	perClient
	// perRefused counts one client's requests whose link was refused before
	// anything was looked up (none, malformed, forged), apart from its
	// requests with links: a flood of forged links is answered 429 without
	// holding back that client's own links, or anyone else's.
	perRefused
	numScopes
)

// limitKey names a token bucket.
type limitKey struct {
	scope  limitScope
	match  storage.MatchID // perLink
	viewer game.Viewer     // perLink
	client string
}

// linkKey is the bucket of one client's requests for one viewer of one match.
func linkKey(c Capability, client string) limitKey {
	return limitKey{scope: perLink, match: c.Match, viewer: c.Viewer, client: client}
}

// rateLimit is a token bucket's figures: tokens added per second, and the
// most it holds.
type rateLimit struct{ rate, burst float64 }

// limitsFor is each scope's figures for Options.Rate: a link's burst is 4
// seconds' worth, a client's ClientLinks links' worth, and a client's
// refused requests get one link's.
func limitsFor(rate float64) [numScopes]rateLimit {
	var l [numScopes]rateLimit
	l[perLink] = rateLimit{rate, 4 * rate}
	l[perClient] = rateLimit{ClientLinks * rate, ClientLinks * 4 * rate}
	l[perRefused] = l[perLink]
	return l
}

// limiter is a token bucket per limitKey, with its scope's figures.
type limiter struct {
	mu      sync.Mutex
	now     func() time.Time // a test's clock; time.Now
	limits  [numScopes]rateLimit
	buckets map[limitKey]*bucket
	sweepAt int // how many buckets there are when a new one comes with the next sweep
}

// minSweep is the fewest buckets the limiter sweeps.
const minSweep = 10000

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(limits [numScopes]rateLimit) *limiter {
	return &limiter{now: time.Now, limits: limits, buckets: map[limitKey]*bucket{}, sweepAt: minSweep}
}

// allow takes a token from the bucket of each key when each has one, and
// otherwise from none: a request refused by one limit costs nothing of the
// others (a page that asks one link too fast does not hold back the
// client's other links).
func (l *limiter) allow(keys ...limitKey) bool {
	t := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var found [2]*bucket
	bs := found[:0]
	for _, k := range keys {
		b := l.buckets[k]
		lim := l.limits[k.scope]
		if b == nil {
			if len(l.buckets) >= l.sweepAt {
				l.sweep(t)
			}
			b = &bucket{tokens: lim.burst, at: t}
			l.buckets[k] = b
		}
		if t.After(b.at) {
			b.tokens = min(lim.burst, b.tokens+t.Sub(b.at).Seconds()*lim.rate)
			b.at = t
		}
		bs = append(bs, b)
	}
	for _, b := range bs {
		if b.tokens < 1 {
			return false
		}
	}
	for _, b := range bs {
		b.tokens--
	}
	return true
}

// sweep forgets the buckets that have filled up since their last request
// (a full bucket is as good as none). The next sweep comes once there are
// twice as many buckets as it left, so that a sweep, a pass over every
// bucket under the lock, costs each new client little on average: many
// clients at once do not make every request pay for all of them.
func (l *limiter) sweep(t time.Time) {
	for k, b := range l.buckets {
		lim := l.limits[k.scope]
		if t.Sub(b.at) >= time.Duration(lim.burst/lim.rate*float64(time.Second)) {
			delete(l.buckets, k)
		}
	}
	l.sweepAt = max(minSweep, 2*len(l.buckets))
}
