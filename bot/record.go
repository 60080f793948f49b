package bot

import (
	"bytes"
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
	"github.com/strategobot/strategobot/web"
)

// txtRecordNotYet answers /stratego record for a match under way.
const txtRecordNotYet friendly = "The record is ready once the match is over: it shows both set-ups."

// txtRecordCalledOff answers /stratego record for a match called off: it
// is over, but no record comes, as no final reveal did.
const txtRecordCalledOff = "A match called off has no record: a record shows both set-ups, and those of a match called off stay secret."

// txtRecordFile says what the file of /stratego record holds, in a
// player's words: it named `strategobot replay`, the program's check of
// its rules engine against Gravon's records, which no player can run.
const txtRecordFile = "The game record, as a Gravon XML file: both set-ups and every move."

// onRecord sends the Gravon XML record of a finished match.
func (b *Bot) onRecord(ctx context.Context, i *discordgo.Interaction, opts options) {
	m, side, err := b.matchMeant(ctx, userOf(i).ID, lookup{named: opts.str(optMatch), fits: noActive, orFinished: true, notOver: txtRecordNotYet})
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "record"))
		return
	}
	switch m.Phase {
	case storage.PhaseAbandoned:
		// Over, without a record ever to come: say why it ended.
		b.tell(i, joinLines(b.matchTitle(printerOf(i), m), web.CalledOffText(printerOf(i), m), printerOf(i).Sprintf(txtRecordCalledOff)))
		return
	case storage.PhaseSetup, storage.PhasePlaying:
		b.say(i, string(txtRecordNotYet))
		return
	}
	g, err := m.Game()
	if err != nil {
		b.tell(i, b.explain(printerOf(i), err, "record"))
		return
	}
	var buf bytes.Buffer
	if err := game.NewRecord(g, m.Players[game.Red].Name, m.Players[game.Blue].Name).WriteGravon(&buf); err != nil {
		b.tell(i, b.explain(printerOf(i), err, "record"))
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, &discordgo.InteractionResponseData{
		Content:    b.matchTitle(printerOf(i), m) + "\n" + printerOf(i).Sprintf(txtRecordFile),
		Flags:      discordgo.MessageFlagsEphemeral,
		Files:      []*discordgo.File{{Name: fmt.Sprintf("stratego-match-%d.xml", m.ID), ContentType: "application/xml", Reader: &buf}},
		Components: b.replayLink(ctx, i, m, side),
	})
}
