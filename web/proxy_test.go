package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage/storagetest"
)

// The reverse-proxy configurations an admin copies from the documents.
const (
	proxyDoc      = "../docs/deploy/reverse-proxy.md"
	proxyDocSite  = "stratego.example.org"
	proxyDocBoard = "127.0.0.1:8080"
)

// TestReverseProxies runs each configuration of docs/deploy/reverse-proxy.md
// (and the README's Caddy snippet, which is the first of them) with the
// machine's Caddy or nginx in front of the board: the page and its API pass,
// a change reaches an open page through the proxy at once rather than
// waiting in a buffer, and Caddy's filtered request log holds no capability.
// Without the proxy's binary a case is skipped, unless
// STRATEGOBOT_TEST_PROXIES_REQUIRED is set (as CI sets it).
func TestReverseProxies(t *testing.T) {
	doc, err := os.ReadFile(proxyDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(doc))
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 || !strings.Contains(string(readme), "```\n"+blocks[0].text+"```") {
		t.Fatalf("want the README's Caddy snippet, the logged Caddy one and nginx's in %s; found %d blocks", proxyDoc, len(blocks))
	}
	for _, tt := range []struct {
		name, binary string
		config       string
		logged       bool // the configuration writes a request log
	}{
		{"Caddy", "caddy", blocks[0].text, false},
		{"Caddy with its request log", "caddy", blocks[1].text, true},
		{"nginx", "nginx", blocks[2].text, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin, err := exec.LookPath(tt.binary)
			if err != nil {
				if os.Getenv("STRATEGOBOT_TEST_PROXIES_REQUIRED") != "" {
					t.Fatalf("no %s found, and STRATEGOBOT_TEST_PROXIES_REQUIRED is set", tt.binary)
				}
				t.Skipf("no %s found", tt.binary)
			}
			f := newFixture(t)
			m := storagetest.Started(t, f.store, storagetest.NewMatch(game.VariantBarrage), 1)
			dir := t.TempDir()
			accessLog := filepath.Join(dir, "access.log")
			front := startProxy(t, bin, dir, tt.config, f.ts.Listener.Addr().String(), accessLog)

			red := f.token(m.ID, game.RedViewer)
			for _, path := range []string{"/board", "/static/board.js"} {
				if code, _, _ := call(t, "GET", front+path, "", ""); code != 200 {
					t.Errorf("GET %s through the proxy: %d", path, code)
				}
			}
			if code, body, _ := call(t, "GET", front+"/api/state", red, ""); code != 200 {
				t.Fatalf("Red's state through the proxy: %d %s", code, body)
			}
			events := openEvents(t, front, red)
			first := events.state(t)

			// Red moves on the board itself; the page behind the proxy hears of it.
			g, err := m.Game()
			if err != nil {
				t.Fatal(err)
			}
			mv := g.LegalMoves()[0]
			body, _ := json.Marshal(moveRequest{Basis: first.Basis, From: uint8(mv.From), To: uint8(mv.To)})
			if code, resp, _ := f.do(t, "POST", "/api/move", red, string(body)); code != 200 {
				t.Fatalf("Red's move: %d %s", code, resp)
			}
			if next := events.state(t); next.Basis == first.Basis {
				t.Errorf("the event after Red's move shows the board before it (basis %s)", next.Basis)
			}

			if !tt.logged {
				return
			}
			logged := readLog(t, accessLog, "/api/state")
			for _, secret := range []string{red, CapabilityHeader} {
				if strings.Contains(logged, secret) {
					t.Errorf("the proxy's request log holds %.20q…:\n%s", secret, logged)
				}
			}
		})
	}
}

// fencedBlock is one fenced code block of a Markdown document.
type fencedBlock struct{ lang, text string }

func fencedBlocks(doc string) []fencedBlock {
	var blocks []fencedBlock
	for _, m := range regexp.MustCompile("(?ms)^```(\\w*)\n(.*?)^```").FindAllStringSubmatch(doc, -1) {
		blocks = append(blocks, fencedBlock{m[1], m[2]})
	}
	return blocks
}

// startProxy runs config, a documented configuration, with the proxy bin on
// a free port of its own: the site is served over plain HTTP there, the
// board is at board, and a request log, where the configuration keeps one,
// goes to accessLog. It returns the proxy's URL once it answers.
func startProxy(t *testing.T, bin, dir, config, board, accessLog string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	config = strings.ReplaceAll(config, proxyDocBoard, board)
	var cmd *exec.Cmd
	file := filepath.Join(dir, "proxy.conf")
	if strings.HasSuffix(bin, "nginx") {
		// The location block goes inside a server block of its own.
		config = fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
	access_log %[2]s;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	server {
		listen %[3]s;
%[4]s
	}
}
`, dir, accessLog, addr, config)
		cmd = exec.Command(bin, "-p", dir, "-c", file)
	} else {
		config = strings.Replace(config, proxyDocSite, "http://"+addr, 1)
		config = strings.Replace(config, "log {", "log {\n\t\toutput file "+accessLog, 1)
		config = "{\n\tadmin off\n\tauto_https off\n}\n" + config
		cmd = exec.Command(bin, "run", "--adapter", "caddyfile", "--config", file)
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	}
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	front := "http://" + addr
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("%s exited with this configuration:\n%s\n%s", filepath.Base(bin), config, out)
		default:
		}
		if resp, err := http.Get(front + "/board"); err == nil {
			resp.Body.Close()
			return front
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not answer at %s:\n%s", filepath.Base(bin), addr, out)
		}
	}
}

// eventStream is an open page's stream of events, read line by line.
type eventStream struct{ events chan string }

func openEvents(t *testing.T, base, tok string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events", nil)
	req.Header.Set(CapabilityHeader, tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	if resp.StatusCode != 200 {
		t.Fatalf("events through the proxy: %s", resp.Status)
	}
	s := &eventStream{events: make(chan string, 16)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				s.events <- data
			}
		}
	}()
	return s
}

// state is the next state the page is sent. Ten seconds is far longer than
// a change takes to pass an unbuffered proxy, and far shorter than a
// buffering one holds a small event (until its buffer fills or the stream
// ends).
func (s *eventStream) state(t *testing.T) State {
	t.Helper()
	select {
	case data, ok := <-s.events:
		var st State
		if !ok || json.Unmarshal([]byte(data), &st) != nil {
			t.Fatalf("the event stream through the proxy ended or sent %q", data)
		}
		return st
	case <-time.After(10 * time.Second):
		t.Fatal("no event through the proxy within 10 s: does it buffer the stream?")
	}
	return State{}
}

// readLog waits for the proxy's request log to name want, and returns it.
func readLog(t *testing.T, path, want string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), want) {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the proxy's request log does not name %s:\n%s", want, b)
		}
	}
}
