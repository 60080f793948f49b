package discordtest

import (
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestMemberReply checks what the bot's session gets, over the gateway and
// by REST, when a member replies to a message.
func TestMemberReply(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		intent discordgo.Intent // privileged intents the bot has
		where  func(t testing.TB, w *world) *Channel
		// to posts the message replied to; it returns the author's id.
		to   func(t testing.TB, w *world, ch *Channel) (*Message, string)
		text func(w *world) string
		// What the bot's session gets over the gateway.
		wantContent, wantRefContent bool
	}{
		{
			name:  "DM, to the bot's message",
			where: func(_ testing.TB, w *world) *Channel { return w.alice.DM() },
			to: func(t testing.TB, w *world, ch *Channel) (*Message, string) {
				return botSays(t, w, ch, "**Match #2** · alice (Red) vs bob (Blue)"), w.srv.AppID()
			},
			text:        func(*world) string { return "B4-B5" },
			wantContent: true, wantRefContent: true,
		},
		{
			name:  "DM, to her own message",
			where: func(_ testing.TB, w *world) *Channel { return w.alice.DM() },
			to: func(t testing.TB, w *world, ch *Channel) (*Message, string) {
				return w.alice.SendDM(t, "A4-A5"), w.alice.ID
			},
			text:        func(*world) string { return "I meant B4-B5" },
			wantContent: true, wantRefContent: true,
		},
		{
			name:   "guild, to the bot's message, MESSAGE_CONTENT",
			intent: discordgo.IntentMessageContent,
			where:  func(_ testing.TB, w *world) *Channel { return w.guild.General() },
			to: func(t testing.TB, w *world, ch *Channel) (*Message, string) {
				return botSays(t, w, ch, "Match #3: alice vs bob"), w.srv.AppID()
			},
			text:        func(*world) string { return "good luck" },
			wantContent: true, wantRefContent: true,
		},
		{
			name:  "guild, to the bot's message, no MESSAGE_CONTENT",
			where: func(_ testing.TB, w *world) *Channel { return w.guild.General() },
			to: func(t testing.TB, w *world, ch *Channel) (*Message, string) {
				return botSays(t, w, ch, "Match #3: alice vs bob"), w.srv.AppID()
			},
			text:        func(*world) string { return "good luck" },
			wantContent: false, wantRefContent: true, // the bot's own text always reaches it
		},
		{
			name:  "guild, to bob's message, mentioning the bot, no MESSAGE_CONTENT",
			where: func(_ testing.TB, w *world) *Channel { return w.guild.General() },
			to: func(t testing.TB, w *world, ch *Channel) (*Message, string) {
				return w.bob.Say(t, ch, "my secret plan"), w.bob.ID
			},
			text:        func(w *world) string { return "<@" + w.srv.AppID() + "> look at this" },
			wantContent: true, wantRefContent: false,
		},
		{
			name:  "thread, to bob's message",
			where: startThread,
			to: func(t testing.TB, w *world, ch *Channel) (*Message, string) {
				return w.bob.Say(t, ch, "E7-E6?"), w.bob.ID
			},
			text:        func(*world) string { return "no" },
			wantContent: false, wantRefContent: false,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := make(chan *discordgo.MessageCreate, 16)
			w := newWorld(t, func(s *discordgo.Session) {
				s.Identify.Intents = discordgo.IntentsAllWithoutPrivileged | tc.intent
				s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })
			}, WithPrivilegedIntents(tc.intent))
			ch := tc.where(t, w)
			to, author := tc.to(t, w, ch)
			text := tc.text(w)
			reply := w.alice.Reply(t, to, text)

			wantRef := discordgo.MessageReference{MessageID: to.ID, ChannelID: ch.ID, GuildID: ch.GuildID}
			check := func(how string, m *discordgo.Message, content, refContent bool) {
				t.Helper()
				if m.ID != reply.ID || m.Type != discordgo.MessageTypeReply || m.Author.ID != w.alice.ID {
					t.Errorf("%s: message %s of type %d by %v, want %s of type 19 by alice", how, m.ID, m.Type, m.Author, reply.ID)
				}
				if (m.Content == text) != content || (m.Content == "") == content {
					t.Errorf("%s: content %q, want it: %v", how, m.Content, content)
				}
				if r := m.MessageReference; r == nil || *r != wantRef {
					t.Errorf("%s: message_reference %+v, want %+v", how, r, wantRef)
				}
				ref := m.ReferencedMessage
				if ref == nil {
					t.Fatalf("%s: no referenced_message", how)
				}
				if ref.ID != to.ID || ref.ChannelID != ch.ID || ref.Author == nil || ref.Author.ID != author || ref.ReferencedMessage != nil {
					t.Errorf("%s: referenced_message %+v, want %s by %s", how, ref, to.ID, author)
				}
				if (ref.Content == to.Content) != refContent || (ref.Content == "") == refContent {
					t.Errorf("%s: referenced content %q, want it: %v", how, ref.Content, refContent)
				}
			}
			// Over the gateway: the MESSAGE_CREATE of the reply.
			for m := range got {
				if m.ID == reply.ID {
					check("MESSAGE_CREATE", m.Message, tc.wantContent, tc.wantRefContent)
					if m.GuildID != ch.GuildID {
						t.Errorf("MESSAGE_CREATE in guild %q, want %q", m.GuildID, ch.GuildID)
					}
					break
				}
			}
			// By REST, and as the member sees it: everything.
			read, err := w.sess.ChannelMessage(ch.ID, reply.ID)
			if err != nil {
				t.Fatal(err)
			}
			check("GET message", read, true, true)
			list, err := w.sess.ChannelMessages(ch.ID, 1, "", "", "")
			if err != nil || len(list) != 1 {
				t.Fatalf("GET messages: %d, %v", len(list), err)
			}
			check("GET messages", list[0], true, true)
			check("Reply's answer", reply.Message, true, true)
		})
	}
}

