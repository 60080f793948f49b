package discordtest

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// GlobalRequestsPerSecond is Discord's global rate limit, for
// WithGlobalRateLimit(GlobalRequestsPerSecond).
const GlobalRequestsPerSecond = 50

// Discord's limits across routes.
const (
	// invalidRequestBan is how many invalid requests (401, 403, 429) a
	// client may get in invalidRequestWindow before Cloudflare bans it from
	// the API for an hour.
	invalidRequestBan    = 10000
	invalidRequestWindow = 10 * time.Minute
	globalWindow         = time.Second
)

// clientLimits is what the stand-in counts about one client across routes.
type clientLimits struct {
	windowStart time.Time // of the current global-limit second
	inWindow    int       // requests in it
	invalid     []time.Time
	reported    bool // the test was failed for nearing the ban
}

// clientKey names the client of a request for the global limit: its bot
// token, or its address when it sends none (Discord's rule).
func clientKey(r *http.Request) string {
	if auth := r.Header.Get("Authorization"); auth != "" {
		return "token " + auth
	}
	return "address " + clientAddress(r)
}

// clientAddress is the IP address a request came from; Discord counts
// invalid requests per address.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// exemptFromGlobal reports whether a route escapes the global limit:
// Discord exempts the interaction endpoints.
func exemptFromGlobal(op *operation) bool {
	for _, p := range noAuthPrefixes {
		if strings.HasPrefix(op.Template, p) {
			return true
		}
	}
	return false
}

// takeGlobal spends one request of a client's global allowance. It reports
// whether the client is over the limit, and then how long until the next
// second starts.
func (s *Server) takeGlobal(key string) (time.Duration, bool) {
	if s.cfg.globalLimit <= 0 {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.client(key)
	now := time.Now()
	if now.Sub(c.windowStart) >= globalWindow {
		c.windowStart, c.inWindow = now, 0
	}
	if c.inWindow >= s.cfg.globalLimit {
		return c.windowStart.Add(globalWindow).Sub(now), true
	}
	c.inWindow++
	return 0, false
}

// client returns the counters of a client, creating them. Call with s.mu held.
func (s *Server) client(key string) *clientLimits {
	c := s.clients[key]
	if c == nil {
		c = &clientLimits{}
		s.clients[key] = c
	}
	return c
}

// writeGlobalLimited answers 429 for the global limit, as Discord does:
// global true in the body, X-RateLimit-Global and X-RateLimit-Scope global.
func (s *Server) writeGlobalLimited(w http.ResponseWriter, rec *Request, retry time.Duration) {
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
	h.Set("X-RateLimit-Global", "true")
	h.Set("X-RateLimit-Scope", "global")
	rec.Status = http.StatusTooManyRequests
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": math.Round(retry.Seconds()*1000) / 1000,
		"global":      true,
	})
	s.record(*rec)
}

// countInvalid counts an answer toward its client's invalid requests when
// Discord would (401, 403, and 429 other than scope "shared", which the
// stand-in never sends), and fails the test once the client nears the ban.
// Call with s.mu held.
func (s *Server) countInvalid(rec Request) {
	switch rec.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
	default:
		return
	}
	c := s.client("address " + rec.client)
	now := time.Now()
	c.invalid = append(pruneBefore(c.invalid, now.Add(-invalidRequestWindow)), now)
	if n := len(c.invalid); n >= s.cfg.invalidThreshold && s.cfg.invalidThreshold > 0 && !c.reported {
		c.reported = true
		s.violation("client %s got %d invalid answers (401, 403, 429) within %v, the last %s %s answered %d; Discord bans a client for an hour at %d (the test fails at %d: WithInvalidRequestThreshold)",
			rec.client, n, invalidRequestWindow, rec.Method, rec.Path, rec.Status, invalidRequestBan, s.cfg.invalidThreshold)
	}
}

// pruneBefore drops the times before cutoff from a sorted list.
func pruneBefore(times []time.Time, cutoff time.Time) []time.Time {
	i := 0
	for i < len(times) && times[i].Before(cutoff) {
		i++
	}
	return times[i:]
}

// InvalidRequests returns how many invalid answers (401, 403 and 429, which
// Discord counts toward a ban of 10,000 in 10 minutes) the busiest client
// got in the last 10 minutes. Discord counts per IP address; every client
// of the stand-in is on 127.0.0.1, so in practice this counts them all:
// the bot's requests, a bot process's, and any the test sends itself.
func (s *Server) InvalidRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	cutoff := time.Now().Add(-invalidRequestWindow)
	most := 0
	for key, c := range s.clients {
		if strings.HasPrefix(key, "address ") {
			c.invalid = pruneBefore(c.invalid, cutoff)
			most = max(most, len(c.invalid))
		}
	}
	return most
}
