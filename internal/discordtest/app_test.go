package discordtest

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestSeparateApplication checks an application whose id differs from its
// bot user's: READY's application, the interactions and their webhooks
// use the application id, and the command routes accept only it.
func TestSeparateApplication(t *testing.T) {
	t.Parallel()
	if srv := newServer(t); srv.AppID() != srv.BotID() {
		t.Errorf("by default the application id %s differs from the bot's %s", srv.AppID(), srv.BotID())
	}
	rec := &recorder{TB: t}
	var log eventLog
	got := make(chan *discordgo.Interaction, 1)
	w := newWorld(rec, func(s *discordgo.Session) {
		log.attach(s)
		s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
			got <- ic.Interaction
			if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 5}); err != nil {
				t.Errorf("respond: %v", err)
			}
			if _, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "done"}); err != nil {
				t.Errorf("follow-up: %v", err)
			}
		})
	}, WithSeparateApplication())
	app, bot := w.srv.AppID(), w.srv.BotID()
	if app == bot {
		t.Fatal("the application id is the bot user's")
	}
	ready := log.wait(t, w.srv, "READY", nil)
	if a, _ := ready["application"].(map[string]any); a["id"] != app {
		t.Errorf("READY application %v, want %s", ready["application"], app)
	}
	if u, _ := ready["user"].(map[string]any); u["id"] != bot {
		t.Errorf("READY user %v, want %s", ready["user"], bot)
	}

	reply := w.alice.SlashCommand(t, w.guild.General(), "stratego board").Reply(t)
	if i := <-got; i.AppID != app {
		t.Errorf("interaction application_id %s, want %s", i.AppID, app)
	}
	if reply.Content != "done" || reply.WebhookID != app || reply.Author.ID != bot {
		t.Errorf("reply %q by %s through webhook %s", reply.Content, reply.Author.ID, reply.WebhookID)
	}
	if cmds := w.srv.Commands(nil); len(cmds) != 1 || cmds[0].ApplicationID != app {
		t.Errorf("commands %+v", cmds)
	}
	noFailures(t, rec)

	// Registering under the bot user's id, as bots written for newer
	// applications do, is refused.
	_, err := w.sess.ApplicationCommandBulkOverwrite(bot, "", testCommands())
	if restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Errorf("commands under the bot user's id: %v", err)
	}
	rec.wantFailure(t, "is the bot user's id", app)
}
