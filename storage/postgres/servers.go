package postgres

import (
	"context"

	"github.com/strategobot/strategobot/storage"
)

// servers is the table of the servers' settings.
var servers = &settingsTable[storage.ServerSettings]{
	table: "servers", key: "guild_id", what: "server", id: "guild",
	blank:   func(id string) *storage.ServerSettings { return &storage.ServerSettings{GuildID: id} },
	version: func(s *storage.ServerSettings) uint64 { return s.Version },
	prepare: storage.PrepareServer,
	encode:  storage.EncodeServer,
	decode:  storage.DecodeServer,
}

// Server returns a server's settings, the defaults for a server never set up.
func (db *DB) Server(ctx context.Context, guildID string) (*storage.ServerSettings, error) {
	return servers.get(ctx, db, guildID)
}

// UpdateServer changes a server's settings with fn in one transaction, on
// the server's locked row. A server never set up gets a row of defaults first,
// so that two first changes at once are made one after the other.
func (db *DB) UpdateServer(ctx context.Context, guildID string, fn func(s *storage.ServerSettings) error) (*storage.ServerSettings, error) {
	return servers.update(ctx, db, guildID, fn)
}
