package web

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/internal/lang"
	"github.com/strategobot/strategobot/storage"
)

// Authentication: the capability a request carries, how it is checked,
// and what a refused one is answered.

// Authenticator turns a request into the capability it carries. The link
// (CapabilityAuth) is one; a Discord Activity could sign in with OAuth2 instead.
// It refuses a request with one of Verify's errors or ErrNoLink (or
// storage.ErrNotFound: the match is not there); any other error says that
// the capability could not be checked, and is answered as a failure of the
// bot's, which the page tries again.
type Authenticator interface {
	Authenticate(r *http.Request) (Capability, error)
}

// Claimer is an Authenticator that can also read the capability a request
// claims without the costly checks (the signature only, no database), so
// that the server rate-limits a request before it looks anything up.
type Claimer interface {
	Claim(r *http.Request) (Capability, error)
}

// MatchAuthenticator is an Authenticator that reads the capability's match
// to check it (CapabilityAuth: the player's link generation) and hands it
// on, nil when it read none. A player's action is then made on that match,
// read once (Actor).
type MatchAuthenticator interface {
	AuthenticateMatch(r *http.Request) (Capability, *storage.Match, error)
}

// CapabilityHeader carries the link's token on every API request. The page
// reads the token from its URL's fragment, which browsers never send to a
// server, so the secret reaches no access log.
const CapabilityHeader = "X-Strategobot-Capability"

// CapabilityAuth authenticates a request by its capability token.
type CapabilityAuth struct {
	Signer  *Signer
	Matches Matches
	Links   Links
	Now     func() time.Time
}

// Claim checks the header's token's signature only.
func (a *CapabilityAuth) Claim(r *http.Request) (Capability, error) {
	tok := r.Header.Get(CapabilityHeader)
	if tok == "" {
		return Capability{}, ErrNoLink
	}
	return a.Signer.Parse(tok)
}

// Authenticate checks the header's token: signature, expiry, and the
// player's current link generation.
func (a *CapabilityAuth) Authenticate(r *http.Request) (Capability, error) {
	c, _, err := a.AuthenticateMatch(r)
	return c, err
}

// AuthenticateMatch is Authenticate, and returns the match it read to find
// the player's link generation (nil for the public, whose link has none).
func (a *CapabilityAuth) AuthenticateMatch(r *http.Request) (Capability, *storage.Match, error) {
	tok := r.Header.Get(CapabilityHeader)
	if tok == "" {
		return Capability{}, nil, ErrNoLink
	}
	claimed, err := a.Signer.Parse(tok)
	if err != nil {
		return Capability{}, nil, err
	}
	nowf := a.Now
	if nowf == nil {
		nowf = time.Now
	}
	var read *storage.Match
	c, err := a.Signer.Verify(tok, nowf(), func(side game.Side) (uint32, error) {
		m, err := a.Matches.Match(r.Context(), claimed.Match)
		if err != nil {
			return 0, err
		}
		read = m
		return a.Links.LinkGeneration(r.Context(), m.Players[side].UserID)
	})
	if err != nil {
		return Capability{}, nil, err
	}
	return c, read, nil
}

// Link returns the page's address for capability c under publicURL (the
// address the admin's HTTPS reverse proxy serves): the token rides in the
// fragment, which no server or proxy receives.
func (s *Signer) Link(publicURL string, c Capability) string {
	return strings.TrimRight(publicURL, "/") + "/board#" + s.Sign(c)
}

// ErrNoLink is a request that carries no capability at all: a page opened
// without a link (or whose tab lost it).
var ErrNoLink = errors.New("web: no link")

// refused reports whether err, an Authenticator's, refuses the capability
// (none, malformed, forged, expired, revoked, or its match is not there),
// rather than saying that it could not be checked (the database did not
// answer): a link refused is answered 403 or 410, which the page takes for
// good; one not checked is the bot's trouble, answered 500, which the page
// tries again.
func refused(err error) bool {
	for _, r := range []error{ErrNoLink, ErrMalformed, ErrForged, ErrExpired, ErrRevoked, storage.ErrNotFound} {
		if errors.Is(err, r) {
			return true
		}
	}
	return false
}

// refusedStatus is the status of a request whose capability was refused.
func refusedStatus(err error) int {
	if errors.Is(err, ErrExpired) || errors.Is(err, ErrRevoked) {
		return http.StatusGone
	}
	return http.StatusForbidden
}

// refusedText is the page's text for a refused capability.
func refusedText(p lang.Printer, err error) string {
	if errors.Is(err, ErrNoLink) {
		return p.Sprintf(txtNeedsLink)
	}
	return p.Sprintf(txtLinkInvalid)
}

// authenticate returns the capability r carries, and the match read to
// check it when the Authenticator is a MatchAuthenticator that read one.
func (s *Server) authenticate(r *http.Request) (Capability, *storage.Match, error) {
	if ma, ok := s.opts.Auth.(MatchAuthenticator); ok {
		return ma.AuthenticateMatch(r)
	}
	c, err := s.opts.Auth.Authenticate(r)
	return c, nil, err
}

// authenticatedKey keys, in a request's context, the match its
// authentication read.
type authenticatedKey struct{}

// requested returns the match a request is about: the one read to
// authenticate it, else the match as stored now. (A page's events load
// their own: they must subscribe before it loads.)
func (s *Server) requested(r *http.Request, c Capability) (*storage.Match, error) {
	if m, ok := r.Context().Value(authenticatedKey{}).(*storage.Match); ok && m.ID == c.Match {
		return m, nil
	}
	return s.opts.Matches.Match(r.Context(), c.Match)
}

// claim returns the capability r claims, checked as far as it can be without
// the database: by Claimer, or, for another Authenticator, none (the limits
// then count per client alone).
func (s *Server) claim(r *http.Request) (Capability, error) {
	if cl, ok := s.opts.Auth.(Claimer); ok {
		return cl.Claim(r)
	}
	return Capability{}, nil
}
