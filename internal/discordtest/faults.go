package discordtest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// AnyRoute matches every REST route in FailNext, RateLimitNext and DelayNext.
const AnyRoute = "*"

// fault is an injected misbehaviour for the next requests to a route.
type fault struct {
	route      string // AnyRoute or "METHOD /template"
	channel    string // only requests about this channel (its channel_id); empty: any
	remaining  int
	status     int           // answer with this status instead (0: answer normally)
	retryAfter time.Duration // for 429
	delay      time.Duration // wait this long before handling
	hold       *Hold         // wait until it is released before handling
	refusal    *apiError     // answer with this 4xx refusal instead
	lost       bool          // handle it, then answer with status: the answer lost
}

// FailNext makes the next n requests to route fail with status (a 5xx such
// as 500, 502 or 503) before they reach the stand-in's logic, as Discord
// does on a bad day. discordgo retries 502 by itself; other statuses reach
// the bot as errors. route is "METHOD /template" as in Discord's API
// description, e.g. "POST /channels/{channel_id}/messages", or AnyRoute.
func (s *Server) FailNext(t TB, route string, n int, status int) {
	t.Helper()
	if status < 500 || status > 599 {
		t.Fatalf("discordtest: FailNext wants a 5xx status, got %d", status)
	}
	s.addFault(t, &fault{route: route, remaining: n, status: status})
}

// RateLimitNext makes the next n requests to route answer 429 with
// retry_after and the rate-limit headers; discordgo waits and retries.
func (s *Server) RateLimitNext(t TB, route string, n int, retryAfter time.Duration) {
	t.Helper()
	s.addFault(t, &fault{route: route, remaining: n, status: http.StatusTooManyRequests, retryAfter: retryAfter})
}

// DelayNext makes the next n requests to route wait d before the stand-in
// handles them, as a slow network or a slow Discord would. A delayed
// interaction callback counts as late if it is handled after the deadline.
func (s *Server) DelayNext(t TB, route string, n int, d time.Duration) {
	t.Helper()
	s.addFault(t, &fault{route: route, remaining: n, delay: d})
}

// Hold keeps requests unanswered until it is released (see HoldNext).
type Hold struct {
	release chan struct{}
	once    sync.Once
	waiting atomic.Int32
}

// Release lets the held requests, and those to come, through. It may be
// called more than once.
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }

// Waiting is the number of requests being held now.
func (h *Hold) Waiting() int { return int(h.waiting.Load()) }

// wait holds one request until the hold is released (true) or done is closed.
func (h *Hold) wait(done <-chan struct{}) bool {
	h.waiting.Add(1)
	defer h.waiting.Add(-1)
	select {
	case <-h.release:
		return true
	case <-done:
		return false
	}
}

// HoldNext makes the next n requests to route wait, unanswered, until the
// returned hold is released (or the server closes), as a Discord that is
// slow on one route would; a test sees what the bot does meanwhile.
func (s *Server) HoldNext(t TB, route string, n int) *Hold {
	t.Helper()
	h := &Hold{release: make(chan struct{})}
	s.addFault(t, &fault{route: route, remaining: n, hold: h})
	return h
}

// HoldNextIn is HoldNext for the requests about channel ch only (its
// channel_id), such as one player's DMs while the channel's posts go through.
func (s *Server) HoldNextIn(t TB, route string, ch *Channel, n int) *Hold {
	t.Helper()
	h := &Hold{release: make(chan struct{})}
	s.addFault(t, &fault{route: route, channel: ch.ID, remaining: n, hold: h})
	return h
}

// FailNextIn is FailNext for the requests about channel ch only.
func (s *Server) FailNextIn(t TB, route string, ch *Channel, n int, status int) {
	t.Helper()
	if status < 500 || status > 599 {
		t.Fatalf("discordtest: FailNextIn wants a 5xx status, got %d", status)
	}
	s.addFault(t, &fault{route: route, channel: ch.ID, remaining: n, status: status})
}

// DelayNextIn is DelayNext for the requests about channel ch only.
func (s *Server) DelayNextIn(t TB, route string, ch *Channel, n int, d time.Duration) {
	t.Helper()
	s.addFault(t, &fault{route: route, channel: ch.ID, remaining: n, delay: d})
}

