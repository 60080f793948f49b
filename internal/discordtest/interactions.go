package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DidNotRespond is what Discord shows a member when the bot's first
// response to their interaction does not arrive within 3 seconds.
const DidNotRespond = "The application did not respond"

// interactionState is where an interaction stands.
type interactionState int

const (
	statePending  interactionState = iota // dispatched, no first response yet
	stateAnswered                         // the first response arrived in time
	stateExpired                          // no first response in time: the token is dead
)

// interaction is one interaction a member started.
type interaction struct {
	id, token   string
	typ         discordgo.InteractionType
	userID      string
	guildID     string // "" in the bot's DM
	channelID   string
	commandName string         // for the interaction metadata of messages
	messageID   string         // components, and modals opened from them: the message
	focused     *focusedOption // autocomplete: the option being typed
	payload     map[string]any // the INTERACTION_CREATE data, kept for the record

	dispatched time.Time // wall clock: the 3-second rule
	issued     time.Time // server clock: the 15-minute token
	timer      *time.Timer

	state      interactionState
	callback   discordgo.InteractionResponseType
	answeredIn time.Duration
	originalID string   // the @original message
	update     *Message // types 6 and 7: the component's message as this interaction's answer left it
	followups  []string // follow-up message ids
	modal      map[string]any
	submitted  bool // its modal was submitted
	refused    bool // the world refused the bot's answer (a deleted channel, a locked thread): no test failure if it expires
	lostAnswer bool // the world lost Discord's answer to the first response (LoseAnswerNext): sent again, it is answered already
	sessions   int  // the gateway sessions it was dispatched to: with two (processes of one shard), each may answer, and the second is answered already
	choices    []*discordgo.ApplicationCommandOptionChoice
}

// focusedOption is the option an autocomplete interaction is about.
type focusedOption struct {
	name string
	typ  discordgo.ApplicationCommandOptionType
}

// owners renders authorizing_integration_owners: the app is installed to
// the guild, and "0" stands for the guild in the bot's DM.
func (in *interaction) owners() map[string]any {
	if in.guildID != "" {
		return map[string]any{"0": in.guildID}
	}
	return map[string]any{"0": "0"}
}

// start records an interaction, starts its deadline and dispatches it.
// Call with s.mu held.
func (s *Server) start(in *interaction, payload map[string]any) {
	in.refused = in.refused || s.botDown // nobody there to answer: see BotKilled
	in.dispatched = time.Now()
	in.issued = s.cfg.clock.Now()
	in.payload = payload
	s.inters[in.id] = in
	s.tokens[in.token] = in
	in.timer = time.AfterFunc(s.cfg.responseDeadline, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if in.state == statePending {
			s.expire(in)
		}
	})
	s.dispatchFor("INTERACTION_CREATE", in.guildID, 0, func(*gwSession) any {
		in.sessions++
		return payload
	})
	s.notify()
}

// BotKilled tells the stand-in that the test killed the bot's process (a
// crash test): the interactions waiting for its answer, and those members
// start before the next process identifies, go unanswered as they would on
// Discord (the member sees DidNotRespond and tries again), without failing
// the test. Events dispatched meanwhile go to no session, as on Discord.
func (s *Server) BotKilled() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.botDown = true
	for _, in := range s.inters {
		if in.state == statePending {
			in.refused = true
		}
	}
}

// expire ends an interaction that got no first response in time: the member
// sees DidNotRespond and the token is dead. Call with s.mu held.
func (s *Server) expire(in *interaction) {
	if in.state != statePending {
		return
	}
	in.state = stateExpired
	s.notify()
	if in.refused {
		return // the bot tried; the test's world made Discord refuse it
	}
	s.violation("interaction %s (%s by %s) got no first response within %v; the member sees %q and the token is dead",
		in.id, describe(in), s.users[in.userID].name, s.cfg.responseDeadline, DidNotRespond)
}

// failedFirstResponse marks the interaction whose first response q is as
// refused, when the test's world fails it (FailNext): the member sees it
// fail, as on Discord, without failing the test.
func (s *Server) failedFirstResponse(q *request) {
	if q.op.Route() != "POST /interactions/{interaction_id}/{interaction_token}/callback" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.inters[q.params["interaction_id"]]; in != nil && in.state == statePending {
		in.refused = true
	}
}

