package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// The operator who reads the bot's log may be a player, and the computer's
// pieces are its own secret: the tests here capture every line the bot
// logs through whole matches, and look in them for a rank's name in any
// language the bot speaks, a set-up's row, a text a player sent by DM, a
// web link's token, or the argument words of a stack.

// logLines is every line a bot logs, at every level.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// capture makes the harness's bot log into l, debug lines included.
func (l *logLines) capture(c *Config) {
	c.Logger = slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// waitFor waits until the log holds a line that contains s.
func (l *logLines) waitFor(h *harness, s string) {
	h.t.Helper()
	h.srv.WaitFor(h.t, "the log to say "+s, func() bool { return strings.Contains(l.String(), s) })
}

// rankNames matches the name of a rank, alone or in a plural, in each of
// the bot's languages, as a word of its own: what a leak of a hidden piece
// says.
func rankNames() *regexp.Regexp {
	names := []string{"Spies"} // English's one plural that is not its name and an ending
	for _, code := range []string{"en", "nl", "de", "fr"} {
		p := lang.For(code)
		for _, r := range game.Ranks {
			names = append(names, regexp.QuoteMeta(p.Sprintf(r.Name())))
		}
	}
	return regexp.MustCompile(`(?:^|[^\p{L}])(?:` + strings.Join(names, "|") + `)(?:s|es|e|en|n|men|nen)?(?:$|[^\p{L}])`)
}

var (
	// setupRow is a row of a set-up in either numbering, as a player types
	// it and FormatSetup writes it.
	setupRow = regexp.MustCompile(`(?:^|[^\w.?])(?:(?:10|[1-9]|[SIBF.?]) +){9}(?:10|[1-9]|[SIBF.?])(?:$|[^\w.?])`)
	// rankNumber is a rank by its number, as the pictures' input errors name it.
	rankNumber = regexp.MustCompile(`(?i)\brank \d`)
	// argWords are the argument words of a Go stack trace.
	argWords = regexp.MustCompile(`\(0x[0-9a-f]+|\{0x[0-9a-f]+|0x[0-9a-f]{4,}`)
)

// logSecrets is what no log line may hold.
type logSecrets struct {
	ranks *regexp.Regexp
	texts []string // set-up rows, DM texts, link tokens
}

func newLogSecrets() *logSecrets { return &logSecrets{ranks: rankNames()} }

// setups adds every row of the set-ups of h's matches, as stored, in both
// numberings: the players' and the computer's.
func (s *logSecrets) setups(h *harness) {
	h.t.Helper()
	for id := storage.MatchID(1); ; id++ {
		m, err := h.db.Match(context.Background(), id)
		if errors.Is(err, storage.ErrNotFound) {
			return
		}
		if err != nil {
			h.t.Fatal(err)
		}
		for _, side := range m.Setups {
			if side.Setup == (game.Setup{}) {
				continue
			}
			for _, n := range []game.Numbering{game.NumberingModern, game.NumberingClassic} {
				s.texts = append(s.texts, strings.Split(game.FormatSetup(side.Setup, n), "\n")...)
			}
		}
	}
}

// links adds the token of every web link the members were sent.
func (s *logSecrets) links(h *harness, members ...*discordtest.Member) {
	var msgs []*discordtest.Message
	for _, m := range members {
		msgs = append(msgs, m.DMs()...)
		msgs = append(msgs, m.Ephemerals()...)
	}
	msgs = append(msgs, h.srv.ChannelMessages(h.channel)...)
	for _, msg := range msgs {
		for _, b := range msg.Buttons() {
			if _, token, ok := strings.Cut(b.URL, "#"); ok && token != "" {
				s.texts = append(s.texts, token)
			}
		}
	}
}

// dm sends text to the bot from m, and keeps it as a secret: the log must
// not quote what a player wrote.
func (s *logSecrets) dm(t *testing.T, m *discordtest.Member, text string) *discordtest.Message {
	t.Helper()
	s.texts = append(s.texts, text)
	return m.SendDM(t, text)
}

// check fails t for each log line that holds a secret.
func (s *logSecrets) check(t *testing.T, logs string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	for _, line := range lines {
		var why []string
		if w := s.ranks.FindString(line); w != "" {
			why = append(why, fmt.Sprintf("a rank's name %q", strings.TrimSpace(w)))
		}
		if w := rankNumber.FindString(line); w != "" {
			why = append(why, fmt.Sprintf("a rank's number %q", w))
		}
		if w := setupRow.FindString(line); w != "" {
			why = append(why, fmt.Sprintf("a set-up row %q", strings.TrimSpace(w)))
		}
		if w := argWords.FindString(line); w != "" {
			why = append(why, fmt.Sprintf("a stack's argument words %q", w))
		}
		if strings.Contains(line, "/board#") {
			why = append(why, "a board link")
		}
		for _, secret := range s.texts {
			if secret = strings.TrimSpace(secret); len(secret) >= 4 && strings.Contains(line, secret) {
				why = append(why, fmt.Sprintf("%q", secret))
			}
		}
		if len(why) > 0 {
			t.Errorf("the log line says %s:\n%s", strings.Join(why, ", "), line)
		}
	}
	t.Logf("%d log lines checked", len(lines))
}

// squareOf is the square of side's piece of rank r in m, as it was set up.
func squareOf(t *testing.T, m *storage.Match, side game.Side, r game.Rank) game.Square {
	t.Helper()
	for s := game.Square(0); s < game.NumSquares; s++ {
		if row, col, ok := game.SetupCell(side, s); ok && m.Setups[side].Setup[row][col] == r {
			return s
		}
	}
	t.Fatalf("%s set up no %s", side, r.Name())
	return game.NoSquare
}

// TestLogsKeepSecrets plays whole matches and fails on a log line that
// holds a secret: a practice match against the computer in which the
// computer's move is refused and a bug panics with what it moves, and a
// match between two members with set-ups by DM (one mistyped), illegal
// moves, web pages open, and Discord failing the messages of a move.
func TestLogsKeepSecrets(t *testing.T) {
	t.Parallel()
	t.Run("practice", func(t *testing.T) {
		t.Parallel()
		var logs logLines
		secrets := newLogSecrets()
		h := newHarness(t, logs.capture, func(c *Config) { c.Limits.ComputerPace = time.Millisecond })
		webOn(t, h)
		g := practiceDuelBegun(t, h, "easy")
		// The computer's first answer attacks nothing: a Scout of its
		// random set-up could otherwise take alice's Flag before the steps
		// below, in a Duel's open lines.
		quiet := func(side game.Side, mv game.Move) game.Move {
			if side == game.Red { // alice's own, quiet already
				return mv
			}
			h.reads.moveAs.Store(nil)
			m, err := h.db.Match(context.Background(), 1)
			if err != nil {
				return mv
			}
			now, err := m.Game()
			if err != nil {
				return mv
			}
			if q, ok := quietMove(now); ok {
				return q
			}
			return mv
		}
		h.reads.moveAs.Store(&quiet)
		h.alice.SendDM(t, mustQuietMove(t, g).String())
		m := h.waitMoves(1, 2) // the computer answered
		computer := m.ToMove().Opponent()

		// The computer's move is refused: it moves its own Flag, which the
		// engine's reason names, on the square it stands on.
		flag := squareOf(t, m, computer, game.Flag)
		refuse := func(side game.Side, mv game.Move) game.Move {
			if side != computer {
				return mv
			}
			h.reads.moveAs.Store(nil)
			if flag.Row() > 0 {
				return game.Move{From: flag, To: flag - 10}
			}
			return game.Move{From: flag, To: flag + 10}
		}
		h.reads.moveAs.Store(&refuse)
		g, _ = m.Game()
		h.alice.SendDM(t, mustQuietMove(t, g).String())
		logs.waitFor(h, "the computer's move was refused")

		// A bug panics with what the computer moves, while the move's
		// square is among the stack's argument words.
		m = h.waitStored(1, 3)
		boom := func(side game.Side, mv game.Move) game.Move {
			h.reads.moveAs.Store(nil)
			row, col, _ := game.SetupCell(side, mv.From)
			panic(fmt.Sprintf("moving the %s on %s", m.Setups[side].Setup[row][col].Name(), mv.From))
		}
		h.reads.moveAs.Store(&boom)
		h.bot.computerTurn(context.Background(), m)
		logs.waitFor(h, "handler panicked")

		// Then it moves, and alice resigns: the final reveal shows both armies.
		h.bot.computerTurn(context.Background(), h.match(1))
		h.waitMoves(1, 4)
		ask := h.alice.SlashCommand(t, h.channel, "stratego resign").Reply(t)
		h.alice.ClickButton(t, ask, button(t, ask, "Resign")).Updated(t)
		if m := h.waitStored(1, 1000); m.Phase != storage.PhaseFinished {
			t.Fatalf("after alice resigned the match is %v", m.Phase)
		}
		h.outboxEmpty()
		secrets.setups(h)
		h.shutdown() // its last lines too
		secrets.links(h, h.alice)
		secrets.check(t, logs.String())
	})
	t.Run("members", func(t *testing.T) {
		t.Parallel()
		var logs logLines
		secrets := newLogSecrets()
		h := newHarness(t, logs.capture)
		base := webOn(t, h)
		red := leakRed(t)
		blue := placed(t, map[[2]int]game.Rank{{0, 0}: game.Sergeant, {0, 5}: game.Flag})
		h.challenge("Classic")

		// alice mistypes her set-up first: a piece the rules do not know,
		// then a Marshal for her Flag.
		h.alice.WaitDM(t, contains("Send me your secret set-up"))
		typed := game.FormatSetup(red, game.NumberingModern)
		sent := secrets.dm(t, h.alice, strings.Replace(typed, "F ", "Zorro", 1))
		secrets.texts = append(secrets.texts, "Zorro")
		h.alice.WaitDM(t, answers(sent, "Zorro"))
		sent = secrets.dm(t, h.alice, strings.Replace(typed, "F ", "10", 1))
		h.alice.WaitDM(t, answers(sent, ""))
		secrets.texts = append(secrets.texts, typed, game.FormatSetup(blue, game.NumberingModern))
		h.sendSetups(red, blue)
		h.outboxEmpty()

		// Web pages open: alice's, through the link of her board.
		aliceLink := openBoardLink(t, h.alice.WaitDM(t, func(m *discordtest.Message) bool { return hasButton(m, "Open board") }))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		webEvents(t, ctx, base, aliceLink)

		h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
		secrets.dm(t, h.bob, "J7-J6")
		h.waitMoves(1, 2)
		// Illegal moves, by DM and on the web board: her Flag on A1. The
		// refusal is hers to read, and nobody's to log.
		secrets.dm(t, h.alice, "A1-A2")
		h.alice.WaitDM(t, contains("Flag cannot move"))
		_, state := apiStatus(t, base, aliceLink, "GET", "/api/state", "")
		var st struct {
			Basis string `json:"basis"`
		}
		if err := json.Unmarshal([]byte(state), &st); err != nil {
			t.Fatalf("state %s: %v", state, err)
		}
		if code, resp := apiStatus(t, base, aliceLink, "POST", "/api/move", fmt.Sprintf(`{"basis":%q,"from":0,"to":10}`, st.Basis)); code != 409 {
			t.Fatalf("moving the Flag on the web board: %d %s", code, resp)
		}
		// Discord drops the gateway, rate-limits a post, fails an edit of
		// the live board, and bob's DMs are closed for a move.
		h.srv.DropGateway()
		h.srv.RateLimitNext(t, "POST /channels/{channel_id}/messages", 1, 50*time.Millisecond)
		h.srv.FailNext(t, "PATCH /channels/{channel_id}/messages/{message_id}", 1, 503)
		h.bob.CloseDMs()
		secrets.dm(t, h.alice, "A5-A6")
		h.waitMoves(1, 3)
		logs.waitFor(h, "cannot reach its recipient")
		h.outboxEmpty()
		h.bob.OpenDMs()
		secrets.dm(t, h.bob, "J6-J5")
		h.waitMoves(1, 4)

		// Discord fails the messages of the winning move; they go out later.
		h.srv.FailNext(t, "POST /channels/{channel_id}/messages", 3, 500)
		secrets.dm(t, h.alice, "E4xE7")
		h.waitStored(1, 5)
		logs.waitFor(h, "it will be tried again")
		h.advance(backoff(1, 0))
		h.bob.WaitDM(t, contains("You lost"))
		h.outboxEmpty()
		secrets.setups(h)
		h.shutdown() // its last lines too
		secrets.links(h, h.alice, h.bob)
		secrets.check(t, logs.String())
	})
}

// TestLeakPatterns: the patterns TestLogsKeepSecrets looks for find a rank
// in each language, in the singular and the plural, a set-up row in either
// numbering and a stack's argument words, and pass the bot's usual lines.
func TestLeakPatterns(t *testing.T) {
	ranks := rankNames()
	row := strings.Split(game.FormatSetup(placed(t, nil), game.NumberingModern), "\n")[0]
	classic := strings.Split(game.FormatSetup(placed(t, nil), game.NumberingClassic), "\n")[3]
	for _, c := range []struct {
		line string
		re   *regexp.Regexp
		leak bool
	}{
		{`error="the Flag cannot move"`, ranks, true},
		{`error="Bombs cannot move"`, ranks, true},
		{`panic="de Maarschalk op B7"`, ranks, true},
		{`panic="zwei Bomben, die Fahne"`, ranks, true},
		{`panic="les Éclaireurs"`, ranks, true},
		{`panic="Spies"`, ranks, true},
		{`msg=connected user=Stratego`, ranks, false},
		{`error="json: error calling MarshalJSON for type x"`, ranks, false},
		{`msg="registered the command" scope=global`, ranks, false},
		{`setup="` + row + `"`, setupRow, true},
		{`setup="` + classic + `"`, setupRow, true},
		{`msg="tournament round paired" tournament=1 round=2 games=3`, setupRow, false},
		{`stack="bot.f(0xc000123456, {0x1, 0x2})"`, argWords, true},
		{`panic.at="bot.f (/src/bot/bot.go:287)"`, argWords, false},
	} {
		if got := c.re.MatchString(c.line); got != c.leak {
			t.Errorf("%q: found %v, want %v", c.line, got, c.leak)
		}
	}
}
