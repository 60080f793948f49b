package discordtest

import (
	"bytes"
	_ "embed" // the OpenAPI document is embedded so that tests of any package can use it
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// openAPIDocument is Discord's official OpenAPI 3.1 description of API v10
// (discord/discord-api-spec, MIT licence in testdata/LICENSE).
//
//go:embed testdata/openapi.json
var openAPIDocument []byte

// specURL names the document inside the schema compiler; it is never fetched.
const specURL = "mem:///discord/openapi.json"

// sharedSpec is the one cache the package keeps across servers: parsing the
// document and compiling its schemas costs tens of milliseconds, so every
// server of a test binary shares one *spec. Everything in it is either
// immutable after load or guarded by spec.mu.
var sharedSpec struct {
	once sync.Once
	spec *spec
	err  error
}

// loadSpec returns the shared, parsed OpenAPI document.
func loadSpec() (*spec, error) {
	sharedSpec.once.Do(func() {
		sharedSpec.spec, sharedSpec.err = parseSpec(openAPIDocument)
	})
	return sharedSpec.spec, sharedSpec.err
}

// spec is the parsed OpenAPI document: the route tree for matching request
// paths and a lazily filled cache of compiled JSON schemas.
type spec struct {
	root *routeNode
	ops  map[string]*operation // by "METHOD /template"

	mu       sync.Mutex // guards compiler and schemas
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema // by JSON pointer
}

// operation is one method on one path template of the document.
type operation struct {
	Method   string // upper case
	Template string // "/channels/{channel_id}/messages"
	ID       string // operationId, e.g. "create_message"

	// contentTypes lists the request media types the document accepts.
	contentTypes []string
	bodyRequired bool
	// pathParams maps a path parameter's name to the pointer of its schema.
	pathParams map[string]string
	// responses maps a status ("200", "204", "4XX") to the pointer of its
	// application/json schema ("" when the response has no body).
	responses map[string]string
}

// Route returns the operation's key, "METHOD /template".
func (op *operation) Route() string { return op.Method + " " + op.Template }

// accepts reports whether the document lists the media type for the body.
func (op *operation) accepts(mediaType string) bool {
	return slices.Contains(op.contentTypes, mediaType)
}

// bodyPointer is the JSON pointer of the request body schema for a media type.
func (op *operation) bodyPointer(mediaType string) string {
	return "#/paths/" + escapePointer(op.Template) + "/" + strings.ToLower(op.Method) +
		"/requestBody/content/" + escapePointer(mediaType) + "/schema"
}

// routeNode is one path segment in the route tree. Literal children win over
// the parameter child, so "/messages/@original" beats "/messages/{message_id}".
type routeNode struct {
	literal map[string]*routeNode
	param   *routeNode
	name    string                // parameter name when this node is a parameter
	ops     map[string]*operation // by method, on the node that ends a template
}

func newRouteNode() *routeNode {
	return &routeNode{literal: map[string]*routeNode{}, ops: map[string]*operation{}}
}

// rawOpenAPI is the part of the document the router needs.
type rawOpenAPI struct {
	Paths map[string]map[string]json.RawMessage `json:"paths"`
}

type rawParameter struct {
	Name     string `json:"name"`
	In       string `json:"in"`
	Required bool   `json:"required"`
}

type rawOperation struct {
	OperationID string         `json:"operationId"`
	Parameters  []rawParameter `json:"parameters"`
	RequestBody *struct {
		Required bool                       `json:"required"`
		Content  map[string]json.RawMessage `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Ref     string                     `json:"$ref"`
		Content map[string]json.RawMessage `json:"content"`
	} `json:"responses"`
}

var httpMethods = []string{"get", "put", "post", "delete", "patch", "head", "options"}

// parseSpec builds the route tree and the schema compiler from the document.
func parseSpec(raw []byte) (*spec, error) {
	var doc rawOpenAPI
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("discordtest: parse openapi.json: %w", err)
	}
	sp := &spec{root: newRouteNode(), ops: map[string]*operation{}, schemas: map[string]*jsonschema.Schema{}}
	for template, item := range doc.Paths {
		var shared []rawParameter
		if p, ok := item["parameters"]; ok {
			if err := json.Unmarshal(p, &shared); err != nil {
				return nil, fmt.Errorf("discordtest: parameters of %s: %w", template, err)
			}
		}
		for _, method := range httpMethods {
			rawOp, ok := item[method]
			if !ok {
				continue
			}
			var ro rawOperation
			if err := json.Unmarshal(rawOp, &ro); err != nil {
				return nil, fmt.Errorf("discordtest: %s %s: %w", method, template, err)
			}
			op := &operation{
				Method:     strings.ToUpper(method),
				Template:   template,
				ID:         ro.OperationID,
				pathParams: map[string]string{},
				responses:  map[string]string{},
			}
			base := "#/paths/" + escapePointer(template)
			for i, p := range shared {
				if p.In == "path" {
					op.pathParams[p.Name] = fmt.Sprintf("%s/parameters/%d/schema", base, i)
				}
			}
			for i, p := range ro.Parameters {
				if p.In == "path" {
					op.pathParams[p.Name] = fmt.Sprintf("%s/%s/parameters/%d/schema", base, method, i)
				}
			}
			if ro.RequestBody != nil {
				op.bodyRequired = ro.RequestBody.Required
				for mt := range ro.RequestBody.Content {
					op.contentTypes = append(op.contentTypes, mt)
				}
				sort.Strings(op.contentTypes)
			}
			for status, resp := range ro.Responses {
				if _, ok := resp.Content["application/json"]; ok {
					op.responses[status] = fmt.Sprintf("%s/%s/responses/%s/content/application~1json/schema", base, method, status)
				} else if resp.Ref != "" {
					op.responses[status] = resp.Ref + "/content/application~1json/schema"
				} else {
					op.responses[status] = ""
				}
			}
			sp.ops[op.Route()] = op
			sp.insert(op)
		}
	}

	doc2, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("discordtest: decode openapi.json for the schema compiler: %w", err)
	}
	c := jsonschema.NewCompiler()
	// OpenAPI 3.1 schemas are JSON Schema 2020-12; format stays an annotation,
	// as in the OAS base dialect (Discord's "snowflake" is checked by pattern).
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(specURL, doc2); err != nil {
		return nil, fmt.Errorf("discordtest: add openapi.json to the schema compiler: %w", err)
	}
	sp.compiler = c
	return sp, nil
}

// insert adds an operation to the route tree.
func (sp *spec) insert(op *operation) {
	n := sp.root
	for _, seg := range splitPath(op.Template) {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			if n.param == nil {
				n.param = newRouteNode()
				n.param.name = seg[1 : len(seg)-1]
			}
			n = n.param
			continue
		}
		child, ok := n.literal[seg]
		if !ok {
			child = newRouteNode()
			n.literal[seg] = child
		}
		n = child
	}
	n.ops[op.Method] = op
}

// match finds the operations of a concrete path (without the /api/vN prefix).
// It returns the matched node's operations by method and the path parameters;
// ok is false when no template matches the path at all.
func (sp *spec) match(path string) (ops map[string]*operation, params map[string]string, ok bool) {
	segs := splitPath(path)
	params = map[string]string{}
	var walk func(n *routeNode, i int) *routeNode
	walk = func(n *routeNode, i int) *routeNode {
		if i == len(segs) {
			if len(n.ops) > 0 {
				return n
			}
			return nil
		}
		if child, ok := n.literal[segs[i]]; ok {
			if found := walk(child, i+1); found != nil {
				return found
			}
		}
		if n.param != nil && segs[i] != "" {
			if found := walk(n.param, i+1); found != nil {
				params[n.param.name] = segs[i]
				return found
			}
		}
		return nil
	}
	found := walk(sp.root, 0)
	if found == nil {
		return nil, nil, false
	}
	return found.ops, params, true
}

// operation returns the operation for a route key such as
// "POST /channels/{channel_id}/messages", or nil.
func (sp *spec) operation(route string) *operation {
	return sp.ops[route]
}

// schema compiles (once) and returns the schema at a JSON pointer into the document.
func (sp *spec) schema(pointer string) (*jsonschema.Schema, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if s, ok := sp.schemas[pointer]; ok {
		return s, nil
	}
	// Compiling never mutates schemas compiled earlier, so validating with
	// them concurrently is safe; only the compiler needs the lock.
	s, err := sp.compiler.Compile(specURL + pointer)
	if err != nil {
		return nil, fmt.Errorf("discordtest: compile %s: %w", pointer, err)
	}
	sp.schemas[pointer] = s
	return s, nil
}

// validate checks a JSON document against the schema at pointer. It returns
// nil when the document is valid, a *schemaError when it is not, and another
// error when the JSON itself cannot be decoded.
func (sp *spec) validate(pointer string, body []byte) error {
	sch, err := sp.schema(pointer)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", errInvalidJSON, err)
	}
	return sp.validateValue(pointer, sch, inst)
}

// validateValue checks an already decoded instance (as jsonschema.UnmarshalJSON
// produces it) against a compiled schema.
func (sp *spec) validateValue(pointer string, sch *jsonschema.Schema, inst any) error {
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("discordtest: validate against %s: %w", pointer, err)
	}
	return &schemaError{pointer: pointer, fields: relevantErrors(ve)}
}

// errInvalidJSON marks a body that is not JSON at all (Discord: 50109).
var errInvalidJSON = errors.New("the request body contains invalid JSON")

// schemaError is a failed validation: the schema's own messages, each with
// the place in the request it is about, in the shape Discord reports them.
type schemaError struct {
	pointer string
	fields  []fieldError
}

// fieldError is one problem at one place of a request body.
type fieldError struct {
	Path    []string // instance location, e.g. ["data", "content"]
	Code    string   // Discord's error code, e.g. "BASE_TYPE_MAX_LENGTH"
	Message string   // Discord-style message
	Schema  string   // the validator's own message
}

// String tells where and what, in the validator's words and Discord's.
func (f fieldError) String() string {
	s := fmt.Sprintf("at /%s: %s", strings.Join(f.Path, "/"), f.Schema)
	if f.Message != f.Schema {
		s += " (Discord: " + f.Code + ", " + f.Message + ")"
	}
	return s
}

func (e *schemaError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "fails Discord's schema %s", e.pointer)
	for _, f := range e.fields {
		sb.WriteString("\n\t" + f.String())
	}
	return sb.String()
}

// relevantErrors flattens a validation error into its leaves. Discord's
// document writes its discriminated unions ("x-discord-union": "oneOf") as
// anyOf/oneOf over object schemas told apart by a "type" field, and nullable
// fields as oneOf [null, X]; the errors of branches that cannot be meant
// (wrong "type" constant, or wrong JSON type altogether) are dropped, and of
// the rest only the closest (fewest errors) are kept. So a too-long content
// is reported as that, not as seven unrelated mismatches.
func relevantErrors(ve *jsonschema.ValidationError) []fieldError {
	var walk func(e *jsonschema.ValidationError) []fieldError
	walk = func(e *jsonschema.ValidationError) []fieldError {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			var best []fieldError
			found := false
			for _, branch := range e.Causes {
				if wrongBranch(branch, e.InstanceLocation) {
					continue
				}
				leaves := walk(branch)
				if !found || len(leaves) < len(best) {
					best, found = leaves, true
				}
			}
			if !found {
				return leafErrors(e)
			}
			return best
		}
		if len(e.Causes) == 0 {
			return leafErrors(e)
		}
		var out []fieldError
		for _, c := range e.Causes {
			out = append(out, walk(c)...)
		}
		return out
	}
	return walk(ve)
}

// wrongBranch reports whether a union branch failed because the value is
// plainly of another kind: a JSON type mismatch at the union's own location,
// or a wrong constant in the "type" field that discriminates Discord's unions.
func wrongBranch(branch *jsonschema.ValidationError, at []string) bool {
	found := false
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if found {
			return
		}
		switch e.ErrorKind.(type) {
		case *kind.Type:
			if slices.Equal(e.InstanceLocation, at) {
				found = true
				return
			}
		case *kind.Enum, *kind.Const:
			loc := e.InstanceLocation
			if len(loc) == len(at)+1 && slices.Equal(loc[:len(at)], at) && loc[len(at)] == "type" {
				found = true
				return
			}
		case *kind.AnyOf, *kind.OneOf:
			return // a nested union decides for itself
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(branch)
	return found
}

// leafErrors turns one validation failure into Discord's error shape: one
// entry, or one per missing field for "required".
func leafErrors(e *jsonschema.ValidationError) []fieldError {
	// The library's own words for this one failure, without its location,
	// which fieldError.Path carries.
	schemaMsg := trimAt((&jsonschema.ValidationError{ErrorKind: e.ErrorKind, InstanceLocation: e.InstanceLocation}).Error())
	f := fieldError{Path: slices.Clone(e.InstanceLocation), Schema: schemaMsg, Code: "SCHEMA_INVALID", Message: schemaMsg}
	switch k := e.ErrorKind.(type) {
	case *kind.MaxLength:
		f.Code, f.Message = "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", k.Want)
	case *kind.MinLength:
		f.Code, f.Message = "BASE_TYPE_MIN_LENGTH", fmt.Sprintf("Must be %d or more in length.", k.Want)
	case *kind.MaxItems:
		f.Code, f.Message = "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", k.Want)
	case *kind.MinItems:
		f.Code, f.Message = "BASE_TYPE_MIN_LENGTH", fmt.Sprintf("Must be %d or more in length.", k.Want)
	case *kind.Required:
		// Discord reports each missing field at its own place.
		var out []fieldError
		for _, name := range k.Missing {
			g := f
			g.Path = append(slices.Clone(f.Path), name)
			g.Code, g.Message = "BASE_TYPE_REQUIRED", "This field is required"
			out = append(out, g)
		}
		return out
	case *kind.Enum, *kind.Const:
		f.Code, f.Message = "BASE_TYPE_CHOICES", "Value must be one of the allowed choices ("+schemaMsg+")."
	case *kind.Pattern:
		if k.Want == snowflakePattern {
			f.Code, f.Message = "NUMBER_TYPE_COERCE", fmt.Sprintf("Value %q is not snowflake.", k.Got)
		} else {
			f.Code, f.Message = "STRING_TYPE_REGEX", "String value did not match validation regex."
		}
	case *kind.Type:
		f.Code, f.Message = "BASE_TYPE_BAD_TYPE", "Could not interpret the value as "+strings.Join(k.Want, " or ")+"."
	case *kind.Maximum:
		f.Code, f.Message = "NUMBER_TYPE_MAX", fmt.Sprintf("int value should be less than or equal to %s.", ratString(k.Want))
	case *kind.Minimum:
		f.Code, f.Message = "NUMBER_TYPE_MIN", fmt.Sprintf("int value should be greater than or equal to %s.", ratString(k.Want))
	}
	return []fieldError{f}
}

// snowflakePattern is the pattern of the document's SnowflakeType.
const snowflakePattern = "^(0|[1-9][0-9]*)$"

// trimAt drops the "at '/x': " the library puts before a message.
func trimAt(schemaMsg string) string {
	if i := strings.Index(schemaMsg, "': "); strings.HasPrefix(schemaMsg, "at '") && i >= 0 {
		return schemaMsg[i+3:]
	}
	if i := strings.Index(schemaMsg, ": "); i >= 0 {
		return schemaMsg[i+2:]
	}
	return schemaMsg
}

func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(3)
}

// errorsObject nests field errors the way Discord's 50035 body does:
// {"data": {"content": {"_errors": [{"code": ..., "message": ...}]}}}.
func errorsObject(fields []fieldError) map[string]any {
	root := map[string]any{}
	for _, f := range fields {
		n := root
		for _, p := range f.Path {
			child, ok := n[p].(map[string]any)
			if !ok {
				child = map[string]any{}
				n[p] = child
			}
			n = child
		}
		list, _ := n["_errors"].([]any)
		n["_errors"] = append(list, map[string]any{"code": f.Code, "message": f.Message})
	}
	return root
}

// escapePointer escapes one JSON pointer token (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func splitPath(p string) []string {
	return strings.Split(strings.Trim(p, "/"), "/")
}
