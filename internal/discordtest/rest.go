package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// request is one REST request on its way through the stand-in.
type request struct {
	version int
	op      *operation
	params  map[string]string
	query   url.Values
	body    []byte    // JSON body or payload_json; nil when there is none
	uploads []*upload // files of a multipart body
	lost    *fault    // done, its answer replaced by this fault's (LoseAnswerNextIn)
}

// upload is one file part of a multipart body.
type upload struct {
	index       int // n of "files[n]"; -1 for other field names
	field       string
	filename    string
	contentType string
	data        []byte
}

// apiError is an answer Discord gives instead of doing what was asked.
type apiError struct {
	status  int
	code    int
	message string // Discord's own message, sent in the body
	detail  string // why, for the test failure only
	errors  []fieldError
	// expected marks refusals that are part of the world the test built
	// (a member with closed DMs), not mistakes of the bot: they do not fail
	// the test.
	expected bool
}

func (e *apiError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d %s (code %d)", e.status, e.message, e.code)
	if e.detail != "" {
		sb.WriteString(": " + e.detail)
	}
	for _, f := range e.errors {
		sb.WriteString("\n\t" + f.String())
	}
	return sb.String()
}

// Discord's refusals, by code. The messages are Discord's own.
func errUnknownChannel() *apiError {
	return &apiError{status: 404, code: 10003, message: "Unknown Channel"}
}
func errUnknownMessage() *apiError {
	return &apiError{status: 404, code: 10008, message: "Unknown Message"}
}
func errUnknownUser() *apiError { return &apiError{status: 404, code: 10013, message: "Unknown User"} }
func errUnknownWebhook() *apiError {
	return &apiError{status: 404, code: 10015, message: "Unknown Webhook"}
}
func errUnknownCommand() *apiError {
	return &apiError{status: 404, code: 10063, message: "Unknown application command"}
}
func errUnknownInteraction() *apiError {
	return &apiError{status: 404, code: 10062, message: "Unknown interaction"}
}
func errAlreadyAcknowledged() *apiError {
	return &apiError{status: 400, code: 40060, message: "Interaction has already been acknowledged."}
}
func errInvalidWebhookToken() *apiError {
	return &apiError{status: 401, code: 50027, message: "Invalid Webhook Token"}
}
func errCannotDM() *apiError {
	return &apiError{status: 403, code: 50007, message: "Cannot send messages to this user", expected: true}
}
func errEmptyMessage() *apiError {
	return &apiError{status: 400, code: 50006, message: "Cannot send an empty message"}
}
func errNotAuthor() *apiError {
	return &apiError{status: 403, code: 50005, message: "Cannot edit a message authored by another user"}
}
func errNonTextChannel() *apiError {
	return &apiError{status: 400, code: 50008, message: "Cannot send messages in a non-text channel"}
}
func errWrongChannelType() *apiError {
	return &apiError{status: 400, code: 50024, message: "Cannot execute action on this channel type"}
}
func errThreadExists() *apiError {
	return &apiError{status: 400, code: 160004, message: "A thread has already been created for this message"}
}
func errMissingAccess() *apiError {
	return &apiError{status: 403, code: 50001, message: "Missing Access"}
}
func errMissingPermissions() *apiError {
	return &apiError{status: 403, code: 50013, message: "Missing Permissions"}
}
func errUnknownMember() *apiError {
	return &apiError{status: 404, code: 10007, message: "Unknown Member"}
}
func errUnknownGuild() *apiError {
	return &apiError{status: 404, code: 10004, message: "Unknown Guild"}
}
func errThreadArchived() *apiError {
	return &apiError{status: 400, code: 50083, message: "Thread is archived"}
}
func errThreadLocked() *apiError {
	return &apiError{status: 403, code: 160005, message: "Thread is locked"}
}
func errReplyWithoutHistory() *apiError {
	return &apiError{status: 403, code: 160002, message: "Cannot reply without permission to read message history"}
}
func errInvalidForm(fields ...fieldError) *apiError {
	return &apiError{status: 400, code: 50035, message: "Invalid Form Body", errors: fields}
}
func errTooLarge() *apiError {
	return &apiError{status: 413, code: 40005, message: "Request entity too large"}
}