// botSays makes the bot post text in a channel.
func botSays(t testing.TB, w *world, ch *Channel, text string) *Message {
	t.Helper()
	m, err := w.sess.ChannelMessageSend(ch.ID, text)
	if err != nil {
		t.Fatal(err)
	}
	return w.srv.Message(m.ID)
}

// startThread makes the bot start a public thread in general with alice
// and bob in it.
func startThread(t testing.TB, w *world) *Channel {
	t.Helper()
	th, err := w.sess.ThreadStartComplex(w.guild.General().ID, &discordgo.ThreadStart{Name: "Match #4", Type: discordgo.ChannelTypeGuildPublicThread})
	if err != nil {
		t.Fatal(err)
	}
	return w.srv.Channel(th.ID)
}

// TestReplyToDeletedMessage checks that a reply keeps its reference when
// the message it answers is deleted, and referenced_message turns null.
func TestReplyToDeletedMessage(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	dm := w.alice.DM()
	to := botSays(t, w, dm, "Match #1")
	reply := w.alice.Reply(t, to, "A4-A5")
	if err := w.sess.ChannelMessageDelete(dm.ID, to.ID); err != nil {
		t.Fatal(err)
	}
	read, err := w.sess.ChannelMessage(dm.ID, reply.ID)
	if err != nil {
		t.Fatal(err)
	}
	if read.Type != discordgo.MessageTypeReply || read.MessageReference == nil || read.MessageReference.MessageID != to.ID || read.ReferencedMessage != nil {
		t.Errorf("after the delete: type %d, reference %+v, referenced %+v", read.Type, read.MessageReference, read.ReferencedMessage)
	}
	if fails := fatal(t, func(tb testing.TB) { w.alice.Reply(tb, to, "again") }); len(fails) != 1 || !strings.Contains(fails[0], "was deleted") {
		t.Errorf("replying to the deleted message: %q", fails)
	}
}

// TestReplyRefusals checks that a member cannot reply where Discord's
// client offers no Reply.
func TestReplyRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(*discordgo.Interaction) *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "only you", Flags: discordgo.MessageFlagsEphemeral}}
		}))
	})
	toBob := botSays(t, w, w.bob.DM(), "Match #1, for bob")
	ephemeral := w.alice.SlashCommand(t, w.guild.General(), "stratego board").Reply(t)
	elsewhere := *toBob.Message
	elsewhere.ChannelID = w.alice.DM().ID
	tests := []struct {
		name string
		do   func(tb testing.TB)
		want string
	}{
		{"no message", func(tb testing.TB) { w.alice.Reply(tb, nil, "hi") }, "replies to no message"},
		{"another member's DM", func(tb testing.TB) { w.alice.Reply(tb, toBob, "hi") }, "alice cannot see channel"},
		{"a message of another channel", func(tb testing.TB) { w.alice.Reply(tb, &Message{Message: &elsewhere}, "hi") }, "has no message " + toBob.ID},
		{"an ephemeral message", func(tb testing.TB) { w.alice.Reply(tb, ephemeral, "hi") }, "is ephemeral"},
		{"empty text", func(tb testing.TB) { w.bob.Reply(tb, toBob, "") }, "1 to 2000 characters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fatal(t, tc.do)
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("failures %q, want one containing %q", got, tc.want)
			}
		})
	}
	if n := len(w.alice.DMs()) + len(w.bob.DMs()); n != 1 {
		t.Errorf("%d DMs after the refused replies, want only the bot's", n)
	}
}

// TestBotReplyToDeletedMessage: a reply of the bot's to a DM its member
// deleted is refused (50035, Unknown message), unless it says
// fail_if_not_exists false: then it goes as a message that replies to
// nothing. A reply to a message that is there is a reply.
func TestBotReplyToDeletedMessage(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	dm := w.alice.SendDM(t, "A4-A5")
	ref := &discordgo.Message{ID: dm.ID, ChannelID: dm.ChannelID}
	m, err := w.sess.ChannelMessageSendComplex(dm.ChannelID, &discordgo.MessageSend{Content: "read", Reference: ref.Reference()})
	if err != nil || m.MessageReference == nil || m.MessageReference.MessageID != dm.ID {
		t.Fatalf("a reply to a DM there: %+v, %v; want a reply to it", m, err)
	}
	w.alice.Delete(t, dm)
	_, err = w.sess.ChannelMessageSendComplex(dm.ChannelID, &discordgo.MessageSend{Content: "gone", Reference: ref.Reference()})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != discordgo.ErrCodeInvalidFormBody {
		t.Fatalf("a reply to a DM deleted answered %v; want 50035", err)
	}
	m, err = w.sess.ChannelMessageSendComplex(dm.ChannelID, &discordgo.MessageSend{Content: "soft", Reference: ref.SoftReference()})
	if err != nil || m.MessageReference != nil || m.Type != discordgo.MessageTypeDefault {
		t.Fatalf("a soft reply to a DM deleted: %+v, %v; want a message replying to nothing", m, err)
	}
}