// lostFirstResponse marks the interaction whose first response q is as
// one whose answer the test's world lost (LoseAnswerNext): the bot may send
// it again, and be told it was answered already, as on Discord.
func (s *Server) lostFirstResponse(q *request) {
	if q.op.Route() != "POST /interactions/{interaction_id}/{interaction_token}/callback" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.inters[q.params["interaction_id"]]; in != nil {
		in.lostAnswer = true
	}
}

// describe names an interaction for messages.
func describe(in *interaction) string {
	switch in.typ {
	case discordgo.InteractionApplicationCommand:
		return "/" + in.commandName
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete of /" + in.commandName
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionModalSubmit:
		return "modal submit"
	}
	return in.typ.String()
}

// allowedCallbacks lists the first responses Discord accepts per interaction type.
var allowedCallbacks = map[discordgo.InteractionType][]discordgo.InteractionResponseType{
	discordgo.InteractionApplicationCommand: {
		discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource,
		discordgo.InteractionResponseModal,
	},
	discordgo.InteractionMessageComponent: {
		discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource,
		discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage,
		discordgo.InteractionResponseModal,
	},
	discordgo.InteractionApplicationCommandAutocomplete: {
		discordgo.InteractionApplicationCommandAutocompleteResult,
	},
	discordgo.InteractionModalSubmit: {
		discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource,
		discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage,
	},
}

// interactionFlags are the flags an interaction response may set.
const interactionFlags = flagEphemeral | flagSuppressEmbeds | flagSuppressNotices | flagComponentsV2

func (s *Server) interactionCallback(q *request) (int, any, *apiError) {
	in := s.inters[q.params["interaction_id"]]
	if in == nil || in.token != q.params["interaction_token"] {
		e := errUnknownInteraction()
		e.detail = "no interaction with this id and token"
		return 0, nil, e
	}
	late := time.Since(in.dispatched)
	if in.state == statePending && late > s.cfg.responseDeadline {
		s.expire(in) // the timer has not fired yet, but Discord's clock has run out
	}
	switch in.state {
	case stateExpired:
		e := errUnknownInteraction()
		e.detail = fmt.Sprintf("first response %v after dispatch; the deadline is %v, the member was shown %q", late.Round(time.Millisecond), s.cfg.responseDeadline, DidNotRespond)
		return 0, nil, e
	case stateAnswered:
		e := errAlreadyAcknowledged()
		e.detail = fmt.Sprintf("the interaction was already answered with type %d", in.callback)
		// Sent again after its answer was lost, or by the second of
		// two processes that were both given the interaction.
		e.expected = in.lostAnswer || in.sessions > 1
		return 0, nil, e
	}
	var cb struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(q.body, &cb); err != nil {
		return 0, nil, &apiError{status: 400, code: 50109, message: "The request body contains invalid JSON.", detail: err.Error()}
	}
	allowed := false
	for _, t := range allowedCallbacks[in.typ] {
		if t == cb.Type {
			allowed = true
		}
	}
	if (cb.Type == discordgo.InteractionResponseUpdateMessage || cb.Type == discordgo.InteractionResponseDeferredMessageUpdate) && in.messageID == "" {
		allowed = false // a modal opened by a slash command has no message to update
	}
	if !allowed {
		e := errInvalidForm(formError("type", "INTERACTION_CALLBACK_TYPE_INVALID", "Interaction callback type is not valid for this interaction"))
		e.detail = fmt.Sprintf("callback type %d answers a %s interaction", cb.Type, describe(in))
		return 0, nil, e
	}

	if err := s.interactionChannelAccepts(in, cb.Type); err != nil {
		return 0, nil, err
	}
	var msg *message
	switch cb.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		f, err := parseFields(cb.Data)
		if err != nil {
			return 0, nil, err
		}
		m := s.newResponseMessage(in)
		if cb.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			// A deferred response carries only its flags; Discord drops the rest.
			var flags struct {
				Flags int `json:"flags"`
			}
			_ = json.Unmarshal(cb.Data, &flags)
			m.flags = flagLoading | flags.Flags&flagEphemeral
		} else {
			if err := s.compose(m, f, q.uploads, false, q.version); err != nil {
				return 0, nil, err
			}
			m.flags &= interactionFlags
		}
		if m.flags&flagEphemeral != 0 {
			m.ephemeralTo = in.userID
		} else {
			s.unarchive(s.channels[in.channelID])
		}
		s.store(m)
		s.dispatchMessage("MESSAGE_CREATE", m)
		in.originalID, msg = m.id, m
	case discordgo.InteractionResponseDeferredMessageUpdate:
		in.originalID = in.messageID
		msg = s.messages[in.messageID]
	case discordgo.InteractionResponseUpdateMessage:
		m := s.messages[in.messageID]
		if m == nil || m.deleted {
			return 0, nil, errUnknownMessage()
		}
		f, err := parseFields(cb.Data)
		if err != nil {
			return 0, nil, err
		}
		edited := *m
		if err := s.compose(&edited, f, q.uploads, true, q.version); err != nil {
			return 0, nil, err
		}
		edited.edited, edited.edits = s.cfg.clock.Now(), edited.edits+1
		*m = edited
		s.dispatchMessage("MESSAGE_UPDATE", m)
		in.originalID, msg = m.id, m
		in.update = s.view(m, s.users[in.userID])
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		var data struct {
			Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
		}
		_ = json.Unmarshal(cb.Data, &data)
		if errs := checkChoices(in.focused, data.Choices); len(errs) > 0 {
			return 0, nil, errInvalidForm(errs...)
		}
		in.choices = data.Choices
	case discordgo.InteractionResponseModal:
		var data map[string]any
		if err := decodeAny(cb.Data, &data); err != nil {
			return 0, nil, &apiError{status: 400, code: 50109, message: "The request body contains invalid JSON.", detail: err.Error()}
		}
		if errs := checkModal(data); len(errs) > 0 {
			return 0, nil, errInvalidForm(errs...)
		}
		in.modal = data
	}
	in.state, in.callback, in.answeredIn = stateAnswered, cb.Type, late
	in.timer.Stop()
	if queryBool(q.query, "with_response") {
		return http.StatusOK, s.callbackJSON(in, msg), nil
	}
	return http.StatusNoContent, nil, nil
}

