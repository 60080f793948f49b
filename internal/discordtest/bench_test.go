package discordtest

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// The routes a bot like ours uses, for the compile benchmarks.
var botRoutes = []string{
	"POST /interactions/{interaction_id}/{interaction_token}/callback",
	"POST /channels/{channel_id}/messages",
	"PATCH /channels/{channel_id}/messages/{message_id}",
	"POST /webhooks/{webhook_id}/{webhook_token}",
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
	"PUT /applications/{application_id}/commands",
	"POST /users/@me/channels",
	"POST /channels/{channel_id}/messages/{message_id}/threads",
	"POST /channels/{channel_id}/threads",
}

// BenchmarkParseSpec measures what every test binary pays once: decoding
// the 1.2 MB document for routing and for the schema compiler.
func BenchmarkParseSpec(b *testing.B) {
	for b.Loop() {
		if _, err := parseSpec(openAPIDocument); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileBotSchemas measures parsing plus compiling the request
// schemas of every route the bot uses: the whole one-time cost of a test
// binary that exercises them all.
func BenchmarkCompileBotSchemas(b *testing.B) {
	for b.Loop() {
		sp, err := parseSpec(openAPIDocument)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range botRoutes {
			if _, err := sp.schema(sp.operation(r).bodyPointer("application/json")); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCompileAllSchemas is the worst case: every request schema of
// the document.
func BenchmarkCompileAllSchemas(b *testing.B) {
	for b.Loop() {
		sp, err := parseSpec(openAPIDocument)
		if err != nil {
			b.Fatal(err)
		}
		for _, op := range sp.ops {
			if op.accepts("application/json") {
				if _, err := sp.schema(op.bodyPointer("application/json")); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkValidateCallback measures validating one interaction response
// with a picture's worth of components against the cached schema.
func BenchmarkValidateCallback(b *testing.B) {
	sp, err := loadSpec()
	if err != nil {
		b.Fatal(err)
	}
	ptr := sp.operation(botRoutes[0]).bodyPointer("application/json")
	body := []byte(`{"type":4,"data":{"content":"` + strings.Repeat("x", 500) + `","flags":64,"components":[{"type":1,"components":[{"type":2,"style":1,"label":"Move","custom_id":"move:1"},{"type":2,"style":4,"label":"Resign","custom_id":"resign:1"}]}]}}`)
	for b.Loop() {
		if err := sp.validate(ptr, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSlashCommandRoundTrip measures one slash command from the member
// through a real discordgo session and back: dispatch, callback, reply.
func BenchmarkSlashCommandRoundTrip(b *testing.B) {
	w := newWorld(b, func(s *discordgo.Session) {
		s.AddHandler(respond(b, func(i *discordgo.Interaction) *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: 4, Data: content("ok")}
		}))
	})
	ch := w.guild.General()
	for b.Loop() {
		w.alice.SlashCommand(b, ch, "stratego board").Reply(b)
	}
}
