package discordtest

import (
	"bytes"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestSlashCommandReachesBot checks the whole path: a real discordgo
// session connects, gets the slash command with its options resolved,
// answers, and the member sees the answer.
func TestSlashCommandReachesBot(t *testing.T) {
	t.Parallel()
	got := make(chan *discordgo.Interaction, 1)
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			got <- i
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: content("challenge sent")}
		}))
	})
	in := w.alice.SlashCommand(t, w.guild.General(), "stratego challenge",
		Opt("opponent", w.bob), Opt("variant", "barrage"), Opt("days", 3))
	reply := in.Reply(t)
	if reply.Content != "challenge sent" || reply.Ephemeral || !reply.FromBot() {
		t.Errorf("reply = %q (ephemeral %v, from bot %v)", reply.Content, reply.Ephemeral, reply.FromBot())
	}
	if reply.Interaction == nil || reply.Interaction.User.ID != w.alice.ID {
		t.Errorf("reply carries no interaction metadata for alice: %+v", reply.Interaction)
	}

	i := <-got
	data := i.ApplicationCommandData()
	if i.Member == nil || i.Member.User.ID != w.alice.ID || i.GuildID != w.guild.ID {
		t.Fatalf("interaction from %+v in guild %q", i.Member, i.GuildID)
	}
	if data.Name != "stratego" || len(data.Options) != 1 || data.Options[0].Name != "challenge" {
		t.Fatalf("data = %+v", data)
	}
	opts := data.Options[0].Options
	if len(opts) != 3 || opts[0].UserValue(nil).ID != w.bob.ID || opts[1].StringValue() != "barrage" || opts[2].IntValue() != 3 {
		t.Errorf("options = %+v", opts)
	}
	if u := data.Resolved.Users[w.bob.ID]; u == nil || u.Username != "bob" {
		t.Errorf("resolved users = %+v", data.Resolved.Users)
	}
	if public := w.srv.ChannelMessages(w.guild.General()); len(public) != 1 || public[0].ID != reply.ID {
		t.Errorf("channel shows %d messages, want the reply", len(public))
	}
}

// TestResponseStyles checks each way of answering and who sees what.
func TestResponseStyles(t *testing.T) {
	t.Parallel()
	board := pngOf(t, 8, 6, color.RGBA{R: 200, A: 255})
	tests := []struct {
		name   string
		answer func(s *discordgo.Session, i *discordgo.Interaction) error
		// want is the reply alice sees; bobSees whether bob sees it too.
		want     string
		bobSees  bool
		images   int
		followup string // a follow-up alice sees
	}{
		{
			name: "public message",
			answer: func(s *discordgo.Session, i *discordgo.Interaction) error {
				return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("public")})
			},
			want: "public", bobSees: true,
		},
		{
			name: "ephemeral message",
			answer: func(s *discordgo.Session, i *discordgo.Interaction) error {
				return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "secret", Flags: discordgo.MessageFlagsEphemeral}})
			},
			want: "secret",
		},
		{
			name: "deferred then edited, with an image",
			answer: func(s *discordgo.Session, i *discordgo.Interaction) error {
				if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5}); err != nil {
					return err
				}
				text := "your board"
				_, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &text,
					Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(board)}}})
				return err
			},
			want: "your board", bobSees: true, images: 1,
		},
		{
			name: "deferred ephemeral, completed by a follow-up",
			answer: func(s *discordgo.Session, i *discordgo.Interaction) error {
				if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5, Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}); err != nil {
					return err
				}
				// The first follow-up replaces the "thinking" message and keeps it ephemeral.
				_, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "only you"})
				return err
			},
			want: "only you",
		},
		{
			name: "public answer and ephemeral follow-up",
			answer: func(s *discordgo.Session, i *discordgo.Interaction) error {
				if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("everyone")}); err != nil {
					return err
				}
				_, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "psst", Flags: discordgo.MessageFlagsEphemeral})
				return err
			},
			want: "everyone", bobSees: true, followup: "psst",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			done := make(chan struct{})
			w := newWorld(t, func(s *discordgo.Session) {
				s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
					defer close(done)
					if err := tc.answer(s, ic.Interaction); err != nil {
						t.Errorf("answer: %v", err)
					}
				})
			})
			ch := w.guild.General()
			in := w.alice.SlashCommand(t, ch, "stratego board")
			<-done
			reply := in.Reply(t)
			if reply.Content != tc.want {
				t.Errorf("alice sees %q, want %q", reply.Content, tc.want)
			}
			if imgs, err := reply.Images(); err != nil || len(imgs) != tc.images {
				t.Errorf("images: %d, %v; want %d", len(imgs), err, tc.images)
			} else if tc.images > 0 && imgs[0].Bounds().Dx() != 8 {
				t.Errorf("image is %v", imgs[0].Bounds())
			}
			bobSees := false
			for _, m := range w.bob.Messages(ch) {
				bobSees = bobSees || m.ID == reply.ID
			}
			if bobSees != tc.bobSees {
				t.Errorf("bob sees the reply: %v, want %v", bobSees, tc.bobSees)
			}
			if ephemeral := !tc.bobSees; ephemeral {
				if got := w.alice.Ephemerals(); len(got) != 1 || got[0].ID != reply.ID {
					t.Errorf("alice's ephemerals = %d messages", len(got))
				}
			}
			if tc.followup != "" {
				r := in.Response()
				if len(r.Followups) != 1 || r.Followups[0].Content != tc.followup || !r.Followups[0].Ephemeral {
					t.Errorf("follow-ups = %+v", r.Followups)
				}
				for _, m := range w.bob.Messages(ch) {
					if m.Content == tc.followup {
						t.Errorf("bob sees alice's ephemeral follow-up")
					}
				}
				if len(w.bob.Ephemerals()) != 0 {
					t.Errorf("bob has ephemerals")
				}
			}
		})
	}
}

