package discordtest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestDirectMessages checks DMs both ways and members who refuse them.
func TestDirectMessages(t *testing.T) {
	t.Parallel()
	got := make(chan *discordgo.MessageCreate, 8)
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })
	})
	s := w.sess
	board := pngOf(t, 10, 10, color.RGBA{B: 255, A: 255})

	// The bot opens a DM with alice and sends her board.
	dm, err := s.UserChannelCreate(w.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{
		Content: "Your board", Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(board)}},
	}); err != nil {
		t.Fatal(err)
	}
	msg := w.alice.WaitDM(t, func(m *Message) bool { return m.Content == "Your board" })
	imgs, err := msg.Images()
	if err != nil || len(imgs) != 1 || imgs[0].Bounds() != image.Rect(0, 0, 10, 10) {
		t.Fatalf("images %v, %v", imgs, err)
	}
	if r, _, _, _ := imgs[0].At(3, 3).RGBA(); r != 0 {
		t.Errorf("the picture changed on the way")
	}
	if a := msg.Attachments[0]; a.Width != 10 || a.Filename != "board.png" || a.ContentType != "image/png" {
		t.Errorf("attachment %+v", a)
	}
	if len(w.bob.DMs()) != 0 {
		t.Errorf("bob sees alice's DMs")
	}
	// The bot sees its own message, as on Discord.
	if own := <-got; own.Author.ID != w.srv.AppID() || own.GuildID != "" {
		t.Errorf("first MESSAGE_CREATE %+v", own.Message)
	}

	// alice answers; the bot reads the text (DIRECT_MESSAGES, no MESSAGE_CONTENT needed).
	w.alice.SendDM(t, "a4 a5")
	m := <-got
	if m.Content != "a4 a5" || m.Author.ID != w.alice.ID || m.ChannelID != dm.ID || m.GuildID != "" {
		t.Errorf("the bot got %+v", m.Message)
	}

	// bob refuses DMs: 50007, which is not a mistake of the bot.
	w.bob.CloseDMs()
	dmBob, err := s.UserChannelCreate(w.bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.ChannelMessageSend(dmBob.ID, "your move")
	if code := restCode(err); code != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("send to closed DMs: %v", err)
	}
	w.bob.OpenDMs()
	if _, err := s.ChannelMessageSend(dmBob.ID, "your move"); err != nil {
		t.Errorf("send after reopening: %v", err)
	}
}

// TestGuildMessageContent checks the MESSAGE_CONTENT rule for guild messages.
func TestGuildMessageContent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		intent discordgo.Intent
		text   func(bot string) string
		want   bool // content arrives
	}{
		{"no intent", 0, func(string) string { return "hello" }, false},
		{"no intent but a mention", 0, func(bot string) string { return "<@" + bot + "> hello" }, true},
		{"intent", discordgo.IntentMessageContent, func(string) string { return "hello" }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := make(chan string, 1)
			srv := newServer(t, WithPrivilegedIntents(tc.intent))
			g := srv.AddGuild("g")
			alice := g.AddMember("alice")
			sess := srv.NewSession(t)
			sess.Identify.Intents = discordgo.IntentsAllWithoutPrivileged | tc.intent
			sess.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m.Content })
			if err := sess.Open(); err != nil {
				t.Fatal(err)
			}
			srv.WaitReady(t)
			text := tc.text(srv.AppID())
			alice.Say(t, g.General(), text)
			if c := <-got; (c == text) != tc.want || (c == "") == tc.want {
				t.Errorf("content %q, want it: %v", c, tc.want)
			}
		})
	}
}

