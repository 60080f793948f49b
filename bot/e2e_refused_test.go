package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/strategobot/strategobot/internal/discordtest"
	"github.com/strategobot/strategobot/storage"
)

// TestRefusedBoard: Discord refuses a board itself (a 4xx that is about
// neither permissions nor closed DMs: a form it does not take, a picture too
// large). The board goes again as plain text, its headline and its
// picture's alt text; refused again, the player (or the channel) is told
// where to see the match. Each is received exactly once, the mover's clock
// starts when the plain board arrived or the notice was given up, and the
// log names Discord's code, never the board.
func TestRefusedBoard(t *testing.T) {
	t.Parallel()
	const create = "POST /channels/{channel_id}/messages"
	tests := []struct {
		name    string
		public  bool // the channel's board is refused, not Bob's DM
		refusal discordtest.Refusal
		times   int
		plain   bool   // the plain board arrives
		told    string // else, the line that arrives instead
		code    string // in the log
		locale  string // Bob's language, or the server's for the channel
	}{
		{"a DM board refused with 50035", false,
			discordtest.InvalidFormBody("components/0/components/0/options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."), 1,
			true, "", "code=50035", ""},
		{"a public board refused with 40005", true, discordtest.EntityTooLarge(), 1, true, "", "code=40005", ""},
		{"a DM board refused twice", false, discordtest.InvalidFormBody("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."), 2,
			false, "`/stratego board match:1` shows your board", "code=50035", ""},
		{"a public board refused twice", true, discordtest.EntityTooLarge(), 2, false, "`/stratego watch match:1` shows its board", "code=40005", ""},
		{"a DM board refused twice, told in French", false, discordtest.EmptyMessage(), 2, false,
			"**Partie #1** · alice (Rouge) contre bob (Bleu)\nDiscord a refusé le message que j'ai essayé de vous envoyer sur cette partie, même en texte brut. `/stratego board match:1` montre votre plateau", "code=50006", "fr"},
		{"a public board refused twice, told in German", true, discordtest.EntityTooLarge(), 2, false,
			"**Partie #1** · alice (Rot) gegen bob (Blau)\nDiscord hat die Nachricht abgelehnt, die ich hier zu dieser Partie posten wollte, auch als reinen Text. `/stratego watch match:1` zeigt ihr Brett.", "code=40005", "de"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var log logLines
			h := newHarness(t, log.capture)
			h.startClassic()
			h.waitMoves(1, 0)
			switch {
			case tc.public && tc.locale != "":
				h.guild.SetLocale(tc.locale)
				h.shutdown()
				h.start() // a new session, whose GUILD_CREATE carries the server's locale
			case tc.locale != "":
				// Bob's first interaction in his language: his later DMs are in it too.
				h.bob.SetLocale(tc.locale)
				h.bob.SlashCommand(t, h.channel, "stratego board", discordtest.Opt("text", true)).Reply(t)
			}
			where := h.bob.DM()
			if tc.public {
				where = h.channel
			}
			h.srv.RefuseNextIn(t, create, where, tc.times, tc.refusal)
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitMoves(1, 1)
			h.outboxEmpty()
			at := h.clock.Now()

			const moved = "alice moved A4-A5"
			received := h.bob.DMs()
			if tc.public {
				received = h.srv.ChannelMessages(h.channel)
			}
			var got []*discordtest.Message
			for _, m := range received {
				if strings.Contains(m.Content, "A4-A5") || strings.Contains(m.Content, "Discord") {
					got = append(got, m)
				}
			}
			if len(got) != 1 {
				t.Fatalf("%d messages of the move, want exactly one: %q", len(got), contents(got))
			}
			msg := got[0]
			switch {
			case tc.plain && (!strings.Contains(msg.Content, moved) || !strings.Contains(msg.Content, "```") || len(msg.Files) != 0 || len(msg.Components) != 0):
				t.Errorf("the plain board: %q with %d files and %d components; want the headline and the alt text alone", msg.Content, len(msg.Files), len(msg.Components))
			case !tc.plain && (!strings.Contains(msg.Content, tc.told) || tc.locale == "" && !strings.Contains(msg.Content, "**Match #1**")):
				t.Errorf("told %q; want %q", msg.Content, tc.told)
			}
			t.Logf("received: %s", msg.Content)
			// The other side still sees its board with its picture.
			switch {
			case tc.locale != "":
			case tc.public:
				if n := countDMs(h.bob, moved); n != 1 || len(lastDM(h.bob).Files) != 1 {
					t.Errorf("Bob got his board %d times (files %d), want once with its picture", n, len(lastDM(h.bob).Files))
				}
			default:
				if n := h.channelCount(moved); n != 1 {
					t.Errorf("the channel got the board %d times, want once", n)
				}
			}
			if m := h.match(1); m.ClockPending || !m.Deadline.Equal(at.Add(m.MoveTime)) {
				t.Errorf("Bob's clock: pending %v, deadline %v after the delivery; want %v", m.ClockPending, m.Deadline.Sub(at), m.MoveTime)
			}
			lines := log.String()
			if !strings.Contains(lines, "level=WARN msg=\"Discord refused a message") || !strings.Contains(lines, tc.code) {
				t.Errorf("the log does not warn of the refusal with %s:\n%s", tc.code, lines)
			}
			if leak := rankNames().FindString(lines); leak != "" {
				t.Errorf("the log names a rank (%q):\n%s", leak, lines)
			}
		})
	}
}

