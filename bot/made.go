package bot

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// madeDMs knows which of the outbox's DMs Discord made though its answer to
// the create was lost. The nonce keeps a create sent again from being made
// twice only for a few minutes; a create whose answer timed out and that
// Discord then kept failing for longer would be made again. MESSAGE_CREATE
// of the bot's own DMs carries the nonce (DMs are the one place the bot gets
// its own messages), so the outbox learns there that the message arrived,
// when, and its id: it is not sent again, the clock it starts counts from
// then, and a DM that asks about an offer is recorded as the one to edit
// once the offer is settled.
//
// Only the creates being sent, or whose answer was lost, are watched for: a
// nonce the outbox does not expect is not kept. What is learnt lives in
// memory; after a restart the nonce alone keeps the create made once.
type madeDMs struct {
	mu      sync.Mutex
	watched map[string]madeDM // nonce → zero while awaited, the message made once seen
}

// madeDM is a DM the gateway said Discord made: when, and its id.
type madeDM struct {
	at time.Time
	id string
}

// expect watches for the create of nonce before it is sent.
func (m *madeDMs) expect(nonce string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.watched == nil {
		m.watched = map[string]madeDM{}
	}
	if _, ok := m.watched[nonce]; !ok {
		m.watched[nonce] = madeDM{}
	}
}

// saw records that Discord made the message of nonce, id, at at, if it is
// watched for.
func (m *madeDMs) saw(nonce, id string, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if made, ok := m.watched[nonce]; ok && made.at.IsZero() {
		m.watched[nonce] = madeDM{at: at, id: id}
	}
}

// madeAt reports whether the message of nonce is known made, when, and
// its id.
func (m *madeDMs) madeAt(nonce string) (madeDM, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	made := m.watched[nonce]
	return made, !made.at.IsZero()
}

// forget stops watching for nonce: its create was answered.
func (m *madeDMs) forget(nonce string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.watched, nonce)
}

// forgetNotice stops watching for every part of notice id: it is done.
// Few creates are watched at a time (those under way, and those whose
// answer was lost), so the look is short.
func (m *madeDMs) forgetNotice(id uint64) {
	prefix := strings.TrimSuffix(nonceOf(id, 0), "0")
	m.mu.Lock()
	defer m.mu.Unlock()
	for nonce := range m.watched {
		if strings.HasPrefix(nonce, prefix) {
			delete(m.watched, nonce)
		}
	}
}

// onOwnDM reads a MESSAGE_CREATE for the nonce of one of the outbox's DMs.
// discordgo's Message has no nonce, so it is read from the raw event.
func (b *Bot) onOwnDM(e *discordgo.Event) {
	if e.Type != "MESSAGE_CREATE" || !bytes.Contains(e.RawData, []byte(`"nonce":"sb`)) {
		return
	}
	var m struct {
		ID      string `json:"id"`
		GuildID string `json:"guild_id"`
		Author  struct {
			ID string `json:"id"`
		} `json:"author"`
		Nonce json.RawMessage `json:"nonce"`
	}
	if json.Unmarshal(e.RawData, &m) != nil || m.GuildID != "" || m.Author.ID == "" || m.Author.ID != b.botUserID() {
		return
	}
	var nonce string
	if json.Unmarshal(m.Nonce, &nonce) != nil || !strings.HasPrefix(nonce, "sb") {
		return
	}
	b.made.saw(nonce, m.ID, b.now())
}
