package storagetest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// The crash test of every backend: a child process (the test binary run
// again, see ChildCommand) plays many matches on the database and prints an
// acknowledgement after each commit; the test kills it with SIGKILL at random
// moments and, after every kill, opens the database and checks that every
// acknowledged change is there (CheckAfterCrash). A backend declares its
// CrashTest, gives its Child the role "crash" in TestMain, and runs it from
// its TestCrash with its own database and its own checks; what the child
// plays, what it prints, when it is killed and what is checked for every
// backend are here.

// CrashTest is one backend's crash test.
type CrashTest struct {
	// Shape is what the child plays.
	Shape CrashShape
	// Kills is how many times the child is started and killed, at least.
	Kills int
	// Wait bounds the wait for the child's first line; it then runs for a
	// random 20 to 200 ms more.
	Wait time.Duration
	// Open opens, in the child, the database its argument names.
	Open func(arg string) (storage.Store, error)
}

// Child is the crash child's role (see PlayChild): it opens the database arg
// names and plays Shape on it until it is killed.
func (c CrashTest) Child(arg string) {
	out := os.Stdout // the parent reads the child's acknowledgements, and this error, there
	db, err := c.Open(arg)
	if err != nil {
		fmt.Fprintln(out, "error: open:", err)
		os.Exit(1)
	}
	playCrash(db, c.Shape, out)
}

// Run starts the crash child with arg (ChildCommand("crash", arg)) and kills
// it at a random moment, Kills times. After each kill, verify checks the
// database (CheckAfterCrash, and the backend's own checks) with every change
// acknowledged so far, and reports whether the test has seen enough; while it
// has not, or the children have acknowledged fewer than ten changes for each
// of Kills, the child runs again, up to four times Kills (on a busy machine a
// child may need more runs to get going or to finish a match). Run fails the
// test when the children hardly got going even then, or verify never saw
// enough.
func (c CrashTest) Run(t *testing.T, arg string, verify func(t *testing.T, acked map[storage.MatchID][]Ack) (enough bool)) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	acked := map[storage.MatchID][]Ack{}
	total, kills, enough := 0, 0, false
	going := func() bool { return enough && total >= 10*c.Kills } // the children got going
	start := time.Now()
	for ; kills < c.Kills || (!going() && kills < 4*c.Kills); kills++ {
		acks := runAndKill(t, ChildCommand("crash", arg), c.Wait, time.Duration(20+r.IntN(180))*time.Millisecond)
		for _, a := range acks {
			acked[a.ID] = append(acked[a.ID], a)
		}
		total += len(acks)
		enough = verify(t, acked)
	}
	if !going() {
		t.Errorf("only %d acknowledged changes in %d runs (enough for the checks: %t): the child hardly got going", total, kills, enough)
	}
	t.Logf("%d kills, %d acknowledged changes in %d matches, all present after every kill (%s)", kills, total, len(acked), time.Since(start).Round(time.Millisecond))
}

// CrashShape is what a crash child plays: Workers goroutines, each keeping
// ActivePerChannel matches going in a channel of its own (CrashChannel),
// and resigning a match after MaxMoves moves, when a new one starts.
type CrashShape struct {
	Workers, ActivePerChannel, MaxMoves int
}

// CrashChannel is the channel of a crash child's worker w.
func CrashChannel(w int) string { return fmt.Sprintf("crash-%d", w) }

// Ack is one change a crash child reported committed: the match, its version
// after the change, and the log entry the change added (Index -1 for a
// creation or a set-up, which add none).
type Ack struct {
	ID      storage.MatchID
	Version uint64
	Index   int
	Token   string
}

// String is the line a crash child prints for a.
func (a Ack) String() string {
	return fmt.Sprintf("ack %d %d %d %s", a.ID, a.Version, a.Index, a.Token)
}

// ParseAck reads a line a crash child printed; false for any other line.
func ParseAck(line string) (Ack, bool) {
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != "ack" {
		return Ack{}, false
	}
	id, err1 := strconv.ParseUint(f[1], 10, 64)
	v, err2 := strconv.ParseUint(f[2], 10, 64)
	i, err3 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || err3 != nil {
		return Ack{}, false
	}
	return Ack{storage.MatchID(id), v, i, f[4]}, true
}

// playCrash plays shape on db until the process is killed, writing an Ack
// line to out (the child's standard output, which runAndKill reads) after
// each commit, or a line starting "error" if a worker fails. It never returns.
func playCrash(db storage.Store, shape CrashShape, out io.Writer) {
	var mu sync.Mutex
	say := func(line string) {
		mu.Lock()
		_, _ = io.WriteString(out, line+"\n")
		mu.Unlock()
	}
	for w := range shape.Workers {
		go func() {
			err := crashWorker(db, w, shape, say) // returns only when it fails
			say(fmt.Sprintf("error: worker %d: %v", w, err))
		}()
	}
	select {}
}

