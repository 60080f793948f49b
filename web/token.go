package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

// Capability is what one link lets its holder do: look at one match as one
// viewer (one player's side, or the public) until it expires. A player's
// capability also carries the player's link generation at signing; bumping
// the generation (Revoke) kills every link signed before.
type Capability struct {
	Match   storage.MatchID
	Viewer  game.Viewer
	Gen     uint32
	Expires time.Time
}

// Side returns the player's side, and false for the public view.
func (c Capability) Side() (game.Side, bool) { return c.Viewer.IsPlayer() }

// Errors of Verify. Callers show none of them in detail to the visitor.
var (
	ErrMalformed = errors.New("web: malformed link")
	ErrForged    = errors.New("web: link signature does not match")
	ErrExpired   = errors.New("web: link expired")
	ErrRevoked   = errors.New("web: link revoked")
)

const (
	tokenVersion = 1
	payloadLen   = 1 + 8 + 1 + 4 + 8
	macLen       = 32
	// MinKeyLen is the shortest signing key accepted.
	MinKeyLen = 32
)

// Signer signs and checks capability tokens with an HMAC-SHA256 key the bot
// keeps in its database. It never prints the key.
type Signer struct {
	key []byte
}

// NewSigner returns a Signer for key, which must hold at least MinKeyLen bytes.
func NewSigner(key []byte) (*Signer, error) {
	if len(key) < MinKeyLen {
		return nil, errors.New("web: signing key too short")
	}
	return &Signer{key: append([]byte(nil), key...)}, nil
}

// String hides the key.
func (s *Signer) String() string { return "web.Signer(hidden)" }

// GoString hides the key.
func (s *Signer) GoString() string { return "web.Signer(hidden)" }

var b64 = base64.RawURLEncoding

// Sign returns the token for c: URL-safe, no padding.
func (s *Signer) Sign(c Capability) string {
	p := make([]byte, payloadLen, payloadLen+macLen)
	p[0] = tokenVersion
	binary.BigEndian.PutUint64(p[1:], uint64(c.Match))
	p[9] = byte(c.Viewer)
	binary.BigEndian.PutUint32(p[10:], c.Gen)
	binary.BigEndian.PutUint64(p[14:], uint64(c.Expires.Unix()))
	return b64.EncodeToString(s.mac(p))
}

func (s *Signer) mac(p []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("strategobot web capability\x00"))
	m.Write(p)
	return m.Sum(p)
}

// Parse checks a token's form and signature and returns its capability,
// without looking at the clock or the generation (Verify does).
func (s *Signer) Parse(token string) (Capability, error) {
	if len(token) != b64.EncodedLen(payloadLen+macLen) || strings.ContainsAny(token, "=+/") {
		return Capability{}, ErrMalformed
	}
	raw, err := b64.DecodeString(token)
	if err != nil || len(raw) != payloadLen+macLen {
		return Capability{}, ErrMalformed
	}
	want := s.mac(append(make([]byte, 0, payloadLen+macLen), raw[:payloadLen]...))
	if !hmac.Equal(want[payloadLen:], raw[payloadLen:]) {
		return Capability{}, ErrForged
	}
	if raw[0] != tokenVersion || raw[9] > byte(game.PublicViewer) {
		return Capability{}, ErrMalformed
	}
	return Capability{
		Match:   storage.MatchID(binary.BigEndian.Uint64(raw[1:])),
		Viewer:  game.Viewer(raw[9]),
		Gen:     binary.BigEndian.Uint32(raw[10:]),
		Expires: time.Unix(int64(binary.BigEndian.Uint64(raw[14:])), 0),
	}, nil
}

// Verify parses token and checks it is still valid at now. currentGen is the
// player's link generation now (ignored for a public link, which only expires).
func (s *Signer) Verify(token string, now time.Time, currentGen func(side game.Side) (uint32, error)) (Capability, error) {
	c, err := s.Parse(token)
	if err != nil {
		return Capability{}, err
	}
	if !now.Before(c.Expires) {
		return Capability{}, ErrExpired
	}
	if side, ok := c.Side(); ok {
		g, err := currentGen(side)
		if err != nil {
			return Capability{}, err
		}
		if g != c.Gen {
			return Capability{}, ErrRevoked
		}
	}
	return c, nil
}