// formError builds one field error of a 50035 answer.
func formError(path string, code, msg string) fieldError {
	var p []string
	if path != "" {
		p = strings.Split(path, "/")
	}
	return fieldError{Path: p, Code: code, Message: msg, Schema: msg}
}

// handler does what one route asks, with s.mu held. It returns the status
// and JSON body of the answer (nil body: 204 No Content) or a refusal.
type handler func(s *Server, q *request) (int, any, *apiError)

// apiPath matches "/api/v9/rest" and "/api/rest" (no version: Discord's default).
var apiPath = regexp.MustCompile(`^/api(?:/v(\d+))?(/.*)$`)

// noAuthPrefixes are routes authorised by the token in their path, not by
// the bot token: interaction callbacks and the interaction webhooks.
var noAuthPrefixes = []string{"/interactions/", "/webhooks/{webhook_id}/{webhook_token}"}

// serveAPI answers one REST request.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	rec := Request{Method: r.Method, Path: r.URL.Path, At: time.Now(), client: clientAddress(r)}
	q, apiErr := s.prepare(w, r, &rec)
	if apiErr == nil && q == nil {
		return // prepare already answered (an injected fault or a rate limit)
	}
	status, body := 0, any(nil)
	if apiErr == nil {
		h := routes[q.op.Route()]
		if h == nil {
			// Not Discord's refusal but a gap of the stand-in: say so.
			s.violation("%s %s: a valid Discord route (%s) that the stand-in does not implement yet; add it to routes", r.Method, r.URL.Path, q.op.Route())
			s.writeError(w, q, &rec, &apiError{status: http.StatusNotImplemented, message: "501: Not Implemented"})
			return
		}
		s.mu.Lock()
		s.archiveDue()
		status, body, apiErr = h(s, q)
		if apiErr != nil && s.namesUnknownID(q) {
			apiErr.expected = true
		}
		s.notify()
		s.mu.Unlock()
	}
	if apiErr != nil {
		if !apiErr.expected {
			s.violation("%s %s: Discord would answer %v", r.Method, r.URL.Path, apiErr)
		}
		s.writeError(w, q, &rec, apiErr)
		return
	}
	if q.lost != nil {
		s.lostFirstResponse(q)
		s.writeFault(w, q, &rec, q.lost)
		return
	}
	s.writeOK(w, q, &rec, status, body)
}

