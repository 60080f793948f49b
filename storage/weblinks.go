package storage

import "context"

// playerSettings is the part of a Store that keeps players' settings, where
// a player's link generation lives.
type playerSettings interface {
	Player(ctx context.Context, userID string) (*PlayerSettings, error)
	UpdatePlayer(ctx context.Context, userID string, fn func(p *PlayerSettings) error) (*PlayerSettings, error)
}

// LinkGenerationIn is Store.LinkGeneration for a backend, read from the
// player's settings.
func LinkGenerationIn(ctx context.Context, s playerSettings, userID string) (uint32, error) {
	p, err := s.Player(ctx, userID)
	if err != nil {
		return 0, err
	}
	return p.LinkGen, nil
}

// RevokeLinksIn is Store.RevokeLinks for a backend: one more generation in
// the player's settings.
func RevokeLinksIn(ctx context.Context, s playerSettings, userID string) (uint32, error) {
	p, err := s.UpdatePlayer(ctx, userID, func(p *PlayerSettings) error {
		p.LinkGen++
		return nil
	})
	if err != nil {
		return 0, err
	}
	return p.LinkGen, nil
}
