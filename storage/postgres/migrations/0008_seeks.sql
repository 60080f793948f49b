-- Schema 8: the queues of seeks (storage.SeekStore). A row per member and
-- server; a server's queue is its rows, which PlaceSeek reads and changes
-- under a transaction-scoped advisory lock of that server.

CREATE TABLE seeks (
    guild_id   text NOT NULL,
    user_id    text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    record     jsonb NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