// interactionChannelAccepts checks that an interaction's channel takes the
// answer: not deleted (10003), and in a thread, a new message only where
// the bot may post (a locked archived thread answers 50083, as Discord
// does, leaving the member with a command that never completes) and an
// edit only in an active thread. Ephemeral answers are checked alike.
// A refusal marks the interaction so that its expiry does not fail the
// test. Call with s.mu held.
func (s *Server) interactionChannelAccepts(in *interaction, typ discordgo.InteractionResponseType) *apiError {
	c := s.channels[in.channelID]
	var err *apiError
	switch {
	case c.deleted:
		err = refusal(errUnknownChannel(), "channel "+c.name+" was deleted after the interaction started")
	case typ == discordgo.InteractionResponseChannelMessageWithSource || typ == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		err = threadPostable(c, s.permissions(s.bot, c))
	case typ == discordgo.InteractionResponseUpdateMessage:
		err = threadEditable(c, s.permissions(s.bot, c))
	}
	if err != nil {
		in.refused = true
	}
	return err
}

// newResponseMessage starts the message that answers an interaction.
func (s *Server) newResponseMessage(in *interaction) *message {
	typ := discordgo.MessageTypeDefault
	switch in.typ {
	case discordgo.InteractionApplicationCommand:
		typ = discordgo.MessageTypeChatInputCommand
	}
	return &message{
		id: s.nextID(), channelID: in.channelID, authorID: s.bot.id, typ: typ,
		created: s.cfg.clock.Now(), interaction: in, webhookID: s.appID,
	}
}

// callbackJSON renders the answer to a callback sent with_response=true.
func (s *Server) callbackJSON(in *interaction, msg *message) map[string]any {
	inter := map[string]any{"id": in.id, "type": int(in.typ)}
	out := map[string]any{"interaction": inter}
	if msg != nil {
		inter["response_message_id"] = msg.id
		inter["response_message_loading"] = msg.flags&flagLoading != 0
		inter["response_message_ephemeral"] = msg.ephemeralTo != ""
		out["resource"] = map[string]any{"type": int(in.callback), "message": s.messageJSON(msg)}
	} else {
		out["resource"] = map[string]any{"type": int(in.callback)}
	}
	return out
}

