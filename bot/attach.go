package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/render"
)

// Every board picture carries its alt text: Discord shows an attachment's
// description to screen readers and on hover. discordgo v0.29.0 has no field
// for it, so a picture's text travels with its bytes (describedReader), and
// the functions that send files write Discord's attachments array themselves.

// describedReader is a picture's bytes with its alt text.
type describedReader struct {
	*bytes.Reader
	alt string
}

// pngFile wraps a picture for upload, with its alt text (none when alt is
// ""). Names say what the picture is, never what it shows.
func pngFile(name string, data []byte, alt string) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: describedReader{bytes.NewReader(data), alt}}
}

// boardAlt is the alt text of the picture Board or Reveal draws of v, from
// v's viewer's knowledge only; "" if it cannot be written.
func boardAlt(v game.View, o render.Options) string {
	alt, err := render.AltText(v, o)
	if err != nil {
		return ""
	}
	return alt
}

// describedData is an interaction's answer with its attachments' descriptions.
type describedData struct {
	*discordgo.InteractionResponseData
	Attachments []attachmentMeta `json:"attachments"`
}

// attachmentMeta is one entry of a message's attachments array: it names
// the upload files[ID] and gives its description.
type attachmentMeta struct {
	ID          string `json:"id"` // the index of the upload, as a string
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// attachmentsOf lists files with their descriptions; nil when none has one.
func attachmentsOf(files []*discordgo.File) []attachmentMeta {
	var out []attachmentMeta
	described := false
	for k, f := range files {
		meta := attachmentMeta{ID: strconv.Itoa(k), Filename: f.Name}
		if d, ok := f.Reader.(describedReader); ok && d.alt != "" {
			meta.Description, described = d.alt, true
		}
		out = append(out, meta)
	}
	if !described {
		return nil
	}
	return out
}

// rewind reads files from their start again: a message sent anew after a
// refused attempt (which read them) carries its pictures whole.
func rewind(files []*discordgo.File) {
	for _, f := range files {
		if s, ok := f.Reader.(io.Seeker); ok {
			_, _ = s.Seek(0, io.SeekStart)
		}
	}
}

// sendFiles sends payload with files to endpoint as Discord's multipart
// form, adding the files' descriptions to the payload's attachments. Its
// request is made with opts, or else untilStop.
func (b *Bot) sendFiles(method, endpoint string, payload any, files []*discordgo.File, opts ...discordgo.RequestOption) ([]byte, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("encoding a message: %w", err)
	}
	fields := map[string]any{}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("encoding a message: %w", err)
	}
	if meta := attachmentsOf(files); meta != nil {
		fields["attachments"] = meta
	}
	contentType, body, err := discordgo.MultipartBodyWithJSON(fields, files)
	if err != nil {
		return nil, fmt.Errorf("encoding a message: %w", err)
	}
	if len(opts) == 0 {
		opts = []discordgo.RequestOption{b.untilStop()}
	}
	return b.s.RequestRaw(method, endpoint, contentType, body, endpoint, 0, opts...)
}