// TestEditKeepsAttachments checks how an edit treats files in API v9 (the
// version discordgo speaks) and v10.
func TestEditKeepsAttachments(t *testing.T) {
	t.Parallel()
	one, two, three := pngOf(t, 1, 1, color.Black), pngOf(t, 2, 2, color.Black), pngOf(t, 3, 3, color.Black)
	tests := []struct {
		name    string
		version int
		keep    string // attachments list, %s: id of the first attachment; "" sends none
		files   bool   // upload three.png
		want    []string
	}{
		{"v9 no list, new file", 9, "", true, []string{"one.png", "two.png", "three.png"}},
		{"v9 keep first, new file", 9, `[{"id":"%s"}]`, true, []string{"one.png", "three.png"}},
		{"v9 keep none", 9, `[]`, false, nil},
		{"v10 keep first and name the new file", 10, `[{"id":"%s"},{"id":"0"}]`, true, []string{"one.png", "three.png"}},
		{"v10 keep first, new file not named", 10, `[{"id":"%s"}]`, true, []string{"one.png"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			ch := srv.AddGuild("g").General()
			ct, body := orderedMultipart(t, `{"content":"boards"}`, []string{"one.png", "two.png"}, [][]byte{one, two})
			status, created := call(t, srv, "POST", "/api/v9/channels/"+ch.ID+"/messages", ct, body)
			if status != 200 {
				t.Fatalf("create: %d %v", status, created)
			}
			first := created["attachments"].([]any)[0].(map[string]any)["id"].(string)
			payload := `{"content":"edited"}`
			if tc.keep != "" {
				payload = `{"content":"edited","attachments":` + strings.ReplaceAll(tc.keep, "%s", first) + `}`
			}
			var names []string
			var datas [][]byte
			if tc.files {
				names, datas = []string{"three.png"}, [][]byte{three}
			}
			ct, body = orderedMultipart(t, payload, names, datas)
			path := fmt.Sprintf("/api/v%d/channels/%s/messages/%s", tc.version, ch.ID, created["id"])
			if status, edited := call(t, srv, "PATCH", path, ct, body); status != 200 {
				t.Fatalf("edit: %d %v", status, edited)
			}
			m := srv.Message(created["id"].(string))
			var got []string
			for _, f := range m.Files {
				got = append(got, f.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || m.Content != "edited" {
				t.Errorf("after the edit: %q %q, want %q", m.Content, got, tc.want)
			}
		})
	}
}

// orderedMultipart builds a multipart body with files[0], files[1], … in order.
func orderedMultipart(t testing.TB, payload string, names []string, datas [][]byte) (string, []byte) {
	t.Helper()
	files := make([]*discordgo.File, len(names))
	for i := range names {
		files[i] = &discordgo.File{Name: names[i], ContentType: "image/png", Reader: bytes.NewReader(datas[i])}
	}
	ct, body, err := discordgo.MultipartBodyWithJSON(rawJSON(payload), files)
	if err != nil {
		t.Fatal(err)
	}
	return ct, body
}

// rawJSON marshals as itself.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// TestThreadsAndGIF checks thread creation both ways, their refusals, and
// an animated GIF posted in a thread.
func TestThreadsAndGIF(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	w := newWorld(rec, nil)
	s := w.sess
	ch := w.guild.General()
	start, err := s.ChannelMessageSend(ch.ID, "alice vs bob")
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.MessageThreadStart(ch.ID, start.ID, "alice vs bob", 1440)
	if err != nil {
		t.Fatal(err)
	}
	if th.ID != start.ID || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != ch.ID {
		t.Errorf("thread %+v", th)
	}
	if _, err := s.MessageThreadStart(ch.ID, start.ID, "again", 1440); restCode(err) != 160004 {
		t.Errorf("second thread on one message: %v", err)
	}
	rec.wantFailure(t, "A thread has already been created")

	// Without a message and without a type, API v9 makes a private thread.
	priv, err := s.ThreadStartComplex(ch.ID, &discordgo.ThreadStart{Name: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	if priv.Type != discordgo.ChannelTypeGuildPrivateThread {
		t.Errorf("thread without type: %d, want a private thread (v9)", priv.Type)
	}
	if err := s.ThreadMemberAdd(priv.ID, w.alice.ID); err != nil {
		t.Fatal(err)
	}

	// An animated replay in the thread.
	anim := &gif.GIF{}
	for i := range 3 {
		img := image.NewPaletted(image.Rect(0, 0, 4, 4), palette.Plan9)
		img.SetColorIndex(i, i, 1)
		anim.Image, anim.Delay = append(anim.Image, img), append(anim.Delay, 50)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSendComplex(th.ID, &discordgo.MessageSend{Files: []*discordgo.File{
		{Name: "replay.gif", ContentType: "image/gif", Reader: &buf}}}); err != nil {
		t.Fatal(err)
	}
	threads := ch.Threads()
	if len(threads) != 2 || threads[0].ID != th.ID {
		t.Fatalf("threads %+v", threads)
	}
	replay := w.srv.ChannelMessages(threads[0])
	if len(replay) != 1 {
		t.Fatalf("%d messages in the thread", len(replay))
	}
	if g, err := replay[0].Files[0].GIF(); err != nil || len(g.Image) != 3 {
		t.Errorf("replay: %v", err)
	}
	if len(w.bob.Messages(threads[1])) != 0 || len(w.alice.Messages(threads[1])) != 0 {
		t.Errorf("members see a private thread's messages")
	}
	if got := threads[1].ThreadMembers(); len(got) != 2 {
		t.Errorf("private thread members %v", got)
	}
}

// TestEditByInteractionWebhook checks @original and follow-up edits with
// files, and the answer of a callback with_response.
func TestEditByInteractionWebhook(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			defer close(done)
			i := ic.Interaction
			if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("thinking about it")}); err != nil {
				t.Error(err)
				return
			}
			f, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "first"})
			if err != nil {
				t.Error(err)
				return
			}
			text := "second"
			if _, err := s.FollowupMessageEdit(i, f.ID, &discordgo.WebhookEdit{Content: &text,
				Files: []*discordgo.File{{Name: "b.png", ContentType: "image/png", Reader: bytes.NewReader(pngOf(t, 5, 5, color.White))}}}); err != nil {
				t.Error(err)
			}
			orig, err := s.InteractionResponse(i)
			if err != nil || orig.Content != "thinking about it" {
				t.Errorf("@original: %v %v", orig, err)
			}
			if err := s.InteractionResponseDelete(i); err != nil {
				t.Error(err)
			}
		})
	})
	in := w.alice.SlashCommand(t, w.guild.General(), "stratego board")
	<-done
	r := in.Response()
	if r.Original != nil || len(r.Followups) != 1 || r.Followups[0].Content != "second" || len(r.Followups[0].Files) != 1 {
		t.Errorf("response %+v", r)
	}
}

