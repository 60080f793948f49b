package storage

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Secret is a match's own random key, drawn from crypto/rand when the match is
// made and kept only in the database. Every secret random choice of the match
// (the computer's set-up, its moves' tie-breaks and guesses, a Random set-up,
// the example set-up in a player's template) comes from a seed derived from it,
// never from anything a member can see (match numbers, versions, times), so
// that an opponent who has read all of the project's code still cannot predict
// or recompute those choices. Replays for debugging stay reproducible from the
// stored secret.
//
// It is hidden information: it must never be shown, logged or exported.
type Secret [32]byte

// NewSecret draws a secret from crypto/rand.
func NewSecret() (Secret, error) {
	var s Secret
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("drawing a match secret: %w", err)
	}
	return s, nil
}

// IsZero reports whether s was never drawn.
func (s Secret) IsZero() bool { return s == Secret{} }

// Seed derives the seed of one random choice: purpose names the choice (such
// as "computer-move") and args tell its instances apart (a ply, a side).
// Different purposes and args give independent seeds; the same ones always
// give the same seed.
func (s Secret) Seed(purpose string, args ...uint64) uint64 {
	h := sha256.New()
	h.Write(s[:])
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	var buf [8]byte
	for _, a := range args {
		binary.BigEndian.PutUint64(buf[:], a)
		h.Write(buf[:])
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}

// String hides the secret, so that a Match printed by mistake shows none of it.
func (s Secret) String() string { return "Secret(hidden)" }

// GoString hides the secret from %#v as well.
func (s Secret) GoString() string { return "storage.Secret(hidden)" }

func encodeSecret(s Secret) string { return hex.EncodeToString(s[:]) }

func decodeSecret(text string) (Secret, error) {
	var s Secret
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("a secret is %d hexadecimal bytes", len(s))
	}
	copy(s[:], b)
	return s, nil
}

// WebKeyLen is the length of the web board's signing key (Store.WebKey).
const WebKeyLen = 32

// NewWebKey draws a web signing key from crypto/rand.
func NewWebKey() ([]byte, error) {
	k := make([]byte, WebKeyLen)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("drawing the web signing key: %w", err)
	}
	return k, nil
}
