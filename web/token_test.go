package web

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strategobot/strategobot/game"
)

func testSigner(t testing.TB, b byte) *Signer {
	t.Helper()
	s, err := NewSigner([]byte(strings.Repeat(string(rune('a'+b)), MinKeyLen)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTokens(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s, other := testSigner(t, 0), testSigner(t, 1)
	red := Capability{Match: 42, Viewer: game.RedViewer, Gen: 3, Expires: now.Add(time.Hour)}
	blue := Capability{Match: 42, Viewer: game.BlueViewer, Gen: 3, Expires: now.Add(time.Hour)}
	pub := Capability{Match: 42, Viewer: game.PublicViewer, Gen: 0, Expires: now.Add(time.Hour)}
	gens := func(red, blue uint32) func(game.Side) (uint32, error) {
		return func(s game.Side) (uint32, error) { return [2]uint32{red, blue}[s], nil }
	}
	flip := func(tok string, i int) string {
		b := []byte(tok)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	tests := []struct {
		name  string
		token string
		now   time.Time
		gens  func(game.Side) (uint32, error)
		want  Capability
		err   error
	}{
		{"red", s.Sign(red), now, gens(3, 9), red, nil},
		{"blue", s.Sign(blue), now, gens(9, 3), blue, nil},
		{"public ignores generations", s.Sign(pub), now, gens(7, 7), pub, nil},
		{"expired at the second", s.Sign(red), red.Expires, gens(3, 3), Capability{}, ErrExpired},
		{"expired later", s.Sign(pub), now.Add(2 * time.Hour), gens(3, 3), Capability{}, ErrExpired},
		{"revoked", s.Sign(red), now, gens(4, 3), Capability{}, ErrRevoked},
		{"red's revocation leaves blue", s.Sign(blue), now, gens(4, 3), blue, nil},
		{"other key", other.Sign(red), now, gens(3, 3), Capability{}, ErrForged},
		{"flipped payload", flip(s.Sign(red), 12), now, gens(3, 3), Capability{}, ErrForged},
		{"flipped mac", flip(s.Sign(red), 40), now, gens(3, 3), Capability{}, ErrForged},
		{"truncated", s.Sign(red)[:50], now, gens(3, 3), Capability{}, ErrMalformed},
		{"padded", s.Sign(red) + "=", now, gens(3, 3), Capability{}, ErrMalformed},
		{"empty", "", now, gens(3, 3), Capability{}, ErrMalformed},
		{"not base64", strings.Repeat("*", len(s.Sign(red))), now, gens(3, 3), Capability{}, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := s.Verify(tt.token, tt.now, tt.gens)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if c != tt.want && !(c.Expires.Equal(tt.want.Expires) && c.Match == tt.want.Match && c.Viewer == tt.want.Viewer && c.Gen == tt.want.Gen) {
				t.Fatalf("got %+v, want %+v", c, tt.want)
			}
		})
	}
}

// TestTokenSideBinding: changing the viewer byte of a red link, whatever the
// rest, never gives a valid blue or public link.
func TestTokenSideBinding(t *testing.T) {
	s := testSigner(t, 0)
	now := time.Unix(1_800_000_000, 0)
	red := s.Sign(Capability{Match: 7, Viewer: game.RedViewer, Expires: now.Add(time.Hour)})
	raw, _ := b64.DecodeString(red)
	for v := 0; v < 256; v++ {
		raw[9] = byte(v)
		c, err := s.Verify(b64.EncodeToString(raw), now, func(game.Side) (uint32, error) { return 0, nil })
		if v == int(game.RedViewer) {
			if err != nil || c.Viewer != game.RedViewer {
				t.Fatalf("the genuine link: %v", err)
			}
			continue
		}
		if err == nil {
			t.Fatalf("viewer byte %d accepted as %v", v, c.Viewer)
		}
	}
}

func TestSignerHidesKey(t *testing.T) {
	s := testSigner(t, 0)
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(f, s); strings.Contains(out, "aaaa") {
			t.Fatalf("%s prints the key: %s", f, out)
		}
	}
	if _, err := NewSigner(make([]byte, MinKeyLen-1)); err == nil {
		t.Fatal("a short key was accepted")
	}
}

func FuzzParseToken(f *testing.F) {
	s := testSigner(f, 0)
	f.Add(s.Sign(Capability{Match: 1, Viewer: game.BlueViewer, Expires: time.Unix(2e9, 0)}))
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		c, err := s.Parse(tok)
		if err != nil {
			return
		}
		if s.Sign(c) != tok {
			t.Fatalf("a second valid form of one capability: %q", tok)
		}
	})
}