// crashWorker keeps worker w's matches going: it creates them, confirms
// their set-ups, plays random moves and resigns them after MaxMoves, until
// a change fails.
func crashWorker(db storage.Store, w int, shape CrashShape, say func(string)) error {
	ctx := context.Background()
	channel := CrashChannel(w)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
	for {
		active, err := db.ChannelMatches(ctx, channel, true, 0)
		if err != nil {
			return err
		}
		if len(active) < shape.ActivePerChannel {
			m := NewMatch(game.VariantClassic)
			m.ChannelID, m.Created = channel, time.Now()
			if m, err = db.CreateMatch(ctx, m); err != nil {
				return err
			}
			say(Ack{m.ID, m.Version, -1, "create"}.String())
			continue
		}
		m := active[r.IntN(len(active))]
		if m.Phase == storage.PhaseSetup {
			side := game.Red
			if m.Setups[side].Status == storage.SetupConfirmed {
				side = game.Blue
			}
			if m, err = db.SetSetup(ctx, m.ID, m.Version, side, game.RandomSetup(m.Rules, r.Uint64()), storage.SetupConfirmed, time.Now()); err != nil {
				return err
			}
			say(Ack{m.ID, m.Version, -1, "setup"}.String())
			continue
		}
		if m.Moves() >= shape.MaxMoves {
			if m, err = db.Act(ctx, m.ID, m.Version, storage.Action{Kind: storage.ActResign, Side: game.Blue, At: time.Now()}); err != nil {
				return err
			}
			say(lastAck(m).String())
			continue
		}
		g, err := m.Game()
		if err != nil {
			return err
		}
		moves := g.LegalMoves()
		next, _, err := db.ApplyMove(ctx, m.ID, m.Version, g.ToMove(), moves[r.IntN(len(moves))], time.Now())
		if err != nil {
			return err
		}
		say(lastAck(next).String())
	}
}

// lastAck is the Ack of the change that added m's last log entry.
func lastAck(m *storage.Match) Ack {
	return Ack{m.ID, m.Version, len(m.Log) - 1, m.Log[len(m.Log)-1].String()}
}

// runAndKill starts cmd, a crash child, waits for its first line (at most
// wait), lets it run for d more, kills it with SIGKILL and returns the acks
// it printed. A line starting "error" fails the test.
func runAndKill(t testing.TB, cmd *exec.Cmd, wait, d time.Duration) []Ack {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acks []Ack
	var errLine string
	first := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		signalled := false
		for sc.Scan() {
			line := sc.Text()
			if a, ok := ParseAck(line); ok {
				acks = append(acks, a)
			} else if strings.HasPrefix(line, "error") {
				errLine = line
			}
			if !signalled {
				signalled = true
				close(first)
			}
		}
		if !signalled {
			close(first)
		}
	}()
	select {
	case <-first:
	case <-time.After(wait):
	}
	time.Sleep(d)
	_ = cmd.Process.Kill() // SIGKILL
	<-done
	_ = cmd.Wait()
	if errLine != "" {
		t.Fatalf("child: %s", errLine)
	}
	return acks
}

// CheckAfterCrash checks db after a child playing shape was killed: every
// acknowledged match is there and replays to its stored result, at least at
// every version acknowledged, with every acknowledged log entry in its place;
// and every match of the child's channels has one version per change
// (CheckVersion). It returns those matches, for the backend's own checks.
func CheckAfterCrash(t testing.TB, db storage.Store, shape CrashShape, acked map[storage.MatchID][]Ack) []*storage.Match {
	t.Helper()
	ctx := context.Background()
	for id, list := range acked {
		m, err := db.Match(ctx, id)
		if err != nil {
			t.Fatalf("acknowledged match %d: %v", id, err)
		}
		CheckReplay(t, m)
		for _, a := range list {
			if m.Version < a.Version {
				t.Fatalf("match %d is at version %d, but version %d was acknowledged", id, m.Version, a.Version)
			}
			if a.Index >= 0 && (a.Index >= len(m.Log) || m.Log[a.Index].String() != a.Token) {
				t.Fatalf("match %d: acknowledged action %d %s is missing", id, a.Index, a.Token)
			}
		}
	}
	var all []*storage.Match
	for w := range shape.Workers {
		for _, active := range []bool{true, false} {
			list, err := db.ChannelMatches(ctx, CrashChannel(w), active, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range list {
				CheckVersion(t, m)
			}
			all = append(all, list...)
		}
	}
	return all
}

// CheckVersion checks that m's version counts its changes: 1 at creation,
// one per confirmed set-up, one per logged action; anything else is a
// change half made.
func CheckVersion(t testing.TB, m *storage.Match) {
	t.Helper()
	want := uint64(1 + len(m.Log))
	for _, s := range m.Setups {
		if s.Status == storage.SetupConfirmed {
			want++
		}
	}
	if m.Version != want {
		t.Fatalf("match %d at version %d with %d actions, want %d", m.ID, m.Version, len(m.Log), want)
	}
}
