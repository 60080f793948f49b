package postgres_test

import (
	"context"
	"time"

	"github.com/strategobot/strategobot/storage"
)

// The tournament methods of twoPools (conformance_test.go), each call to one
// of the two stores in turn.

func (p *twoPools) CreateTournament(ctx context.Context, t *storage.Tournament, l storage.TournamentLimits) (*storage.Tournament, error) {
	return p.pick().CreateTournament(ctx, t, l)
}
func (p *twoPools) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	return p.pick().Tournament(ctx, id)
}
func (p *twoPools) UpdateTournament(ctx context.Context, id storage.TournamentID, v uint64, fn func(t *storage.Tournament) error) (*storage.Tournament, error) {
	return p.pick().UpdateTournament(ctx, id, v, fn)
}
func (p *twoPools) ServerTournaments(ctx context.Context, guild string, all bool) ([]*storage.Tournament, error) {
	return p.pick().ServerTournaments(ctx, guild, all)
}
func (p *twoPools) MatchTournament(ctx context.Context, id storage.MatchID) (storage.TournamentGame, error) {
	return p.pick().MatchTournament(ctx, id)
}
func (p *twoPools) DueTournaments(ctx context.Context, now time.Time) ([]*storage.Tournament, error) {
	return p.pick().DueTournaments(ctx, now)
}
func (p *twoPools) NextTournamentWake(ctx context.Context) (time.Time, bool, error) {
	return p.pick().NextTournamentWake(ctx)
}
