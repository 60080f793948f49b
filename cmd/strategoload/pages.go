package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// botPages are open pages of the bot's board in the browser: one event
// stream each, on one viewer of one of the played matches, as a browser
// keeps it open. They note when each measured move's state reaches them.
type botPages struct {
	mu     sync.Mutex
	lat    []time.Duration // from a measured move's interaction to its state on a page
	events int             // measured moves' states read
	closed int             // pages whose stream ended while they were open
	seen   []int           // per page: the longest history it has read
	match  []*loadMatch    // per page: its match
}

// freeAddr returns a loopback address nobody listens on, for the bot's web
// board.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// openPages opens n pages on the matches, spread evenly, each viewer (Red,
// Blue, the public) in turn, signed with the bot's own key from its
// database; it returns once every page has read its first state.
func openPages(ctx context.Context, base string, key []byte, matches []*loadMatch, n int) (*botPages, error) {
	signer, err := web.NewSigner(key)
	if err != nil {
		return nil, err
	}
	p := &botPages{seen: make([]int, n), match: make([]*loadMatch, n)}
	// One connection per page, as each browser has its own.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableKeepAlives: true}}
	opened := make(chan error, n)
	for i := range n {
		m := matches[i%len(matches)]
		p.match[i] = m
		tok := signer.Sign(web.Capability{Match: m.id, Viewer: game.Viewer(i / len(matches) % 3), Expires: time.Now().Add(24 * time.Hour)})
		go p.read(ctx, client, base, tok, i, opened)
	}
	for range n {
		select {
		case err := <-opened:
			if err != nil {
				return nil, err
			}
		case <-time.After(time.Minute):
			return nil, fmt.Errorf("the pages did not open within a minute")
		}
	}
	return p, nil
}

// read is one page: it reads its event stream until ctx ends.
func (p *botPages) read(ctx context.Context, client *http.Client, base, tok string, i int, opened chan<- error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/events", nil)
	if err != nil {
		opened <- err
		return
	}
	req.Header.Set(web.CapabilityHeader, tok)
	req.Header.Set("X-Forwarded-For", visitor(i))
	resp, err := client.Do(req)
	if err != nil {
		opened <- fmt.Errorf("open a page: %w", err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		opened <- fmt.Errorf("open a page: %s", resp.Status)
		return
	}
	rd := bufio.NewReaderSize(resp.Body, 64<<10) // a whole state fits
	first := true
	m := p.match[i]
	for {
		line, err := rd.ReadSlice('\n')
		if err != nil {
			if ctx.Err() == nil {
				p.mu.Lock()
				p.closed++
				p.mu.Unlock()
			}
			return
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue
		}
		at := time.Now()
		var state struct {
			History []json.RawMessage `json:"history"`
		}
		if json.Unmarshal(data, &state) != nil {
			continue
		}
		ply := len(state.History)
		p.mu.Lock()
		if ply > p.seen[i] {
			p.seen[i] = ply
			if sent, ok := m.sentAt(ply); ok {
				p.lat = append(p.lat, at.Sub(sent))
				p.events++
			}
		}
		p.mu.Unlock()
		if first {
			first = false
			opened <- nil
		}
	}
}

// settle counts, once the moves are done, how many measured states the
// pages should have read: each measured move of its match that it has seen
// the match reach. It returns the latencies, sorted, and how many pages'
// streams ended early.
func (p *botPages) settle() (lat []time.Duration, events, missed, closed int) {
	time.Sleep(time.Second) // the last states on their way
	p.mu.Lock()
	defer p.mu.Unlock()
	want := 0 // measured moves' states the pages should have read
	for i, m := range p.match {
		want += m.measuredUpTo(p.seen[i])
	}
	slices.Sort(p.lat)
	return p.lat, p.events, max(0, want-p.events), p.closed
}

// webKey reads the key the bot signs its links with, drawing it if the
// database has none yet, as the bot would at its start.
func webKey(ctx context.Context, db storage.Store) ([]byte, error) {
	key, err := db.WebKey(ctx)
	if err != nil {
		return nil, fmt.Errorf("the web board's key: %w", err)
	}
	return key, nil
}

// visitor is the address of page i's reader, as the reverse proxy in
// front of the bot names it: each page is another visitor, whom the web
// server counts apart (web.MaxStreamsPerClient).
func visitor(i int) string {
	return fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
}
