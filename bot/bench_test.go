package bot

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/discordtest"
)

// BenchmarkMoveToLastMessage measures one move from the member's slash
// command to the last message the bot sends for it (both players' DMs with
// their pictures and the channel's public picture), on the local Discord:
// one bbolt commit, three pictures, three messages. The time runs from
// sending the interaction to the arrival of the third message at the local
// Discord.
func BenchmarkMoveToLastMessage(b *testing.B) {
	h := newHarness(b)
	red := placed(b, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	blue := placed(b, map[[2]int]game.Rank{{0, 0}: game.Sergeant})
	h.challenge("Classic", discordtest.Opt("two_squares", 0), discordtest.Opt("more_squares", false))
	h.sendSetups(red, blue)
	h.bot.deliverDue(context.Background()) // the start's messages are out: each move's three are its own
	moves := [][2]string{{"A4", "A5"}, {"J7", "J6"}, {"A5", "A4"}, {"J6", "J7"}}
	players := []*discordtest.Member{h.alice, h.bob}
	const send = "POST /channels/{channel_id}/messages"
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Moves a tenth of a second apart stay within Discord's global
		// limit of 50 requests a second, as real players' moves do: the
		// figure is a move's own time, not a queue's.
		time.Sleep(100 * time.Millisecond)
		before := len(h.srv.Requests(send))
		start := time.Now()
		mv := moves[i%len(moves)]
		players[i%2].SlashCommand(b, h.channel, "stratego move", discordtest.Opt("from", mv[0]), discordtest.Opt("to", mv[1]))
		// The move is announced with three messages: two DMs and the channel's.
		var sent []discordtest.Request
		h.srv.WaitFor(b, "the move's messages", func() bool {
			sent = h.srv.Requests(send)
			return len(sent) >= before+3
		})
		took = append(took, sent[before+2].At.Sub(start))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "ms-max")
}
