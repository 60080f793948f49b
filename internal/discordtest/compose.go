package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // attachments are decoded for their size, as Discord does
	_ "image/jpeg" // idem
	_ "image/png"  // idem
	"net/http"
	"strconv"
	"unicode/utf8"
)

// Limits Discord enforces beyond its API description, or more strictly
// than it states them.
const (
	maxContent    = 2000 // characters of content; the description allows 4000 (a Nitro user's limit)
	maxActionRows = 5    // top-level components of a message without IS_COMPONENTS_V2
	maxModalRows  = 5
)

// messageFields are the parts of a message body the stand-in reads. They
// stay raw so that an absent field, null and a value can be told apart.
type messageFields struct {
	Content          json.RawMessage `json:"content"`
	Embeds           json.RawMessage `json:"embeds"`
	Components       json.RawMessage `json:"components"`
	Flags            json.RawMessage `json:"flags"`
	Attachments      json.RawMessage `json:"attachments"`
	StickerIDs       json.RawMessage `json:"sticker_ids"`
	Poll             json.RawMessage `json:"poll"`
	MessageReference json.RawMessage `json:"message_reference"`
}

// attachmentRef is an entry of a body's "attachments" list: an upload by
// its index ("0" for files[0]) or an existing attachment by its id.
type attachmentRef struct {
	ID          string  `json:"id"`
	Filename    *string `json:"filename"`
	Description *string `json:"description"`
}

// present reports whether a raw field was sent with a non-null value.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// sent reports whether a raw field was sent at all, null included.
func sent(raw json.RawMessage) bool { return len(raw) > 0 }

// decodeAny decodes JSON keeping numbers exact.
func decodeAny(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// parseFields reads the message fields of a body ("data" of a callback is
// passed directly).
func parseFields(body []byte) (messageFields, *apiError) {
	var f messageFields
	if len(body) == 0 || bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
		return f, nil
	}
	if err := json.Unmarshal(body, &f); err != nil {
		return f, &apiError{status: 400, code: 50109, message: "The request body contains invalid JSON.", detail: err.Error()}
	}
	return f, nil
}

// compose applies message fields and uploads to m: a new message when
// editing is false, an edit otherwise. version is the API version of the
// request, which changes how an edit treats its files.
func (s *Server) compose(m *message, f messageFields, uploads []*upload, editing bool, version int) *apiError {
	if sent(f.Content) {
		m.content = ""
		if present(f.Content) {
			if err := json.Unmarshal(f.Content, &m.content); err != nil {
				return errInvalidForm(formError("content", "BASE_TYPE_BAD_TYPE", "Could not interpret the value as string."))
			}
		}
	}
	if sent(f.Embeds) {
		m.embeds = nil
		if present(f.Embeds) {
			if err := decodeAny(f.Embeds, &m.embeds); err != nil {
				return errInvalidForm(formError("embeds", "BASE_TYPE_BAD_TYPE", err.Error()))
			}
			for _, e := range m.embeds {
				if obj, ok := e.(map[string]any); ok && obj["type"] == nil {
					obj["type"] = "rich"
				}
			}
		}
	}
	if sent(f.Components) {
		m.components = nil
		if present(f.Components) {
			if err := decodeAny(f.Components, &m.components); err != nil {
				return errInvalidForm(formError("components", "BASE_TYPE_BAD_TYPE", err.Error()))
			}
		}
	}
	if present(f.Flags) && !editing {
		var flags int
		if err := json.Unmarshal(f.Flags, &flags); err == nil {
			m.flags = flags
		}
	}
	if present(f.MessageReference) && !editing {
		m.reference = append(json.RawMessage(nil), f.MessageReference...)
		m.typ = 19 // REPLY
	}
	if err := s.composeAttachments(m, f, uploads, editing, version); err != nil {
		return err
	}
	if err := checkMessage(m, f); err != nil {
		return err
	}
	return nil
}

