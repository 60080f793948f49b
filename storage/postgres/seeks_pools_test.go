package postgres_test

import (
	"context"
	"time"

	"github.com/strategobot/strategobot/game"
	"github.com/strategobot/strategobot/storage"
)

func (p *twoPools) PlaceSeek(ctx context.Context, s *storage.Seek, side game.Side) (storage.SeekOutcome, error) {
	return p.pick().PlaceSeek(ctx, s, side)
}
func (p *twoPools) Seeks(ctx context.Context, guild string, now time.Time) ([]*storage.Seek, error) {
	return p.pick().Seeks(ctx, guild, now)
}
func (p *twoPools) DeleteSeek(ctx context.Context, guild, user string) (*storage.Seek, error) {
	return p.pick().DeleteSeek(ctx, guild, user)
}
