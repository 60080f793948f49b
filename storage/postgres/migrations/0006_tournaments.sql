-- Schema 6: tournaments (storage.TournamentStore). A row per tournament holds
-- its record (its terms and its log of events); wake is its next timer, for
-- the process that runs the timers. tournament_games links each match a
-- tournament started to its round and board, so that the match's end
-- advances the tournament.

CREATE SEQUENCE tournament_ids;

CREATE TABLE tournaments (
    id       bigint PRIMARY KEY,
    guild_id text NOT NULL,
    done     boolean NOT NULL,
    wake     timestamptz,
    version  bigint NOT NULL,
    record   jsonb NOT NULL
);

CREATE INDEX tournaments_guild ON tournaments (guild_id, done, id);
CREATE INDEX tournaments_wake ON tournaments (wake) WHERE wake IS NOT NULL;

CREATE TABLE tournament_games (
    match_id      bigint PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         integer NOT NULL,
    board         integer NOT NULL
);