// prepare routes, authenticates, rate-limits and validates a request. It
// returns (nil, nil) when it has answered the request itself.
func (s *Server) prepare(w http.ResponseWriter, r *http.Request, rec *Request) (*request, *apiError) {
	m := apiPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return nil, &apiError{status: 404, message: "404: Not Found"}
	}
	version := 6 // Discord's default when the path names none
	if m[1] != "" {
		version, _ = strconv.Atoi(m[1])
	}
	if version != 9 && version != 10 {
		return nil, &apiError{status: 400, code: 50041, message: "Invalid API version provided", detail: fmt.Sprintf("API v%d; the stand-in serves v9 and v10", version)}
	}
	ops, params, ok := s.spec.match(m[2])
	if !ok {
		return nil, &apiError{status: 404, message: "404: Not Found", detail: "no route " + m[2] + " in Discord's API description"}
	}
	op := ops[r.Method]
	if op == nil {
		return nil, &apiError{status: 405, message: "405: Method Not Allowed", detail: r.Method + " " + m[2] + " is not in Discord's API description"}
	}
	rec.Route = op.Route()
	q := &request{version: version, op: op, params: params, query: r.URL.Query()}
	if err := s.authorize(r, op); err != nil {
		return q, err
	}

	for name, ptr := range op.pathParams {
		v, ok := params[name]
		if !ok || s.cfg.noValidation {
			continue
		}
		raw, _ := json.Marshal(v)
		if err := s.spec.validate(ptr, raw); err != nil {
			var se *schemaError
			if errors.As(err, &se) {
				for i := range se.fields {
					se.fields[i].Path = append([]string{name}, se.fields[i].Path...)
				}
				return q, errInvalidForm(se.fields...)
			}
			return q, &apiError{status: 500, message: err.Error()}
		}
	}

	if f := s.takeFault(op.Route(), params); f != nil {
		if f.delay > 0 && !s.sleep(f.delay) {
			return q, &apiError{status: 503, message: "server closed", expected: true}
		}
		if f.hold != nil && !f.hold.wait(s.done) {
			return q, &apiError{status: 503, message: "server closed", expected: true}
		}
		if f.refusal != nil {
			s.writeError(w, q, rec, f.refusal)
			return nil, nil
		}
		if f.lost {
			q.lost = f
		} else if f.status != 0 {
			if f.status >= 500 {
				s.failedFirstResponse(q)
			}
			s.writeFault(w, q, rec, f)
			return nil, nil
		}
	}
	if !exemptFromGlobal(op) {
		if retry, limited := s.takeGlobal(clientKey(r)); limited {
			s.writeGlobalLimited(w, rec, retry)
			return nil, nil
		}
	}
	if retry, limited := s.takeToken(q); limited {
		s.writeRateLimited(w, q, rec, retry, false)
		return nil, nil
	}

	if err := s.readBody(r, q, rec); err != nil {
		return q, err
	}
	return q, nil
}

// authorize checks the Authorization header against the bot token.
func (s *Server) authorize(r *http.Request, op *operation) *apiError {
	if op.Route() == "GET /gateway" {
		return nil // Discord serves it without authentication
	}
	for _, p := range noAuthPrefixes {
		if strings.HasPrefix(op.Template, p) {
			return nil
		}
	}
	auth := r.Header.Get("Authorization")
	switch {
	case s.tokenRevoked.Load() && strings.TrimPrefix(auth, "Bot ") == s.cfg.token:
		return &apiError{status: 401, message: "401: Unauthorized", expected: true}
	case auth == "Bot "+s.cfg.token:
	case auth == s.cfg.token:
		return &apiError{status: 401, message: "401: Unauthorized", detail: `a bot token must be sent as "Bot <token>"`}
	default:
		return &apiError{status: 401, message: "401: Unauthorized", detail: "wrong or missing bot token"}
	}
	if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "DiscordBot") {
		s.violation("%s %s: User-Agent %q; Discord asks bots for \"DiscordBot ($url, $version)\" and may block others", r.Method, r.URL.Path, ua)
	}
	return nil
}