// TestInteractionRefusals checks that what Discord refuses about
// interactions is refused with Discord's code and fails the test.
func TestInteractionRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []Option
		// act answers the interaction and returns the error of the step
		// Discord refuses.
		act      func(s *discordgo.Session, i *discordgo.Interaction, clock *FakeClock) error
		code     int
		failure  string
		memberOK bool // the member still got an answer
	}{
		{
			name: "late first response",
			opts: []Option{WithResponseDeadline(50 * time.Millisecond)},
			act: func(s *discordgo.Session, i *discordgo.Interaction, _ *FakeClock) error {
				time.Sleep(150 * time.Millisecond)
				return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("too late")})
			},
			code: 10062, failure: "got no first response within 50ms",
		},
		{
			name: "second first response",
			act: func(s *discordgo.Session, i *discordgo.Interaction, _ *FakeClock) error {
				if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5}); err != nil {
					return err
				}
				return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("again")})
			},
			code: 40060, failure: "already answered with type 5", memberOK: true,
		},
		{
			name: "follow-up before the first response",
			act: func(s *discordgo.Session, i *discordgo.Interaction, _ *FakeClock) error {
				_, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "early"})
				_ = s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("ok")})
				return err
			},
			code: 10015, failure: "need the first response", memberOK: true,
		},
		{
			name: "follow-up after 15 minutes",
			act: func(s *discordgo.Session, i *discordgo.Interaction, clock *FakeClock) error {
				if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("ok")}); err != nil {
					return err
				}
				clock.Advance(15*time.Minute + time.Second)
				_, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "much later"})
				return err
			},
			code: 50027, failure: "it works for 15m0s", memberOK: true,
		},
		{
			name: "autocomplete result to a command",
			act: func(s *discordgo.Session, i *discordgo.Interaction, _ *FakeClock) error {
				err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 8, Data: &discordgo.InteractionResponseData{
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}})
				_ = s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("ok")})
				return err
			},
			code: 50035, failure: "callback type 8 answers a /stratego board interaction", memberOK: true,
		},
		{
			name: "content too long",
			act: func(s *discordgo.Session, i *discordgo.Interaction, _ *FakeClock) error {
				err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content(strings.Repeat("x", 2001))})
				_ = s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("ok")})
				return err
			},
			code: 50035, failure: "maxLength: got 2,001, want 2,000", memberOK: true,
		},
		{
			name: "six action rows",
			act: func(s *discordgo.Session, i *discordgo.Interaction, _ *FakeClock) error {
				var rows []discordgo.MessageComponent
				for n := range 6 {
					rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "b", Style: discordgo.PrimaryButton, CustomID: strings.Repeat("b", n+1)}}})
				}
				err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "rows", Components: rows}})
				_ = s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: content("ok")})
				return err
			},
			code: 50035, failure: "Must be 5 or fewer in length", memberOK: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			clock := NewFakeClock(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC))
			errc := make(chan error, 1)
			w := newWorld(rec, func(s *discordgo.Session) {
				s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
					errc <- tc.act(s, ic.Interaction, clock)
				})
			}, append(tc.opts, WithClock(clock))...)
			in := w.alice.SlashCommand(t, w.guild.General(), "stratego board")
			err := <-errc
			if got := restCode(err); got != tc.code {
				t.Errorf("error %v: code %d, want %d", err, got, tc.code)
			}
			rec.wantFailure(t, tc.failure)
			r := in.Wait(t)
			if r.Failed == tc.memberOK {
				t.Errorf("member's view: failed %v (%q), want failed %v", r.Failed, r.Error, !tc.memberOK)
			}
			if !tc.memberOK && r.Error != DidNotRespond {
				t.Errorf("member sees %q, want %q", r.Error, DidNotRespond)
			}
		})
	}
}