// TestInteractionInDM runs a command in the bot's DM, where the member
// comes as a user, not a guild member.
func TestInteractionInDM(t *testing.T) {
	t.Parallel()
	got := make(chan *discordgo.Interaction, 1)
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			got <- i
			return &discordgo.InteractionResponse{Type: 4, Data: content("your board")}
		}))
	})
	dm := w.alice.DM()
	reply := w.alice.SlashCommand(t, dm, "stratego board").Reply(t)
	i := <-got
	if i.User == nil || i.User.ID != w.alice.ID || i.Member != nil || i.GuildID != "" || i.Context != discordgo.InteractionContextBotDM {
		t.Errorf("interaction in DM: user %+v member %+v guild %q context %d", i.User, i.Member, i.GuildID, i.Context)
	}
	if dms := w.alice.DMs(); len(dms) != 1 || dms[0].ID != reply.ID {
		t.Errorf("alice's DMs %d", len(dms))
	}
	// A guild command cannot be used in DMs.
	if _, err := w.sess.ApplicationCommandCreate(w.srv.AppID(), w.guild.ID, &discordgo.ApplicationCommand{Name: "club", Description: "Club only"}); err != nil {
		t.Fatal(err)
	}
	failures := fatal(t, func(tb testing.TB) { w.alice.SlashCommand(tb, dm, "club") })
	if len(failures) != 1 || !strings.Contains(failures[0], "no command /club") {
		t.Errorf("failures %q", failures)
	}
}

// TestModeratorDeletesMessage: a message a moderator deleted is gone for
// everyone; the bot's edit of it answers 10008 without failing the test,
// which deleted it itself.
func TestModeratorDeletesMessage(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	ch := w.srv.Channel(w.guild.General().ID)
	msg, err := w.sess.ChannelMessageSend(ch.ID, "the live board")
	if err != nil {
		t.Fatal(err)
	}
	w.srv.DeleteMessage(msg.ID)
	if len(w.srv.ChannelMessages(ch)) != 0 {
		t.Error("the deleted message is still shown")
	}
	_, err = w.sess.ChannelMessageEdit(ch.ID, msg.ID, "the next board")
	if code := restCode(err); code != discordgo.ErrCodeUnknownMessage {
		t.Errorf("editing the deleted message: %v; want 10008", err)
	}
	if v := w.srv.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}