// contents lists messages' contents, for a failure.
func contents(msgs []*discordtest.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Content)
	}
	return out
}

// TestRefusedBoardUnrecorded: the outcome of Bob's refused board is not
// recorded (the process stops right after Discord answered), and the notice
// is delivered again from the start. Bob still receives his plain board, or
// the line that tells him where to see it, exactly once.
func TestRefusedBoardUnrecorded(t *testing.T) {
	t.Parallel()
	const create = "POST /channels/{channel_id}/messages"
	tests := []struct {
		name  string
		times int    // refusals of Bob's DMs: both tries of each of three deliveries, or the first
		want  string // what Bob receives, once
	}{
		{"the plain board arrived", 1, "alice moved A4-A5"},
		{"the line was owed", 6, "`/stratego board match:1` shows your board"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.startClassic()
			h.waitMoves(1, 0)
			var lost atomic.Int32
			stop := func(n storage.Notice) bool {
				return n.Match == 1 && n.Event == storage.EventMove && n.To == storage.AudienceBlue && lost.Add(1) <= 2
			}
			h.reads.failDoneOf.Store(&stop)
			h.srv.RefuseNextIn(t, create, h.bob.DM(), tc.times, discordtest.InvalidFormBody("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."))
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitStored(1, 1)
			h.outboxEmpty()
			if n := lost.Load(); n < 3 {
				t.Fatalf("the outcome was lost %d times, want 2 and then recorded", min(n, 2))
			}
			at := h.clock.Now()
			var got []string
			for _, m := range h.bob.DMs() {
				if strings.Contains(m.Content, "A4-A5") || strings.Contains(m.Content, "Discord") {
					got = append(got, m.Content)
				}
			}
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("Bob received %q; want %q once", got, tc.want)
			}
			if m := h.match(1); m.ClockPending || !m.Deadline.Equal(at.Add(m.MoveTime)) {
				t.Errorf("Bob's clock: pending %v, deadline %v after the delivery; want %v", m.ClockPending, m.Deadline.Sub(at), m.MoveTime)
			}
		})
	}
}

// TestRefusedSetupInvite: Bob's set-up invite is refused, as a whole and as
// plain text. He is told, once, how to send his set-up instead, and the
// set-up time runs from when the invite was given up.
func TestRefusedSetupInvite(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.RefuseNextIn(t, "POST /channels/{channel_id}/messages", h.bob.DM(), 2, discordtest.EmptyMessage())
	h.challenge("Classic")
	h.bot.deliverDue(context.Background())
	h.outboxEmpty()
	var got []string
	for _, m := range h.bob.DMs() {
		got = append(got, m.Content)
	}
	const want = "**Match #1** · alice (Red) vs bob (Blue)\nDiscord refused the message I tried to send you about this match, even as plain text. `/stratego setup match:1` sends your set-up."
	if len(got) != 1 || got[0] != want {
		t.Errorf("Bob received %q; want %q once", got, want)
	}
	if n := countDMs(h.alice, "Send me your secret set-up"); n != 1 {
		t.Errorf("Alice received her invite %d times, want once", n)
	}
	if m := h.match(1); m.Phase != storage.PhaseSetup || m.ClockPending || !m.Deadline.Equal(h.clock.Now().Add(m.MoveTime)) {
		t.Errorf("the set-up clock: phase %v, pending %v, deadline %v from now; want %v", m.Phase, m.ClockPending, m.Deadline.Sub(h.clock.Now()), m.MoveTime)
	}
}