// TestAutocomplete checks that choices reach the member and that too many
// are refused.
func TestAutocomplete(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		choices int
		want    int
		failure string
	}{
		{name: "25 choices", choices: 25, want: 25},
		{name: "26 choices", choices: 26, want: 0, failure: "Must be 25 or fewer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			typed := make(chan string, 1)
			w := newWorld(rec, func(s *discordgo.Session) {
				s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
					if ic.Type != discordgo.InteractionApplicationCommandAutocomplete {
						return
					}
					for _, o := range ic.ApplicationCommandData().Options[0].Options {
						if o.Focused {
							typed <- o.StringValue()
						}
					}
					var cs []*discordgo.ApplicationCommandOptionChoice
					for n := range tc.choices {
						sq := string(rune('a'+n%10)) + string(rune('1'+n/10))
						cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: sq, Value: sq})
					}
					err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 8, Data: &discordgo.InteractionResponseData{Choices: cs}})
					if (err != nil) != (tc.failure != "") {
						t.Errorf("respond: %v", err)
					}
				})
			}, WithResponseDeadline(300*time.Millisecond))
			got := w.alice.Autocomplete(t, w.guild.General(), "stratego move", Focused("from", "b"), Opt("to", "c5"))
			if len(got) != tc.want {
				t.Errorf("%d choices, want %d", len(got), tc.want)
			}
			if s := <-typed; s != "b" {
				t.Errorf("the bot saw %q typed", s)
			}
			if tc.failure != "" {
				rec.wantFailure(t, tc.failure)
			} else if f := rec.failures(); len(f) > 0 {
				t.Errorf("unexpected failures: %q", f)
			}
		})
	}
}