// readBody reads and validates the JSON body, or the payload_json and files
// of a multipart body, against the operation's request schema.
func (s *Server) readBody(r *http.Request, q *request, rec *Request) *apiError {
	limit := 11*s.cfg.uploadLimit + 1<<20 // ten files and the JSON around them
	raw, tooBig, err := readAll(r.Body, r.ContentLength, limit)
	if err != nil {
		// The client went away mid-body (a killed process, a timed-out
		// request): Discord never sees a request, so there is nothing to
		// refuse and nothing the bot did wrong.
		return &apiError{status: 400, message: err.Error(), expected: true}
	}
	if tooBig {
		return errTooLarge()
	}
	if len(raw) == 0 {
		if q.op.bodyRequired {
			return &apiError{status: 400, code: 50109, message: "The request body contains invalid JSON."}
		}
		return nil
	}
	ct := r.Header.Get("Content-Type")
	mediaType, mtParams, err := mime.ParseMediaType(ct)
	if err != nil {
		return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: fmt.Sprintf("Content-Type %q: %v", ct, err)}
	}
	if len(q.op.contentTypes) == 0 {
		return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: q.op.Route() + " takes no body"}
	}
	if !q.op.accepts(mediaType) {
		return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: fmt.Sprintf("%s does not accept %s, only %s", q.op.Route(), mediaType, strings.Join(q.op.contentTypes, ", "))}
	}
	switch mediaType {
	case "application/json":
		q.body = raw
	case "multipart/form-data":
		if err := s.readMultipart(raw, mtParams["boundary"], q); err != nil {
			return err
		}
	default:
		return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: "the stand-in reads only JSON and multipart bodies, got " + mediaType}
	}
	rec.Body = q.body
	for _, u := range q.uploads {
		rec.Files = append(rec.Files, File{Name: u.filename, ContentType: u.contentType, Data: u.data})
	}
	if q.body == nil || s.cfg.noValidation {
		return nil
	}
	pointer := q.op.bodyPointer("application/json")
	if !q.op.accepts("application/json") {
		pointer = q.op.bodyPointer(mediaType)
	}
	body := q.body
	if fix := leniencies[q.op.Route()]; fix != nil {
		body = fix(body)
	}
	if err := s.spec.validate(pointer, body); err != nil {
		var se *schemaError
		if errors.As(err, &se) {
			e := errInvalidForm(se.fields...)
			e.detail = "the body fails Discord's schema " + se.pointer
			return e
		}
		if errors.Is(err, errInvalidJSON) {
			return &apiError{status: 400, code: 50109, message: "The request body contains invalid JSON."}
		}
		return &apiError{status: 500, message: err.Error()}
	}
	return nil
}

// filesField matches the name of an upload part, "files[3]".
var filesField = regexp.MustCompile(`^files\[(\d+)\]$`)