// composeAttachments applies the "attachments" list and the uploads.
//
// API v9: uploads are always appended; the list says which existing
// attachments to keep and may name uploads by index to set their metadata.
// API v10: when the list is sent it must name every attachment the message
// keeps, existing ones and uploads alike; an upload it does not name is
// dropped.
func (s *Server) composeAttachments(m *message, f messageFields, uploads []*upload, editing bool, version int) *apiError {
	var refs []attachmentRef
	listed := present(f.Attachments)
	if listed {
		if err := json.Unmarshal(f.Attachments, &refs); err != nil {
			return errInvalidForm(formError("attachments", "BASE_TYPE_BAD_TYPE", err.Error()))
		}
	}
	byIndex := map[string]*upload{}
	for i, u := range uploads {
		idx := u.index
		if idx < 0 {
			idx = i // legacy field names ("file", "file1") count in order
		}
		byIndex[strconv.Itoa(idx)] = u
	}
	existing := map[string]*attachment{}
	for _, a := range m.attachments {
		existing[a.id] = a
	}
	refByID := map[string]attachmentRef{}
	for i, r := range refs {
		if byIndex[r.ID] == nil && existing[r.ID] == nil {
			return errInvalidForm(formError(fmt.Sprintf("attachments/%d/id", i), "ATTACHMENT_NOT_FOUND",
				"Unknown attachment: no files["+r.ID+"] in this request and no attachment "+r.ID+" on the message"))
		}
		refByID[r.ID] = r
	}

	var out []*attachment
	if editing {
		for _, a := range m.attachments {
			if _, keep := refByID[a.id]; keep || !listed {
				out = append(out, a)
			}
		}
	}
	for i, u := range uploads {
		idx := u.index
		if idx < 0 {
			idx = i
		}
		ref, named := refByID[strconv.Itoa(idx)]
		if editing && listed && version >= 10 && !named {
			continue // v10: an upload the list does not name is not kept
		}
		a := &attachment{id: s.nextID(), filename: u.filename, contentType: u.contentType, data: u.data}
		if named && ref.Filename != nil && *ref.Filename != "" {
			a.filename = *ref.Filename
		}
		if named && ref.Description != nil {
			a.description = *ref.Description
		}
		if a.contentType == "" || a.contentType == "application/octet-stream" {
			a.contentType = http.DetectContentType(a.data)
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(a.data)); err == nil {
			a.width, a.height = cfg.Width, cfg.Height
		}
		a.size = len(a.data)
		if s.cfg.noFileContents {
			a.data = nil
		}
		out = append(out, a)
	}
	if len(out) > 10 {
		return errInvalidForm(formError("attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
	}
	m.attachments = out
	return nil
}

// checkMessage enforces what Discord enforces beyond the schema.
func checkMessage(m *message, f messageFields) *apiError {
	var errs []fieldError
	if n := utf8.RuneCountInString(m.content); n > maxContent {
		errs = append(errs, formError("content", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxContent)))
	}
	errs = append(errs, checkComponents(m.components, m.flags&flagComponentsV2 != 0, m.content != "" || len(m.embeds) > 0)...)
	if len(errs) > 0 {
		return errInvalidForm(errs...)
	}
	empty := m.content == "" && len(m.embeds) == 0 && len(m.components) == 0 && len(m.attachments) == 0 &&
		!present(f.StickerIDs) && !present(f.Poll)
	if empty && m.flags&flagLoading == 0 {
		return errEmptyMessage()
	}
	return nil
}

// componentType reads the "type" of a decoded component.
func componentType(c any) int {
	obj, _ := c.(map[string]any)
	n, _ := obj["type"].(json.Number)
	v, _ := strconv.Atoi(string(n))
	return v
}

// str reads a string field of a decoded object.
func str(obj map[string]any, key string) string {
	v, _ := obj[key].(string)
	return v
}

// Component types.
const (
	ctActionRow     = 1
	ctButton        = 2
	ctStringSelect  = 3
	ctTextInput     = 4
	ctUserSelect    = 5
	ctRoleSelect    = 6
	ctMentionSelect = 7
	ctChannelSelect = 8
	ctLabel         = 18
)

func isSelect(t int) bool {
	return t == ctStringSelect || (t >= ctUserSelect && t <= ctChannelSelect)
}

// checkComponents enforces the layout rules of message components that the
// document leaves out: five action rows without IS_COMPONENTS_V2, a select
// menu alone in its row, custom ids where needed and unique.
func checkComponents(tree []any, v2, hasText bool) []fieldError {
	var errs []fieldError
	if v2 {
		if hasText {
			errs = append(errs, formError("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
				"The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2"))
		}
	} else {
		if len(tree) > maxActionRows {
			errs = append(errs, formError("components", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxActionRows)))
		}
		for i, row := range tree {
			if t := componentType(row); t != ctActionRow {
				errs = append(errs, formError(fmt.Sprintf("components/%d/type", i), "UNION_TYPE_CHOICES",
					fmt.Sprintf("Value of field \"type\" must be one of (1,); component type %d at the top level needs the IS_COMPONENTS_V2 flag.", t)))
			}
		}
	}
	seen := map[string]bool{}
	var walk func(c any, path string)
	walk = func(c any, path string) {
		obj, ok := c.(map[string]any)
		if !ok {
			return
		}
		t := componentType(c)
		if t == ctActionRow {
			kids, _ := obj["components"].([]any)
			for j, k := range kids {
				if isSelect(componentType(k)) && len(kids) > 1 {
					errs = append(errs, formError(fmt.Sprintf("%s/components/%d", path, j), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
						"The specified component exceeds the maximum width"))
				}
			}
		}
		if t == ctButton {
			style, _ := obj["style"].(json.Number)
			switch style {
			case "5": // link
				if str(obj, "url") == "" {
					errs = append(errs, formError(path+"/url", "BASE_TYPE_REQUIRED", "This field is required"))
				}
				if str(obj, "custom_id") != "" {
					errs = append(errs, formError(path+"/custom_id", "BUTTON_COMPONENT_LINK_REQUIRES_URL", "A link button cannot have a custom id"))
				}
			case "6": // premium
			default:
				if str(obj, "custom_id") == "" {
					errs = append(errs, formError(path+"/custom_id", "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required"))
				}
			}
		}
		if id := str(obj, "custom_id"); id != "" {
			if seen[id] {
				errs = append(errs, formError(path+"/custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"))
			}
			seen[id] = true
		}
		if kids, ok := obj["components"].([]any); ok {
			for j, k := range kids {
				walk(k, fmt.Sprintf("%s/components/%d", path, j))
			}
		}
		if kid, ok := obj["component"]; ok {
			walk(kid, path+"/component")
		}
		if acc, ok := obj["accessory"]; ok {
			walk(acc, path+"/accessory")
		}
	}
	for i, c := range tree {
		walk(c, fmt.Sprintf("components/%d", i))
	}
	return errs
}