// TestComponentsAndModal clicks a button, picks in a select menu and
// submits a modal, with the bot answering each as a game bot would.
func TestComponentsAndModal(t *testing.T) {
	t.Parallel()
	submitted := make(chan map[string]string, 1)
	var s *discordgo.Session
	w := newWorld(t, func(sess *discordgo.Session) {
		s = sess
		s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			switch i.Type {
			case discordgo.InteractionApplicationCommand:
				return &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
					Content: "bob, alice challenges you",
					Components: []discordgo.MessageComponent{
						discordgo.ActionsRow{Components: []discordgo.MessageComponent{
							discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: "accept"},
							discordgo.Button{Label: "Setup", Style: discordgo.PrimaryButton, CustomID: "setup"},
							discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com/rules"},
							discordgo.Button{Label: "Decline", Style: discordgo.DangerButton, CustomID: "decline"},
						}},
						discordgo.ActionsRow{Components: []discordgo.MessageComponent{
							discordgo.SelectMenu{CustomID: "variant", Options: []discordgo.SelectMenuOption{
								{Label: "Classic", Value: "classic"}, {Label: "Barrage", Value: "barrage"}}},
						}},
					},
				}}
			case discordgo.InteractionMessageComponent:
				d := i.MessageComponentData()
				switch d.CustomID {
				case "decline":
					// Acknowledge at once, edit the challenge afterwards.
					if err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: 6}); err != nil {
						t.Errorf("deferred update: %v", err)
					}
					text := "declined, then reconsidered"
					if _, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &text}); err != nil {
						t.Errorf("edit after deferred update: %v", err)
					}
					return nil
				case "accept":
					return &discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: "accepted by " + i.Member.User.Username, Components: []discordgo.MessageComponent{}}}
				case "variant":
					return &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "variant " + d.Values[0], Flags: discordgo.MessageFlagsEphemeral}}
				case "setup":
					return &discordgo.InteractionResponse{Type: 9, Data: &discordgo.InteractionResponseData{
						CustomID: "setup-modal", Title: "Your set-up",
						Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
							discordgo.TextInput{CustomID: "rows", Label: "Four rows", Style: discordgo.TextInputParagraph, Required: true, MaxLength: 200},
						}}},
					}}
				}
			case discordgo.InteractionModalSubmit:
				d := i.ModalSubmitData()
				vals := map[string]string{}
				for _, row := range d.Components {
					for _, c := range row.(*discordgo.ActionsRow).Components {
						ti := c.(*discordgo.TextInput)
						vals[ti.CustomID] = ti.Value
					}
				}
				submitted <- vals
				return &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "set-up saved", Flags: discordgo.MessageFlagsEphemeral}}
			}
			return nil
		}))
	})
	ch := w.guild.General()
	challenge := w.alice.SlashCommand(t, ch, "stratego challenge", Opt("opponent", w.bob)).Reply(t)
	if n := len(challenge.Buttons()); n != 4 {
		t.Fatalf("%d buttons", n)
	}

	declined := w.bob.ClickButton(t, challenge, "decline")
	decline := declined.Wait(t)
	if decline.Type != 6 || decline.Original == nil || decline.Original.ID != challenge.ID {
		t.Fatalf("decline answered %+v", decline)
	}
	w.srv.WaitFor(t, "the challenge edited through @original", func() bool {
		return w.srv.Message(challenge.ID).Content == "declined, then reconsidered"
	})

	picked := w.bob.SelectMenu(t, challenge, "variant", "barrage")
	pick := picked.Reply(t)
	if pick.Content != "variant barrage" || !pick.Ephemeral {
		t.Errorf("select answer %q (ephemeral %v)", pick.Content, pick.Ephemeral)
	}
	if r := picked.Response(); r.Update != nil {
		t.Errorf("the answer by a new message updated %q", r.Update.Content)
	}

	if got := fatal(t, func(tb testing.TB) { w.alice.ClickButton(tb, pick, "variant") }); len(got) != 1 || !strings.Contains(got[0], "cannot see message") {
		t.Errorf("alice used bob's ephemeral message: %q", got)
	}

	setup := w.bob.ClickButton(t, challenge, "setup")
	r := setup.Wait(t)
	if r.Modal == nil || r.Modal.Title != "Your set-up" || len(r.Modal.Inputs) != 1 || r.Modal.Inputs[0].MaxLength != 200 {
		t.Fatalf("modal = %+v", r.Modal)
	}
	saved := w.bob.SubmitModal(t, setup, map[string]string{"rows": "SSSS"}).Reply(t)
	if got := <-submitted; got["rows"] != "SSSS" || saved.Content != "set-up saved" {
		t.Errorf("submitted %v, answer %q", got, saved.Content)
	}

	accepted := w.bob.ClickButton(t, challenge, "accept")
	accept := accepted.Wait(t)
	if accept.Type != 7 || accept.Original == nil || accept.Original.ID != challenge.ID {
		t.Fatalf("accept answered %+v", accept)
	}
	now := w.srv.Message(challenge.ID)
	if now.Content != "accepted by bob" || len(now.Components) != 0 || now.Edits != 2 {
		t.Errorf("challenge now %q with %d components, %d edits", now.Content, len(now.Components), now.Edits)
	}
	// Each update is what its own answer made of the message, whatever
	// another made of it since.
	if got := accepted.Updated(t); got.ID != challenge.ID || got.Content != "accepted by bob" || len(got.Components) != 0 {
		t.Errorf("accept updated the challenge to %q with %d components", got.Content, len(got.Components))
	}
	if got := declined.Updated(t); got.ID != challenge.ID || got.Content != "declined, then reconsidered" || len(got.Components) == 0 {
		t.Errorf("decline updated the challenge to %q with %d components", got.Content, len(got.Components))
	}
	if got := fatal(t, func(tb testing.TB) { picked.Updated(tb) }); len(got) != 1 || !strings.Contains(got[0], "updates no message") {
		t.Errorf("Updated of an answer by a new message: %q", got)
	}
}

