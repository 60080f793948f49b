package web

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/browsertest"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// stallProxy relays TCP connections to a server until told to stall the
// event streams under way: then their bytes, both ways, are lost, and their
// connections stay open, as a connection does that died while a laptop
// slept or a phone changed networks (the server's end is gone, and the
// browser, which only reads, is never told). Connections opened later are
// relayed as before.
type stallProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	events map[*stalled]bool // the connections that carried an event stream
	conns  []net.Conn
}

// stalled is one relayed connection; lost says its bytes go nowhere.
type stalled struct {
	mu   sync.Mutex
	lost bool
}

func (c *stalled) isLost() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lost
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target, events: map[*stalled]bool{}}
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	go p.serve()
	return p
}

func (p *stallProxy) url() string { return "http://" + p.ln.Addr().String() }

func (p *stallProxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		c := &stalled{}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go p.relay(c, in, out, true)
		go p.relay(c, out, in, false)
	}
}

// relay copies from src to dst until either closes, losing the bytes of a
// stalled connection; a request for the event stream marks its connection.
func (p *stallProxy) relay(c *stalled, src, dst net.Conn, request bool) {
	defer src.Close()
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if request && bytes.Contains(buf[:n], []byte("GET /api/events")) {
				p.mu.Lock()
				p.events[c] = true
				p.mu.Unlock()
			}
			if !c.isLost() {
				if _, err := dst.Write(buf[:n]); err != nil {
					return
				}
			}
		}
		if err != nil {
			if err != io.EOF {
				return
			}
			return
		}
	}
}

// stall loses the bytes of every event stream opened so far, and returns
// how many it stalled.
func (p *stallProxy) stall() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.events {
		c.mu.Lock()
		c.lost = true
		c.mu.Unlock()
	}
	n := len(p.events)
	p.events = map[*stalled]bool{}
	return n
}

// TestBrowserStreamDiesSilently: an event stream whose connection dies
// without a word (a laptop's sleep, a phone's new network) is noticed by
// its missing pings and opened again, without a reload: a move made
// meanwhile arrives, once.
func TestBrowserStreamDiesSilently(t *testing.T) {
	f := newFixture(t)
	f.srv.setPing(100 * time.Millisecond)
	p := newStallProxy(t, strings.TrimPrefix(f.ts.URL, "http://"))
	ctx := browser(t)
	bg := context.Background()
	m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(p.url()+"/board#"+f.token(m.ID, game.RedViewer)),
		chromedp.WaitVisible(chromedp.CSS(`#resign`)),
	); err != nil {
		t.Fatal(err)
	}
	if n := p.stall(); n != 1 {
		t.Fatalf("%d event streams stalled, want 1", n)
	}
	g, _ := m.Game()
	m2, g2, err := f.store.ApplyMove(bg, m.ID, m.Version, game.Red, g.LegalMoves()[0], storagetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.MatchChanged(m2, g2)
	browsertest.Wait(t, ctx, "the move made while the stream was dead", `document.querySelectorAll("#history li").length > 0`)
	browsertest.Wait(t, ctx, "the status line of a live board", `document.getElementById("status").textContent === "Blue to move."`)
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#history li").length`)); err != nil || n != 1 {
		t.Fatalf("%d moves in the history (%v), want 1", n, err)
	}
}