// checkChoices checks that autocomplete choices have values of the focused
// option's type, which Discord requires.
func checkChoices(f *focusedOption, choices []*discordgo.ApplicationCommandOptionChoice) []fieldError {
	if f == nil {
		return nil
	}
	var errs []fieldError
	for i, c := range choices {
		if c == nil {
			continue
		}
		ok := true
		switch f.typ {
		case discordgo.ApplicationCommandOptionString:
			_, ok = c.Value.(string)
		case discordgo.ApplicationCommandOptionInteger:
			v, isNum := c.Value.(float64)
			ok = isNum && v == float64(int64(v))
		case discordgo.ApplicationCommandOptionNumber:
			_, ok = c.Value.(float64)
		}
		if !ok {
			errs = append(errs, formError(fmt.Sprintf("data/choices/%d/value", i), "BASE_TYPE_BAD_TYPE",
				fmt.Sprintf("Value %v does not fit option %q of type %d", c.Value, f.name, f.typ)))
		}
	}
	return errs
}

// webhookInteraction finds the interaction behind an interaction webhook
// route and checks that its token still works.
func (s *Server) webhookInteraction(q *request) (*interaction, *apiError) {
	if q.params["webhook_id"] != s.appID {
		e := errUnknownWebhook()
		e.detail = "interaction webhooks use the application id " + s.appID + ", not " + q.params["webhook_id"]
		return nil, e
	}
	in := s.tokens[q.params["webhook_token"]]
	if in == nil {
		return nil, errInvalidWebhookToken()
	}
	if age := s.cfg.clock.Now().Sub(in.issued); age > s.cfg.tokenLifetime {
		e := errInvalidWebhookToken()
		e.detail = fmt.Sprintf("the interaction token is %v old; it works for %v", age.Round(time.Second), s.cfg.tokenLifetime)
		return nil, e
	}
	switch {
	case in.refused && in.state != stateAnswered:
		// The test's world failed or refused the first response: the
		// bot, not knowing whether Discord took it, may go on.
		e := errUnknownWebhook()
		e.detail = "the interaction's first response failed"
		e.expected = true
		return nil, e
	case in.state == stateExpired:
		e := errUnknownWebhook()
		e.detail = "the interaction got no first response in time, so its token never became usable"
		return nil, e
	case in.state == statePending:
		e := errUnknownWebhook()
		e.detail = "follow-ups and @original need the first response (callback) first"
		return nil, e
	case in.typ == discordgo.InteractionApplicationCommandAutocomplete:
		e := errUnknownWebhook()
		e.detail = "autocomplete interactions have no follow-ups"
		return nil, e
	}
	return in, nil
}

// webhookMessage finds "@original" or a follow-up of an interaction.
func (s *Server) webhookMessage(in *interaction, id string) (*message, *apiError) {
	if id == "" || id == "@original" {
		id = in.originalID
	} else if id != in.originalID {
		found := false
		for _, f := range in.followups {
			found = found || f == id
		}
		if !found {
			return nil, errUnknownMessage()
		}
	}
	m := s.messages[id]
	if m == nil || m.deleted {
		return nil, errUnknownMessage()
	}
	return m, nil
}

func (s *Server) createFollowup(q *request) (int, any, *apiError) {
	in, err := s.webhookInteraction(q)
	if err != nil {
		return 0, nil, err
	}
	f, err := parseFields(q.body)
	if err != nil {
		return 0, nil, err
	}
	if err := s.interactionChannelAccepts(in, discordgo.InteractionResponseChannelMessageWithSource); err != nil {
		return 0, nil, err
	}
	var m *message
	if orig := s.messages[in.originalID]; in.callback == discordgo.InteractionResponseDeferredChannelMessageWithSource &&
		orig != nil && orig.flags&flagLoading != 0 && orig.edits == 0 {
		// The first follow-up after a deferred response replaces the
		// "thinking" message and keeps its visibility.
		edited := *orig
		if err := s.compose(&edited, f, q.uploads, true, q.version); err != nil {
			return 0, nil, err
		}
		edited.flags &^= flagLoading
		edited.edited, edited.edits = s.cfg.clock.Now(), edited.edits+1
		*orig = edited
		s.dispatchMessage("MESSAGE_UPDATE", orig)
		m = orig
	} else {
		m = s.newResponseMessage(in)
		m.typ = discordgo.MessageTypeDefault
		if err := s.compose(m, f, q.uploads, false, q.version); err != nil {
			return 0, nil, err
		}
		m.flags &= interactionFlags
		if m.flags&flagEphemeral != 0 {
			m.ephemeralTo = in.userID
		} else {
			s.unarchive(s.channels[in.channelID])
		}
		s.store(m)
		in.followups = append(in.followups, m.id)
		s.dispatchMessage("MESSAGE_CREATE", m)
	}
	if queryBool(q.query, "wait") {
		return http.StatusOK, s.messageJSON(m), nil
	}
	return http.StatusNoContent, nil, nil
}

