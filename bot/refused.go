package bot

import (
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/internal/nametext"
	"github.com/strategobot/strategobot/storage"
)

// What follows when Discord refuses a message itself (a 4xx that is neither
// about permissions nor about a closed DM: 50035 Invalid Form Body, 40005 or
// 413 for a picture too large, 50006 for an empty message): the message goes
// again as plain text (plainPart), its content and its picture's alt text,
// which was written from the same view and so says nothing its reader may
// not know. If that is refused too, the notice is given up and its player,
// or the channel, is told (refusedNote) where to see the match instead.

// refusedReason is the Reason of the fallback notice that tells a player,
// or the channel, that a message about the match was refused.
const refusedReason = "refused"

// plainPart returns p as plain text, when Discord refused p itself
// (sendErr): its content and its pictures' alt texts, without pictures,
// embeds or components, within Discord's length. False when sendErr is no
// such refusal, or when the plain text would be p again or empty.
func plainPart(p outgoing, sendErr error) (outgoing, bool) {
	if sendErr == nil {
		return outgoing{}, false
	}
	if failure, _ := classify(sendErr); failure != refused {
		return outgoing{}, false
	}
	var content string
	var files []*discordgo.File
	var rich bool
	switch {
	case p.send != nil:
		content, files = p.send.Content, p.send.Files
		rich = len(p.send.Files) > 0 || len(p.send.Embeds) > 0 || len(p.send.Components) > 0
	case p.edit != nil:
		if p.edit.Content != nil {
			content = *p.edit.Content
		}
		files, rich = p.edit.Files, true // the edit may be refused for what it keeps, too
	default:
		return outgoing{}, false
	}
	text := plainText(content, files)
	if text == "" || !rich && text == content {
		return outgoing{}, false
	}
	if p.send != nil {
		return outgoing{to: p.to, send: &discordgo.MessageSend{Content: text, AllowedMentions: p.send.AllowedMentions}}, true
	}
	return outgoing{to: p.to, edit: &discordgo.MessageEdit{
		ID: p.edit.ID, Content: &text,
		Components:      &[]discordgo.MessageComponent{},
		Embeds:          &[]*discordgo.MessageEmbed{},
		Attachments:     &[]*discordgo.MessageAttachment{}, // the old picture goes: it is out of date
		AllowedMentions: p.edit.AllowedMentions,
	}}, true
}

// plainText is content followed by the alt texts of files, each in a code
// block (where the names in it show as written), cut to Discord's length:
// the content gives way (cutLines), the alt texts being what shows the board.
func plainText(content string, files []*discordgo.File) string {
	var alts string
	for _, f := range files {
		if d, ok := f.Reader.(describedReader); ok && d.alt != "" {
			alts += "\n" + codeBlock(nametext.Code(d.alt))
		}
	}
	room := maxMessage - chars(alts)
	if room < 0 {
		return cutLines(content, maxMessage)
	}
	content = cutLines(content, room)
	if content == "" {
		return trimNewline(alts)
	}
	return content + alts
}

// cutLines cuts text to at most room characters by the rule of list
// answers (fitList): whole lines, then a line "…"; and it closes the code
// block it leaves open (a tournament announcement's standings), so that no
// markup runs on into what follows. A first line too long alone is cut
// where it reaches room.
func cutLines(text string, room int) string {
	if chars(text) <= room {
		return text
	}
	if room < 1 {
		return ""
	}
	const fence = "```"
	limit := room
	if strings.Contains(text, fence) {
		limit -= chars("\n" + fence) // to close a block cut
	}
	out := fitList(limit, "", strings.Split(text, "\n"), 0, func(int) string { return "…" })
	if out == "…" {
		return truncate(text, room-1) + "…"
	}
	open := false
	for _, line := range strings.Split(out, "\n") {
		open = open != strings.HasPrefix(line, fence)
	}
	if open {
		out += "\n" + fence
	}
	return out
}

// trimNewline drops the line break that starts s.
func trimNewline(s string) string {
	if len(s) > 0 && s[0] == '\n' {
		return s[1:]
	}
	return s
}

// refusalOf is what the log says of a refusal: Discord's status, code and
// message, and never the message refused (a board's text names ranks).
func refusalOf(err error) []any {
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response == nil {
		return []any{"error", err}
	}
	out := []any{"status", rest.Response.StatusCode}
	if rest.Message != nil {
		out = append(out, "code", rest.Message.Code, "discord", rest.Message.Message)
	}
	return out
}

// refusedNote is the notice that tells the player, or the channel, whom n
// was for that n was refused and given up at at: a match's notice to one of
// its players or its channel. A follower is not told, nor is anyone of a
// refused fallback notice, which would be refused in turn.
func refusedNote(n storage.Notice, at time.Time) []storage.Notice {
	if n.Match == 0 || n.Tournament != 0 || n.Event == storage.EventFallback {
		return nil
	}
	switch n.To {
	case storage.AudienceRed, storage.AudienceBlue, storage.AudiencePublic:
		return []storage.Notice{{Match: n.Match, Event: storage.EventFallback, To: n.To, At: at, Reason: refusedReason, Practice: n.Practice}}
	}
	return nil
}
