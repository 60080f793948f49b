package ratelimit

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBucketKey(t *testing.T) {
	tests := []struct {
		method, path, want string
	}{
		{"POST", "/api/v9/channels/111/messages", "POST /api/v9/channels/111/messages"},
		{"PATCH", "/api/v9/channels/111/messages/222", "PATCH /api/v9/channels/111/messages/{id}"},
		{"PATCH", "/api/v9/channels/111/messages/333", "PATCH /api/v9/channels/111/messages/{id}"},
		{"GET", "/api/v9/guilds/444/members/555", "GET /api/v9/guilds/444/members/{id}"},
		{"PATCH", "/api/v9/webhooks/666/tok-en/messages/@original", "PATCH /api/v9/webhooks/666/tok-en/messages/@original"},
		{"POST", "/api/v9/interactions/777/aToken/callback", "POST /api/v9/interactions/777/aToken/callback"},
		{"PUT", "/api/v9/applications/888/commands", "PUT /api/v9/applications/{id}/commands"},
		{"POST", "/api/v9/users/@me/channels", "POST /api/v9/users/@me/channels"},
	}
	for _, tc := range tests {
		if got := BucketKey(tc.method, tc.path); got != tc.want {
			t.Errorf("BucketKey(%s, %s) = %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

// discord is a stand-in that answers each request with what answer says,
// and remembers the bodies it was sent.
type discord struct {
	mu     sync.Mutex
	bodies []string
	answer func(n int, w http.ResponseWriter, r *http.Request)
}

func (d *discord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	d.mu.Lock()
	d.bodies = append(d.bodies, string(body))
	n := len(d.bodies)
	d.mu.Unlock()
	d.answer(n, w, r)
}

func (d *discord) requests() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.bodies)
}

func limited(w http.ResponseWriter, retryAfter string, global bool) {
	if global {
		w.Header().Set("X-RateLimit-Global", "true")
	}
	w.Header().Set("X-RateLimit-Remaining", "0")
	w.Header().Set("X-RateLimit-Reset-After", retryAfter)
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = io.WriteString(w, `{"message": "You are being rate limited.", "retry_after": `+retryAfter+`, "global": `+map[bool]string{true: "true", false: "false"}[global]+`}`)
}

func serve(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) (*discord, *httptest.Server, *http.Client) {
	t.Helper()
	d := &discord{answer: answer}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return d, srv, &http.Client{Transport: New(srv.Client().Transport, 5*time.Second)}
}

func post(ctx context.Context, client *http.Client, url, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// A 429 is waited out and asked again with the same body; the caller sees
// the answer that came after it, without the rate-limit headers that would
// make discordgo wait on its own.
func TestA429IsAskedAgainAfterItsWait(t *testing.T) {
	d, srv, client := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			limited(w, "0.2", false)
			return
		}
		w.Header().Set("X-RateLimit-Remaining", "4")
		w.Header().Set("X-RateLimit-Reset-After", "5")
		_, _ = io.WriteString(w, `{"id": "1"}`)
	})
	start := time.Now()
	resp, err := post(context.Background(), client, srv.URL+"/api/v9/channels/1/messages", "hello")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200 after the 429", resp.StatusCode)
	}
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("asked again after %v, before the 429's retry_after of 200 ms", took)
	}
	if d.bodies[0] != "hello" || d.bodies[1] != "hello" {
		t.Errorf("bodies sent %q, want the same body twice", d.bodies)
	}
	for _, h := range rateHeaders {
		if v := resp.Header.Get(h); v != "" {
			t.Errorf("answer carries %s: %s, which would make discordgo wait by itself", h, v)
		}
	}
}

