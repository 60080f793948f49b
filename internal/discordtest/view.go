package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/gif"
	"sort"

	"github.com/bwmarrin/discordgo"
)

// Message is a snapshot of a message as a member sees it: Discord's
// message object, decoded by discordgo, plus what the stand-in knows about
// it. A snapshot does not change; read the message again to see edits.
type Message struct {
	*discordgo.Message
	// Ephemeral is set for a message only its interaction's invoker sees.
	Ephemeral bool
	// Loading is set while a deferred response is still "thinking".
	Loading bool
	// Edits counts the edits so far.
	Edits int
	// Files holds the attachments' bytes, in the order of Attachments.
	Files []File
}

// File is an uploaded file.
type File struct {
	Name        string // file name as shown
	ContentType string // as sent, or sniffed from the bytes
	Data        []byte
	Description string // the attachment's alt text, "" when it has none
}

// Image decodes the file as a PNG, GIF or JPEG image (the first frame of a GIF).
func (f File) Image() (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return nil, fmt.Errorf("discordtest: decode %s: %w", f.Name, err)
	}
	return img, nil
}

// GIF decodes the file as an animated GIF, every frame.
func (f File) GIF() (*gif.GIF, error) {
	g, err := gif.DecodeAll(bytes.NewReader(f.Data))
	if err != nil {
		return nil, fmt.Errorf("discordtest: decode %s as GIF: %w", f.Name, err)
	}
	return g, nil
}

// Images decodes every attachment as an image, in order.
func (m *Message) Images() ([]image.Image, error) {
	var out []image.Image
	for _, f := range m.Files {
		img, err := f.Image()
		if err != nil {
			return nil, err
		}
		out = append(out, img)
	}
	return out, nil
}

// Buttons returns every button of the message, in order.
func (m *Message) Buttons() []*discordgo.Button {
	var out []*discordgo.Button
	walkComponents(m.Components, func(c discordgo.MessageComponent) {
		if b, ok := c.(*discordgo.Button); ok {
			out = append(out, b)
		}
	})
	return out
}

// SelectMenus returns every select menu of the message, in order.
func (m *Message) SelectMenus() []*discordgo.SelectMenu {
	var out []*discordgo.SelectMenu
	walkComponents(m.Components, func(c discordgo.MessageComponent) {
		if s, ok := c.(*discordgo.SelectMenu); ok {
			out = append(out, s)
		}
	})
	return out
}

// FromBot reports whether the bot wrote the message.
func (m *Message) FromBot() bool { return m.Author != nil && m.Author.Bot }

// walkComponents visits a component tree.
func walkComponents(list []discordgo.MessageComponent, visit func(discordgo.MessageComponent)) {
	for _, c := range list {
		visit(c)
		switch x := c.(type) {
		case *discordgo.ActionsRow:
			walkComponents(x.Components, visit)
		case *discordgo.Container:
			walkComponents(x.Components, visit)
		case *discordgo.Section:
			walkComponents(x.Components, visit)
			visit(x.Accessory)
		}
	}
}

// view makes a snapshot of a message. Call with s.mu held.
func (s *Server) view(m *message, _ *user) *Message {
	obj := s.messageJSON(m)
	if c := s.channels[m.channelID]; c.guildID != "" {
		obj["guild_id"] = c.guildID
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		panic(fmt.Sprintf("discordtest: encode message %s: %v", m.id, err))
	}
	var dm discordgo.Message
	if err := json.Unmarshal(raw, &dm); err != nil {
		// discordgo could not read it either; the bot would fail the same way.
		s.violation("message %s cannot be decoded by discordgo: %v", m.id, err)
	}
	v := &Message{Message: &dm, Ephemeral: m.ephemeralTo != "", Loading: m.flags&flagLoading != 0, Edits: m.edits}
	for _, a := range m.attachments {
		v.Files = append(v.Files, File{Name: a.filename, ContentType: a.contentType, Data: a.data, Description: a.description})
	}
	return v
}

// canSee reports whether a user can see a channel: a DM of theirs, or a
// guild channel where they have VIEW_CHANNEL (private threads: and are in
// the thread, or have MANAGE_THREADS). Call with s.mu held.
func (s *Server) canSee(u *user, c *channel) bool {
	switch {
	case c == nil || c.deleted:
		return false
	case u.bot:
		return s.botSees(c)
	case c.typ == discordgo.ChannelTypeDM:
		return c.recipient == u.id
	}
	return s.permissions(u, c)&permViewChannel != 0
}

func hasMember(g *guild, id string) bool {
	_, ok := g.joinedAt[id]
	return ok
}

// visible reports whether a user sees a message.
func (s *Server) visible(u *user, m *message) bool {
	if m.deleted || !s.canSee(u, s.channels[m.channelID]) {
		return false
	}
	return m.ephemeralTo == "" || m.ephemeralTo == u.id
}

// messagesOf returns snapshots of a channel's messages that pass keep.
// Call with s.mu held.
func (s *Server) messagesOf(c *channel, viewer *user, keep func(*message) bool) []*Message {
	var out []*Message
	for _, id := range c.messages {
		if m := s.messages[id]; keep(m) {
			out = append(out, s.view(m, viewer))
		}
	}
	return out
}

// ChannelMessages returns the messages everyone in the channel sees (no
// ephemeral ones), oldest first.
func (s *Server) ChannelMessages(ch *Channel) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[ch.ID]
	return s.messagesOf(c, nil, func(m *message) bool { return !m.deleted && m.ephemeralTo == "" })
}

// Message returns the current state of a message, or nil if there is none
// (or it was deleted). Use it to refresh a snapshot.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[id]
	if m == nil || m.deleted {
		return nil
	}
	return s.view(m, nil)
}

// sortedMessages returns all stored messages in creation order.
func (s *Server) sortedMessages() []*message {
	out := make([]*message, 0, len(s.messages))
	for _, m := range s.messages {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return idLess(out[i].id, out[j].id) })
	return out
}
