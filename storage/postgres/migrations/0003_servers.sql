-- Schema 3: each server's settings (storage.ServerSettings), one record a
-- server, changed on its locked row like a player's settings.

CREATE TABLE servers (
    guild_id text PRIMARY KEY,
    version  bigint NOT NULL,
    record   jsonb NOT NULL
);