// readMultipart splits a multipart body into payload_json and files.
func (s *Server) readMultipart(raw []byte, boundary string, q *request) *apiError {
	if boundary == "" {
		return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: "multipart without boundary"}
	}
	mr := multipart.NewReader(bytes.NewReader(raw), boundary)
	fields := map[string]any{}
	// The parts' contents are shorter than the body together, so they are
	// read one after another into one buffer of its length: one allocation
	// a request rather than a growing one a part (the stand-in's largest
	// cost under strategoload).
	contents := make([]byte, 0, len(raw))
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: "multipart: " + err.Error()}
		}
		start := len(contents)
		contents, err = appendAll(contents, part)
		if err != nil {
			return &apiError{status: 400, code: 50035, message: "Invalid Form Body", detail: "multipart: " + err.Error()}
		}
		data := contents[start:len(contents):len(contents)]
		name := part.FormName()
		switch {
		case name == "payload_json":
			q.body = data
		case part.FileName() != "":
			u := &upload{index: -1, field: name, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), data: data}
			if m := filesField.FindStringSubmatch(name); m != nil {
				u.index, _ = strconv.Atoi(m[1])
			}
			if int64(len(data)) > s.cfg.uploadLimit {
				e := errTooLarge()
				e.detail = fmt.Sprintf("%s is %d bytes, over the upload limit of %d", u.filename, len(data), s.cfg.uploadLimit)
				return e
			}
			q.uploads = append(q.uploads, u)
		default:
			fields[name] = string(data)
		}
	}
	if q.body == nil && len(fields) > 0 {
		// Discord also reads plain form fields when payload_json is absent.
		q.body, _ = json.Marshal(fields)
	}
	if q.body == nil {
		q.body = []byte("{}")
	}
	if len(q.uploads) > 10 {
		return errInvalidForm(formError("attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
	}
	return nil
}

// leniencies are the places where Discord accepts more than its own
// document describes; each rewrites a body copy before validation. They are
// listed in the package documentation.
var leniencies = map[string]func([]byte) []byte{
	"POST /applications/{application_id}/commands":                                 permissionsAsInteger,
	"PUT /applications/{application_id}/commands":                                  permissionsAsInteger,
	"PATCH /applications/{application_id}/commands/{command_id}":                   permissionsAsInteger,
	"POST /applications/{application_id}/guilds/{guild_id}/commands":               permissionsAsInteger,
	"PUT /applications/{application_id}/guilds/{guild_id}/commands":                permissionsAsInteger,
	"PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}": permissionsAsInteger,
}

// permissionsAsInteger turns a numeric-string default_member_permissions
// into a number: Discord documents the field as a string and discordgo sends
// one, while the document types it as an integer.
func permissionsAsInteger(body []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return body
	}
	fix := func(x any) {
		obj, ok := x.(map[string]any)
		if !ok {
			return
		}
		if str, ok := obj["default_member_permissions"].(string); ok {
			if _, err := strconv.ParseUint(str, 10, 64); err == nil {
				obj["default_member_permissions"] = json.Number(str)
			}
		}
	}
	if list, ok := v.([]any); ok {
		for _, x := range list {
			fix(x)
		}
	} else {
		fix(v)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// writeOK sends a successful answer.
func (s *Server) writeOK(w http.ResponseWriter, q *request, rec *Request, status int, body any) {
	if body == nil {
		status = http.StatusNoContent
	}
	rec.Status = status
	s.setRateHeaders(w, q)
	if body == nil {
		w.WriteHeader(status)
		s.record(*rec)
		return
	}
	raw, err := json.Marshal(body)
	if err != nil {
		s.violation("stand-in bug: encode answer to %s: %v", rec.Route, err)
		raw = []byte("{}")
	}
	s.checkResponse(q, status, raw)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(raw)
	s.record(*rec)
}

// writeError sends a refusal in Discord's error shape.
func (s *Server) writeError(w http.ResponseWriter, q *request, rec *Request, e *apiError) {
	rec.Status, rec.Code = e.status, e.code
	body := map[string]any{"message": e.message, "code": e.code}
	if len(e.errors) > 0 {
		body["errors"] = errorsObject(e.errors)
	}
	raw, _ := json.Marshal(body)
	if q != nil {
		s.setRateHeaders(w, q)
		s.checkResponse(q, e.status, raw)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	_, _ = w.Write(raw)
	s.record(*rec)
}

// record appends a request to the log.
func (s *Server) record(rec Request) {
	s.mu.Lock()
	if !s.cfg.noRequestLog {
		s.requests = append(s.requests, rec)
	}
	s.countInvalid(rec)
	s.notify()
	s.mu.Unlock()
	if s.cfg.requestHook != nil {
		s.cfg.requestHook(rec)
	}
	s.log.Debug("request", "method", rec.Method, "path", rec.Path, "status", rec.Status, "code", rec.Code)
}

// checkResponse validates the stand-in's own answer against the response
// schema of the document, when the package's tests ask for it.
func (s *Server) checkResponse(q *request, status int, raw []byte) {
	if !s.cfg.checkResponses || q == nil || q.op == nil {
		return
	}
	key := strconv.Itoa(status)
	ptr, ok := q.op.responses[key]
	if !ok {
		ptr, ok = q.op.responses[key[:1]+"XX"]
	}
	if !ok {
		s.violation("stand-in bug: %s answered %d, a status its description does not list", q.op.Route(), status)
		return
	}
	if ptr == "" {
		return
	}
	if status >= 400 {
		// Discord's field errors carry string codes ("BASE_TYPE_MAX_LENGTH"),
		// as its documentation shows, where the description says integer.
		var body map[string]any
		if json.Unmarshal(raw, &body) == nil {
			delete(body, "errors")
			raw, _ = json.Marshal(body)
		}
	}
	if err := s.spec.validate(ptr, raw); err != nil {
		s.violation("stand-in bug: answer %d to %s %v\n%s", status, q.op.Route(), err, raw)
	}
}

// writeJSON writes a JSON answer without the rate-limit machinery.
func writeJSON(w http.ResponseWriter, status int, body any) {
	raw, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}