func (s *Server) getWebhookMessage(q *request) (int, any, *apiError) {
	in, err := s.webhookInteraction(q)
	if err != nil {
		return 0, nil, err
	}
	m, err := s.webhookMessage(in, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.messageJSON(m), nil
}

func (s *Server) editWebhookMessage(q *request) (int, any, *apiError) {
	in, err := s.webhookInteraction(q)
	if err != nil {
		return 0, nil, err
	}
	m, err := s.webhookMessage(in, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	if err := s.interactionChannelAccepts(in, discordgo.InteractionResponseUpdateMessage); err != nil {
		return 0, nil, err
	}
	status, body, err := s.applyEdit(q, m)
	if err == nil && m.id == in.messageID &&
		(in.callback == discordgo.InteractionResponseDeferredMessageUpdate || in.callback == discordgo.InteractionResponseUpdateMessage) {
		in.update = s.view(m, s.users[in.userID])
	}
	return status, body, err
}

func (s *Server) deleteWebhookMessage(q *request) (int, any, *apiError) {
	in, err := s.webhookInteraction(q)
	if err != nil {
		return 0, nil, err
	}
	m, err := s.webhookMessage(in, q.params["message_id"])
	if err != nil {
		return 0, nil, err
	}
	s.deleteStored(m)
	return http.StatusNoContent, nil, nil
}

// Interaction is an interaction a member started, as the test sees it. Its
// methods read the current state; they are safe for concurrent use.
type Interaction struct {
	ID     string                    // snowflake
	Token  string                    // the token the bot answers with
	Type   discordgo.InteractionType // command, autocomplete, component or modal submit
	Member *Member                   // who started it
	srv    *Server
}

// Response is what the invoking member sees of the bot's answer to an
// interaction at one moment.
type Response struct {
	// Type is the callback type of the first response; 0 while none came.
	Type discordgo.InteractionResponseType
	// Failed is set when no first response came in time; the member then
	// sees Error, DidNotRespond.
	Failed bool
	Error  string
	// After is how long the first response took.
	After time.Duration
	// Original is the response message: the new message of types 4 and 5
	// (Loading while deferred), or the component's message for types 6 and 7.
	Original *Message
	// Update is, for types 6 and 7, the component's message as this
	// interaction's own answer left it: the update of type 7, or the last
	// edit of @original after type 6; nil until then. Original is the
	// message as it is now, which another interaction may have changed
	// since.
	Update *Message
	// Followups are the follow-up messages, oldest first.
	Followups []*Message
	// Modal is the modal shown by a type 9 response.
	Modal *Modal
	// Choices are the choices of an autocomplete (type 8) response.
	Choices []*discordgo.ApplicationCommandOptionChoice
}

// Modal is a modal the bot showed a member.
type Modal struct {
	CustomID string
	Title    string
	Inputs   []TextInput // in order
}

// TextInput is one text field of a modal.
type TextInput struct {
	CustomID  string
	Label     string                   // of the input, or of the label component around it
	Style     discordgo.TextInputStyle // short or paragraph
	Required  bool                     // Discord's default for text inputs is true
	MinLength int
	MaxLength int    // 0: Discord's maximum, 4000
	Value     string // pre-filled text
}

// Response returns the member's current view of the answer.
func (i *Interaction) Response() Response {
	s := i.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.inters[i.ID]
	if in == nil {
		return Response{}
	}
	r := Response{Type: in.callback, After: in.answeredIn}
	if in.state == stateExpired {
		r.Failed, r.Error = true, DidNotRespond
	}
	viewer := s.users[in.userID]
	if m := s.messages[in.originalID]; m != nil && !m.deleted && in.originalID != "" {
		r.Original = s.view(m, viewer)
		if m.flags&flagLoading != 0 && s.cfg.clock.Now().Sub(in.issued) > s.cfg.tokenLifetime {
			// A deferred answer never completed: the client gives up too.
			r.Failed, r.Error = true, DidNotRespond
		}
	}
	for _, id := range in.followups {
		if m := s.messages[id]; m != nil && !m.deleted {
			r.Followups = append(r.Followups, s.view(m, viewer))
		}
	}
	if in.modal != nil {
		r.Modal = modalOf(in.modal)
	}
	r.Choices = in.choices
	r.Update = in.update
	return r
}

// Wait waits until the interaction has its first response, or has failed
// for want of one, and returns the member's view then.
func (i *Interaction) Wait(t TB) Response {
	t.Helper()
	var r Response
	i.srv.WaitFor(t, "the first response to interaction "+i.ID, func() bool {
		r = i.Response()
		return r.Type != 0 || r.Failed
	})
	return r
}

// Reply waits until the interaction's response message shows content (a
// deferred response has been completed) and returns it. It fails t if the
// interaction failed or was answered without a message.
func (i *Interaction) Reply(t TB) *Message {
	t.Helper()
	var r Response
	i.srv.WaitFor(t, "the reply to interaction "+i.ID, func() bool {
		r = i.Response()
		return r.Failed || (r.Original != nil && !r.Original.Loading) ||
			r.Type == discordgo.InteractionResponseModal || r.Type == discordgo.InteractionApplicationCommandAutocompleteResult
	})
	if r.Failed {
		t.Fatalf("discordtest: interaction %s failed: the member sees %q", i.ID, r.Error)
	}
	if r.Original == nil {
		t.Fatalf("discordtest: interaction %s was answered with type %d, which shows no message", i.ID, r.Type)
	}
	return r.Original
}

// Updated waits until the interaction's answer updated the message its
// component is on (Response.Update: an update, or a deferred update and
// then an edit of @original) and returns the message as that answer left
// it. It fails t if the interaction failed, or was answered by a new
// message.
func (i *Interaction) Updated(t TB) *Message {
	t.Helper()
	var r Response
	i.srv.WaitFor(t, "the update of interaction "+i.ID, func() bool {
		r = i.Response()
		return r.Failed || r.Update != nil ||
			r.Type != 0 && r.Type != discordgo.InteractionResponseDeferredMessageUpdate && r.Type != discordgo.InteractionResponseUpdateMessage
	})
	if r.Failed {
		t.Fatalf("discordtest: interaction %s failed: the member sees %q", i.ID, r.Error)
	}
	if r.Update == nil {
		t.Fatalf("discordtest: interaction %s was answered with type %d, which updates no message (%s)", i.ID, r.Type, answerOf(r))
	}
	return r.Update
}

// answerOf is what a response shows, for a failure's message.
func answerOf(r Response) string {
	if r.Original != nil {
		return fmt.Sprintf("%q", r.Original.Content)
	}
	return "no message"
}

// modalOf reads a modal's text inputs from its callback data.
func modalOf(data map[string]any) *Modal {
	m := &Modal{CustomID: str(data, "custom_id"), Title: str(data, "title")}
	rows, _ := data["components"].([]any)
	for _, row := range rows {
		obj, _ := row.(map[string]any)
		var inputs []any
		label := ""
		switch componentType(row) {
		case ctActionRow:
			inputs, _ = obj["components"].([]any)
		case ctLabel:
			inputs, label = []any{obj["component"]}, str(obj, "label")
		}
		for _, x := range inputs {
			in, _ := x.(map[string]any)
			if componentType(x) != ctTextInput {
				continue
			}
			ti := TextInput{CustomID: str(in, "custom_id"), Label: str(in, "label"), Value: str(in, "value"), Required: true}
			if label != "" {
				ti.Label = label
			}
			if v, ok := in["required"].(bool); ok {
				ti.Required = v
			}
			ti.Style = discordgo.TextInputStyle(numberOf(in["style"]))
			ti.MinLength = numberOf(in["min_length"])
			ti.MaxLength = numberOf(in["max_length"])
			m.Inputs = append(m.Inputs, ti)
		}
	}
	return m
}

// numberOf reads an integer of a decoded JSON tree, or one the stand-in put there.
func numberOf(v any) int {
	switch n := v.(type) {
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}
