// Package ratelimit keeps a Discord client to Discord's rate limits in its
// HTTP transport, where every wait ends as soon as the request's context
// does.
//
// discordgo keeps the limits itself, but it waits with time.Sleep: before a
// request whose bucket is spent, and after a 429 before it asks again. Nothing
// wakes that sleep, so a bot told to stop would sit out a retry_after of
// seconds or minutes before its requests saw the stop. Transport does the
// same waiting with the request's context instead. It reads the rate-limit
// headers itself and takes them off the answer, so that discordgo, which
// sees no spent bucket and no 429, never sleeps.
//
// Buckets follow Discord's rule: one per route and major parameter (a
// channel, a server, a webhook with its token, an interaction). Other IDs in
// the path, such as a message's, share their route's bucket.
package ratelimit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Transport is an http.RoundTripper that keeps to Discord's rate limits.
// It is safe for concurrent use.
type Transport struct {
	next    http.RoundTripper
	timeout time.Duration
	buckets *discordgo.RateLimiter
	// globalUntil is when a global 429 ends (Unix nanoseconds): every
	// route waits until then.
	globalUntil atomic.Int64
}

// New returns a Transport that sends through next (http.DefaultTransport
// when nil). timeout, when positive, bounds each attempt, from sending the
// request to closing the answer's body, but not the waits between
// attempts: it takes the place of http.Client's Timeout, which would count
// them.
func New(next http.RoundTripper, timeout time.Duration) *Transport {
	if next == nil {
		next = http.DefaultTransport
	}
	return &Transport{next: next, timeout: timeout, buckets: discordgo.NewRatelimiter()}
}

// Client returns a copy of c (http.DefaultClient when nil) whose requests
// go through a Transport, with c's Timeout moved into it.
func Client(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	limited := *c
	limited.Transport = New(c.Transport, c.Timeout)
	limited.Timeout = 0
	return &limited
}

type withoutWaitingKey struct{}

// WithoutWaiting marks a request's context: its request is not worth a
// long wait. It waits for its bucket at most ShortWait, and fails at once
// with ErrWouldWait when the bucket asks for longer; a 429 is handed back as
// it came (discordgo's WithRetryOnRatelimit(false) then returns a
// *discordgo.RateLimitError).
func WithoutWaiting(ctx context.Context) context.Context {
	return context.WithValue(ctx, withoutWaitingKey{}, true)
}

// ShortWait is the longest a request marked WithoutWaiting waits for its
// bucket: a spent bucket that resets within it is no reason to give up.
const ShortWait = time.Second

// ErrWouldWait is the failure of a request marked WithoutWaiting whose
// bucket asks to wait longer than ShortWait.
var ErrWouldWait = errors.New("the rate limit asks to wait, and the request is not worth a wait")

// rateHeaders are the headers Transport reads and takes off each answer.
var rateHeaders = []string{
	"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After",
	"X-RateLimit-Bucket", "X-RateLimit-Global", "X-RateLimit-Scope",
}

// RoundTrip sends req once its bucket allows, and again after each 429,
// until an answer other than 429 comes or req's context ends.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	patient := ctx.Value(withoutWaitingKey{}) == nil
	bucket := t.buckets.GetBucket(BucketKey(req.Method, req.URL.Path))
	var notBefore time.Time // set by a 429 whose headers left the bucket as it was
	for attempt := 0; ; attempt++ {
		bucket.Lock()
		wait := t.buckets.GetWaitTime(bucket, 1)
		if d := time.Until(notBefore); d > wait {
			wait = d
		}
		if d := time.Until(time.Unix(0, t.globalUntil.Load())); d > wait {
			wait = d
		}
		if wait > ShortWait && !patient {
			bucket.Unlock()
			closeBody(req)
			return nil, ErrWouldWait
		}
		if err := sleep(ctx, wait); err != nil {
			bucket.Unlock()
			closeBody(req)
			return nil, fmt.Errorf("waiting out Discord's rate limit: %w", err)
		}
		bucket.Remaining--
		try, err := again(req, attempt)
		if err != nil {
			bucket.Unlock()
			return nil, err
		}
		resp, err := t.send(try)
		if err != nil {
			bucket.Unlock()
			return nil, err
		}
		_ = bucket.Release(resp.Header) // unlocks; a header it cannot read leaves the bucket as it was
		for _, h := range rateHeaders {
			resp.Header.Del(h)
		}
		if resp.StatusCode != http.StatusTooManyRequests || !patient {
			return resp, nil
		}
		retry, global := readLimited(resp)
		if global {
			t.globalUntil.Store(time.Now().Add(retry).UnixNano())
		} else {
			notBefore = time.Now().Add(retry)
		}
	}
}

// again returns the request for an attempt: req itself the first time, a
// copy with its body read anew after.
func again(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 0 {
		return req, nil
	}
	try := req.Clone(req.Context())
	if req.Body == nil || req.Body == http.NoBody {
		return try, nil
	}
	if req.GetBody == nil {
		return nil, errors.New("asking Discord again after a 429: the request's body cannot be read twice")
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, fmt.Errorf("asking Discord again after a 429: %w", err)
	}
	try.Body = body
	return try, nil
}

// send makes one attempt, bounded by t.timeout until its body is closed.
func (t *Transport) send(req *http.Request) (*http.Response, error) {
	if t.timeout <= 0 {
		return t.next.RoundTrip(req)
	}
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose ends an attempt's timeout once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// readLimited reads a 429's wait and whether it holds every route, and
// closes its body. Discord gives retry_after in seconds in the body and,
// rounded up, in the Retry-After header.
func readLimited(resp *http.Response) (retry time.Duration, global bool) {
	defer resp.Body.Close()
	var body struct {
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if json.Unmarshal(data, &body) == nil && body.RetryAfter > 0 && !math.IsInf(body.RetryAfter, 0) {
		retry = time.Duration(body.RetryAfter * float64(time.Second))
	} else if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		retry = time.Duration(s) * time.Second
	} else {
		retry = time.Second // a 429 that names no wait: a second, as a start
	}
	return retry, body.Global || resp.Header.Get("X-RateLimit-Global") != ""
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// majorParameters are the path segments whose following ID is a major
// parameter: requests that differ in it have buckets of their own.
var majorParameters = map[string]bool{"channels": true, "guilds": true, "webhooks": true, "interactions": true}

// BucketKey names the bucket of a request: its method and path, with every
// ID that is not a major parameter replaced by {id}. A webhook's or an
// interaction's token, which follows its ID, stays.
func BucketKey(method, path string) string {
	segments := strings.Split(strings.Trim(path, "/"), "/")
	for i, s := range segments {
		if i > 0 && majorParameters[segments[i-1]] || !isSnowflake(s) {
			continue
		}
		segments[i] = "{id}"
	}
	return method + " /" + strings.Join(segments, "/")
}

func isSnowflake(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