// TestRefusedLiveBoard: in the live board mode Discord refuses the edit of
// the live message. The live message shows the board as plain text until
// the next move's edit brings the picture back; refused again, the channel
// is told once where to see the board, and the next edit goes as usual.
func TestRefusedLiveBoard(t *testing.T) {
	t.Parallel()
	const edit = "PATCH /channels/{channel_id}/messages/{message_id}"
	for _, times := range []int{1, 2} {
		t.Run(fmt.Sprintf("refused %d times", times), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			boardMode(t, "live")(h)
			h.startClassic()
			h.waitMoves(1, 0)
			h.srv.RefuseNextIn(t, edit, h.channel, times, discordtest.EntityTooLarge())
			h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
			h.waitMoves(1, 1)
			h.outboxEmpty()
			var live *discordtest.Message
			told := 0
			for _, m := range h.srv.ChannelMessages(h.channel) {
				if strings.Contains(m.Content, "**Match #1**") && m.Edits > 0 {
					live = m
				}
				if strings.Contains(m.Content, "`/stratego watch match:1` shows its board") {
					told++
				}
			}
			if live == nil {
				t.Fatal("no live message")
			}
			switch times {
			case 1:
				if !strings.Contains(live.Content, "alice moved A4-A5") || !strings.Contains(live.Content, "```") || len(live.Files) != 0 || told != 0 {
					t.Errorf("the live message after a refused edit: %q with %d files; the channel told %d times", live.Content, len(live.Files), told)
				}
			default:
				if strings.Contains(live.Content, "alice moved A4-A5") || told != 1 {
					t.Errorf("the live message after two refused edits: %q; the channel told %d times, want once", live.Content, told)
				}
			}
			h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
			h.waitMoves(1, 2)
			h.outboxEmpty()
			msgs := h.srv.ChannelMessages(h.channel)
			k := slices.IndexFunc(msgs, func(m *discordtest.Message) bool { return m.ID == live.ID })
			if live = msgs[k]; !strings.Contains(live.Content, "bob moved J7-J6") || len(live.Files) != 1 {
				t.Errorf("the live message after the next move: %q with %d files; want the board with its picture", live.Content, len(live.Files))
			}
		})
	}
}

// TestRefusedRepostOfLiveBoard: in the live board mode a moderator deletes
// the live message, and Discord refuses the board posted anew (its picture
// too large). The board goes as plain text, as a refused edit does, and
// that message is the live one from then on: the channel is not told the
// board was refused.
func TestRefusedRepostOfLiveBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	boardMode(t, "live")(h)
	h.startClassic()
	h.waitMoves(1, 0)
	h.outboxEmpty()
	old := h.match(1).LiveMessage
	h.srv.DeleteMessage(old)
	h.srv.RefuseNextIn(t, createMessageRoute, h.channel, 1, discordtest.EntityTooLarge())
	h.alice.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "A4"), discordtest.Opt("to", "A5")).Reply(t)
	h.waitMoves(1, 1)
	h.outboxEmpty()
	var posted []*discordtest.Message
	for _, m := range h.srv.ChannelMessages(h.channel) {
		if strings.Contains(m.Content, "alice moved A4-A5") {
			posted = append(posted, m)
		}
		if strings.Contains(m.Content, "`/stratego watch match:1` shows its board") {
			t.Errorf("the channel was told the board was refused: %q", m.Content)
		}
	}
	if len(posted) != 1 || !strings.Contains(posted[0].Content, "```") || len(posted[0].Files) != 0 {
		t.Fatalf("move 1's board posted anew: %d messages; want one, as plain text", len(posted))
	}
	if live := h.match(1).LiveMessage; live != posted[0].ID {
		t.Errorf("the live message is %s; want the board posted anew, %s", live, posted[0].ID)
	}
	h.bob.SlashCommand(t, h.channel, "stratego move", discordtest.Opt("from", "J7"), discordtest.Opt("to", "J6")).Reply(t)
	h.waitMoves(1, 2)
	h.outboxEmpty()
	if live := h.srv.Message(posted[0].ID); !strings.Contains(live.Content, "bob moved J7-J6") || len(live.Files) != 1 {
		t.Errorf("the live message after the next move: %q with %d files; want the board with its picture", live.Content, len(live.Files))
	}
}