// A wait for the rate limit, before a request or after a 429, ends when the
// request's context does.
func TestWaitsEndWithTheContext(t *testing.T) {
	tests := []struct {
		name string
		// first answers the request before the one the test cuts.
		first func(w http.ResponseWriter)
	}{
		{"a spent bucket", func(w http.ResponseWriter) {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset-After", "60")
		}},
		{"a 429 of a minute", func(w http.ResponseWriter) { limited(w, "60", false) }},
		{"a global 429 of a minute", func(w http.ResponseWriter) { limited(w, "60", true) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, srv, client := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					tc.first(w)
				}
			})
			// The first request is answered, or cut in its wait after a 429.
			first, cancelFirst := context.WithTimeout(context.Background(), 100*time.Millisecond)
			if resp, err := post(first, client, srv.URL+"/api/v9/channels/1/messages", "first"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusTooManyRequests {
					t.Fatal("the 429 reached the caller")
				}
			}
			cancelFirst()
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := post(ctx, client, srv.URL+"/api/v9/channels/1/messages", "second")
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v, want the context's end", err)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the request ended %v after its context, not at once", took)
			}
			if n := d.requests(); n != 1 {
				t.Errorf("Discord was asked %d times, want once: the second request should have waited", n)
			}
		})
	}
}

// TestTheFirst429WaitsWithTheContext: the 429 itself, with nothing before
// it, is waited out with the request's context.
func TestTheFirst429WaitsWithTheContext(t *testing.T) {
	_, srv, client := serve(t, func(n int, w http.ResponseWriter, r *http.Request) { limited(w, "60", false) })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := post(ctx, client, srv.URL+"/api/v9/channels/1/messages", "x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's end", err)
	}
}

// A global 429 holds every route; a bucket's holds only its own.
func TestGlobalLimitHoldsEveryRoute(t *testing.T) {
	for _, global := range []bool{false, true} {
		_, srv, client := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				limited(w, "60", global)
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		_, _ = post(ctx, client, srv.URL+"/api/v9/channels/1/messages", "x")
		cancel()
		ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
		resp, err := post(ctx, client, srv.URL+"/api/v9/channels/2/messages", "y")
		cancel()
		if global {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("after a global 429, another channel's request ended with %v, want it to wait", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("after one channel's 429, another channel's request failed: %v", err)
			continue
		}
		resp.Body.Close()
	}
}

// A request not worth a wait gets a 429 back as it came, and fails at once
// on a bucket spent for longer than ShortWait; a shorter wait it waits.
func TestWithoutWaiting(t *testing.T) {
	d, srv, client := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			limited(w, "0.1", false)
			return
		}
		limited(w, "60", false)
	})
	ctx := WithoutWaiting(context.Background())
	resp, err := post(ctx, client, srv.URL+"/api/v9/guilds/1/members/2", "")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "retry_after") {
		t.Errorf("got %d %s, want the 429 as it came", resp.StatusCode, body)
	}
	resp, err = post(ctx, client, srv.URL+"/api/v9/guilds/1/members/3", "")
	if err != nil {
		t.Fatalf("a request on a bucket spent for 100 ms failed: %v", err)
	}
	resp.Body.Close()
	if _, err := post(ctx, client, srv.URL+"/api/v9/guilds/1/members/4", ""); !errors.Is(err, ErrWouldWait) {
		t.Errorf("the next request on the bucket spent for a minute ended with %v, want ErrWouldWait", err)
	}
	if n := d.requests(); n != 2 {
		t.Errorf("Discord was asked %d times, want twice", n)
	}
}

// The attempt's timeout bounds each attempt, not the waits between them.
func TestTimeoutLeavesOutTheWaits(t *testing.T) {
	d := &discord{answer: func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			limited(w, "0.4", false)
		}
	}}
	srv := httptest.NewServer(d)
	defer srv.Close()
	client := Client(&http.Client{Transport: srv.Client().Transport, Timeout: 300 * time.Millisecond})
	if client.Timeout != 0 {
		t.Errorf("Client kept a Timeout of %v, which would count the waits", client.Timeout)
	}
	resp, err := post(context.Background(), client, srv.URL+"/api/v9/channels/1/messages", "x")
	if err != nil {
		t.Fatalf("a wait of 400 ms within an attempt timeout of 300 ms failed: %v", err)
	}
	resp.Body.Close()

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	client = Client(&http.Client{Transport: slow.Client().Transport, Timeout: 100 * time.Millisecond})
	if _, err := post(context.Background(), client, slow.URL+"/x", ""); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("an attempt Discord holds ended with %v, want the attempt's timeout", err)
	}
}
