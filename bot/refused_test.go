package bot

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestPlainPart: a message Discord refused itself goes again as its text
// and its pictures' alt texts, within Discord's length, without pictures or
// components; not when the refusal is of another kind, nor when the plain
// text would be the same message again or nothing.
func TestPlainPart(t *testing.T) {
	refusal := func(status, code int) error {
		return &discordgo.RESTError{Response: &http.Response{StatusCode: status}, Message: &discordgo.APIErrorMessage{Code: code}}
	}
	board := func(content string) *discordgo.MessageSend {
		return &discordgo.MessageSend{Content: content, Files: []*discordgo.File{pngFile("board.png", []byte("png"), "Your board: `x``y`")},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{}}}
	}
	long := strings.Repeat("é", 2500)
	live := "the live board"
	tests := []struct {
		name string
		part outgoing
		err  error
		ok   bool
		want string // the plain text
	}{
		{"a board refused with 50035", outgoing{send: board("alice moved A4-A5.")}, refusal(400, 50035), true,
			"alice moved A4-A5.\n```\nYour board: `x`\u200b`y`\n```"},
		{"a picture too large", outgoing{send: board("alice moved A4-A5.")}, refusal(413, 40005), true,
			"alice moved A4-A5.\n```\nYour board: `x`\u200b`y`\n```"},
		{"a live board's edit", outgoing{edit: &discordgo.MessageEdit{ID: "1", Content: &live, Files: board("").Files}}, refusal(400, 50035), true,
			"the live board\n```\nYour board: `x`\u200b`y`\n```"},
		{"a text over the limit", outgoing{send: &discordgo.MessageSend{Content: long}}, refusal(400, 50035), true, strings.Repeat("é", 1999) + "…"},
		{"a text alone, within the limit", outgoing{send: &discordgo.MessageSend{Content: "hello"}}, refusal(400, 50035), false, ""},
		{"nothing to say", outgoing{send: &discordgo.MessageSend{Components: []discordgo.MessageComponent{discordgo.ActionsRow{}}}}, refusal(400, 50006), false, ""},
		{"closed DMs", outgoing{send: board("x")}, refusal(403, discordgo.ErrCodeCannotSendMessagesToThisUser), false, ""},
		{"a 503", outgoing{send: board("x")}, refusal(503, 0), false, ""},
		{"a timeout", outgoing{send: board("x")}, errors.New("i/o timeout"), false, ""},
		{"sent", outgoing{send: board("x")}, nil, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := plainPart(tc.part, tc.err)
			if ok != tc.ok {
				t.Fatalf("plainPart: %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			var text string
			switch {
			case got.send != nil:
				if len(got.send.Files) != 0 || len(got.send.Components) != 0 || len(got.send.Embeds) != 0 {
					t.Errorf("the plain message keeps %d files, %d components, %d embeds", len(got.send.Files), len(got.send.Components), len(got.send.Embeds))
				}
				text = got.send.Content
			default:
				e := got.edit
				if e.ID != "1" || len(e.Files) != 0 || e.Components == nil || len(*e.Components) != 0 || e.Attachments == nil || len(*e.Attachments) != 0 {
					t.Errorf("the plain edit: %+v", e)
				}
				text = *e.Content
			}
			if text != tc.want {
				t.Errorf("plain text %q, want %q", text, tc.want)
			}
			if n := len([]rune(text)); n > maxMessage {
				t.Errorf("plain text of %d characters, over Discord's %d", n, maxMessage)
			}
		})
	}
}

// TestPlainTextCutsWholeLines: content too long to go with the alt texts
// (a tournament's announcement with its standings' table, its picture
// refused) is cut at a line's end, its code block closed, and a line "…"
// says that something was cut: the alt text's block that follows opens a
// block of its own instead of closing the table's, which showed the alt
// text as markdown and left a block open to the end.
func TestPlainTextCutsWholeLines(t *testing.T) {
	t.Parallel()
	var rows []string
	for k := range 40 {
		rows = append(rows, fmt.Sprintf("%2d  %-40s  %d", k+1, strings.Repeat("x", 30), 40-k))
	}
	content := "**\\*Cup\\*** is over. Final standings:\n```\n#   Player\n" + strings.Join(rows, "\n") + "\n```"
	alt := "Standings of *Cup*: " + strings.Repeat("y", 900)
	text := plainText(content, []*discordgo.File{pngFile("standings.png", []byte("png"), alt)})
	if n := chars(text); n > maxMessage {
		t.Fatalf("%d characters", n)
	}
	altBlock := "\n" + codeBlock(alt)
	kept, ok := strings.CutSuffix(text, altBlock)
	if !ok {
		t.Fatalf("the alt text's block does not end the text:\n%s", text)
	}
	if why := openMarkup(kept); why != "" {
		t.Errorf("the content, cut: %s:\n%s", why, kept)
	}
	whole, ok := strings.CutSuffix(kept, "\n…\n```")
	if !ok || !strings.HasPrefix(content, whole+"\n") || chars(whole) < maxMessage-chars(altBlock)-60 {
		t.Errorf("the content is not cut at the end of the last line that fits, with a line \"…\" and its block closed:\n%s", kept)
	}
}