// LoseAnswerNext is LoseAnswerNextIn for the requests to route about any
// channel, or about none, such as an interaction's first response: Discord
// takes it, and its answer is lost. A 502 is allowed here: discordgo (or
// the bot, which sends a deferral again itself) sends the request again,
// which Discord answers as it would a second one (an interaction's first
// response: answered already).
func (s *Server) LoseAnswerNext(t TB, route string, n int, status int) {
	t.Helper()
	if status < 500 || status > 599 {
		t.Fatalf("discordtest: LoseAnswerNext wants a 5xx status, got %d", status)
	}
	s.addFault(t, &fault{route: route, remaining: n, status: status, lost: true})
}

// LoseAnswerNextIn makes the next n requests to route about channel ch do
// what they ask (a message made, with its gateway event), and then answer
// with status (a 5xx other than 502, which discordgo retries by itself)
// instead of what they made: Discord's answer lost on its way back.
func (s *Server) LoseAnswerNextIn(t TB, route string, ch *Channel, n int, status int) {
	t.Helper()
	if status < 500 || status > 599 || status == http.StatusBadGateway {
		t.Fatalf("discordtest: LoseAnswerNextIn wants a 5xx status other than 502, got %d", status)
	}
	s.addFault(t, &fault{route: route, channel: ch.ID, remaining: n, status: status, lost: true})
}

// RateLimitNextIn is RateLimitNext for the requests about channel ch only.
func (s *Server) RateLimitNextIn(t TB, route string, ch *Channel, n int, retryAfter time.Duration) {
	t.Helper()
	s.addFault(t, &fault{route: route, channel: ch.ID, remaining: n, status: http.StatusTooManyRequests, retryAfter: retryAfter})
}

// Always, as the count of RefuseNext or RefuseNextIn, refuses every request
// to the route from then on.
const Always = -1

// Refusal is a 4xx answer Discord gives a request it will not take, with
// its JSON error body: {"message": …, "code": …} and, for 50035, the
// errors object that names the field.
type Refusal struct{ e apiError }

// InvalidFormBody is Discord's 400 with code 50035, naming one field of the
// form (a path such as "content" or "attachments/0/description") with
// Discord's error code and message for it, e.g. "BASE_TYPE_MAX_LENGTH",
// "Must be 2000 or fewer in length.".
func InvalidFormBody(field, code, message string) Refusal {
	return Refusal{*errInvalidForm(formError(field, code, message))}
}

// EntityTooLarge is Discord's 413 with code 40005, "Request entity too
// large": an upload over the server's limit.
func EntityTooLarge() Refusal { return Refusal{*errTooLarge()} }

// EmptyMessage is Discord's 400 with code 50006, "Cannot send an empty
// message".
func EmptyMessage() Refusal { return Refusal{*errEmptyMessage()} }

// UnknownMessage is Discord's 404 with code 10008, "Unknown Message": the
// message named is gone.
func UnknownMessage() Refusal { return Refusal{*errUnknownMessage()} }

// RefuseNext makes the next n requests to route (Always: every one) answer
// with r before they reach the stand-in's logic, as Discord refuses what it
// will not take: nothing is made, and the test is not failed for it.
func (s *Server) RefuseNext(t TB, route string, n int, r Refusal) {
	t.Helper()
	s.addRefusal(t, route, "", n, r)
}

// RefuseNextIn is RefuseNext for the requests about channel ch only.
func (s *Server) RefuseNextIn(t TB, route string, ch *Channel, n int, r Refusal) {
	t.Helper()
	s.addRefusal(t, route, ch.ID, n, r)
}

func (s *Server) addRefusal(t TB, route, channel string, n int, r Refusal) {
	t.Helper()
	if r.e.status < 400 || r.e.status > 499 || r.e.status == http.StatusTooManyRequests {
		t.Fatalf("discordtest: a refusal wants a 4xx status other than 429, got %d", r.e.status)
	}
	e := r.e
	e.expected = true
	s.addFault(t, &fault{route: route, channel: channel, remaining: n, refusal: &e})
}

func (s *Server) addFault(t TB, f *fault) {
	t.Helper()
	if f.route != AnyRoute && s.spec.operation(f.route) == nil {
		t.Fatalf("discordtest: no route %q in Discord's API description (want e.g. \"POST /channels/{channel_id}/messages\")", f.route)
	}
	if f.remaining <= 0 && (f.remaining != Always || f.refusal == nil) {
		t.Fatalf("discordtest: fault for %s on %d requests: want at least 1", f.route, f.remaining)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f)
}