// checkModal enforces the layout of a modal: at most five rows, each an
// action row with one text input or a label around one component, custom
// ids unique.
func checkModal(data map[string]any) []fieldError {
	var errs []fieldError
	rows, _ := data["components"].([]any)
	if len(rows) > maxModalRows {
		errs = append(errs, formError("data/components", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxModalRows)))
	}
	seen := map[string]bool{}
	for i, row := range rows {
		obj, _ := row.(map[string]any)
		var inputs []any
		switch componentType(row) {
		case ctActionRow:
			inputs, _ = obj["components"].([]any)
			if len(inputs) != 1 {
				errs = append(errs, formError(fmt.Sprintf("data/components/%d/components", i), "BASE_TYPE_MAX_LENGTH",
					"Must be 1 or fewer in length."))
			}
		case ctLabel:
			inputs = []any{obj["component"]}
		default:
			continue // text displays
		}
		for _, in := range inputs {
			io, _ := in.(map[string]any)
			id := str(io, "custom_id")
			if seen[id] {
				errs = append(errs, formError(fmt.Sprintf("data/components/%d", i), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"))
			}
			seen[id] = true
			if componentType(row) == ctActionRow && str(io, "label") == "" {
				errs = append(errs, formError(fmt.Sprintf("data/components/%d/components/0/label", i), "BASE_TYPE_REQUIRED", "This field is required"))
			}
		}
	}
	return errs
}