// TestMemberSideChecks checks that a member cannot send what Discord's
// client would not send.
func TestMemberSideChecks(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *discordgo.Session) {
		s.AddHandler(respond(t, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "ok",
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Off", Style: discordgo.PrimaryButton, CustomID: "off", Disabled: true}}}}}}
		}))
	})
	ch := w.guild.General()
	msg := w.alice.SlashCommand(t, ch, "stratego board").Reply(t)
	tests := []struct {
		name string
		do   func(tb testing.TB)
		want string
	}{
		{"unknown command", func(tb testing.TB) { w.alice.SlashCommand(tb, ch, "chess") }, "no command /chess"},
		{"unknown subcommand", func(tb testing.TB) { w.alice.SlashCommand(tb, ch, "stratego resign") }, `no subcommand "resign"`},
		{"missing subcommand", func(tb testing.TB) { w.alice.SlashCommand(tb, ch, "stratego") }, "needs a subcommand"},
		{"missing required option", func(tb testing.TB) { w.alice.SlashCommand(tb, ch, "stratego challenge") }, `required option "opponent"`},
		{"unknown option", func(tb testing.TB) {
			w.alice.SlashCommand(tb, ch, "stratego challenge", Opt("opponent", w.bob), Opt("colour", "red"))
		}, `no option "colour"`},
		{"value not a choice", func(tb testing.TB) {
			w.alice.SlashCommand(tb, ch, "stratego challenge", Opt("opponent", w.bob), Opt("variant", "chess"))
		}, "not one of the registered choices"},
		{"integer out of bounds", func(tb testing.TB) {
			w.alice.SlashCommand(tb, ch, "stratego challenge", Opt("opponent", w.bob), Opt("days", 9))
		}, "outside the registered bounds"},
		{"wrong type", func(tb testing.TB) {
			w.alice.SlashCommand(tb, ch, "stratego challenge", Opt("opponent", "nobody"))
		}, "no user nobody"},
		{"autocomplete of a plain option", func(tb testing.TB) {
			w.alice.Autocomplete(tb, ch, "stratego challenge", Focused("variant", "c"))
		}, "not registered with autocomplete"},
		{"disabled button", func(tb testing.TB) { w.alice.ClickButton(tb, msg, "off") }, "is disabled"},
		{"missing button", func(tb testing.TB) { w.alice.ClickButton(tb, msg, "on") }, `no component "on"`},
		{"modal never shown", func(tb testing.TB) {
			w.alice.SubmitModal(tb, &Interaction{ID: msg.Interaction.ID, srv: w.srv}, nil)
		}, "not answered with a modal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fatal(t, tc.do)
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("failures %q, want one containing %q", got, tc.want)
			}
		})
	}
}