// takeFault consumes one use of the first fault for route and the path's
// parameters, if any.
func (s *Server) takeFault(route string, params map[string]string) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if f.route != AnyRoute && f.route != route || f.channel != "" && f.channel != params["channel_id"] {
			continue
		}
		if f.remaining == Always {
			c := *f
			return &c
		}
		f.remaining--
		if f.remaining == 0 {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
		}
		c := *f
		return &c
	}
	return nil
}

// writeFault answers with an injected status.
func (s *Server) writeFault(w http.ResponseWriter, q *request, rec *Request, f *fault) {
	if f.status == http.StatusTooManyRequests {
		s.writeRateLimited(w, q, rec, f.retryAfter, true)
		return
	}
	rec.Status = f.status
	writeJSON(w, f.status, map[string]any{"message": fmt.Sprintf("%d: %s", f.status, http.StatusText(f.status)), "code": 0})
	s.record(*rec)
}

// bucket is one rate-limit bucket: a route with its major parameters.
type bucket struct {
	hash      string
	remaining int
	reset     time.Time
}

// rateInfo is what the headers of one answer tell about its bucket.
type rateInfo struct {
	hash       string
	limit      int
	remaining  int
	resetAfter time.Duration
}

// majorParams are the path parameters that split a route into buckets.
var majorParams = []string{"channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id", "interaction_token"}

// bucketFor returns the bucket of a request, creating it on first use.
func (s *Server) bucketFor(q *request) *bucket {
	key := q.op.Route()
	for _, p := range majorParams {
		if v, ok := q.params[p]; ok {
			key += "|" + p + "=" + v
		}
	}
	b := s.buckets[key]
	if b == nil {
		sum := sha1.Sum([]byte(q.op.Route()))
		b = &bucket{hash: hex.EncodeToString(sum[:8]), remaining: s.cfg.rateLimit}
		s.buckets[key] = b
	}
	return b
}

// resetSlack is how early a request may come before its bucket's reset
// and still find it refilled.
const resetSlack = 3 * time.Millisecond

// takeToken spends one request of the request's bucket. It reports whether
// the bucket is empty, and then how long until it refills.
func (s *Server) takeToken(q *request) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bucketFor(q)
	now := time.Now()
	// A client that waits as the headers say may come back a little early:
	// they give the reset to the millisecond, and discordgo truncates it
	// again. Over the loopback no network delay hides that; a few
	// milliseconds are forgiven, or a client that obeys would meet a 429.
	if !now.Add(resetSlack).Before(b.reset) {
		b.remaining = s.cfg.rateLimit
		b.reset = now.Add(s.cfg.rateWindow)
	}
	if b.remaining == 0 {
		return b.reset.Sub(now), true
	}
	b.remaining--
	return 0, false
}

// rateOf reads the current state of a request's bucket.
func (s *Server) rateOf(q *request) rateInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bucketFor(q)
	after := time.Until(b.reset)
	if after < 0 {
		after = 0
	}
	return rateInfo{hash: b.hash, limit: s.cfg.rateLimit, remaining: b.remaining, resetAfter: after}
}

// setRateHeaders adds Discord's X-RateLimit-* headers to an answer.
func (s *Server) setRateHeaders(w http.ResponseWriter, q *request) {
	if q == nil || q.op == nil {
		return
	}
	ri := s.rateOf(q)
	writeRateHeaders(w, ri)
}

func writeRateHeaders(w http.ResponseWriter, ri rateInfo) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(ri.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(ri.remaining))
	reset := float64(time.Now().Add(ri.resetAfter).UnixMilli()) / 1000
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(reset, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(ri.resetAfter.Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", ri.hash)
}

// writeRateLimited answers 429 as Discord does.
func (s *Server) writeRateLimited(w http.ResponseWriter, q *request, rec *Request, retry time.Duration, forced bool) {
	ri := s.rateOf(q)
	ri.remaining = 0
	if forced || retry > ri.resetAfter {
		ri.resetAfter = retry
	}
	writeRateHeaders(w, ri)
	w.Header().Set("X-RateLimit-Scope", "user")
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
	rec.Status = http.StatusTooManyRequests
	body := map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": math.Round(retry.Seconds()*1000) / 1000,
		"global":      false,
		"code":        0,
	}
	writeJSON(w, http.StatusTooManyRequests, body)
	s.record(*rec)
}
