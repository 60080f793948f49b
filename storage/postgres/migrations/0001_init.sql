-- Schema 1: matches, challenges, players and standings.
--
-- A match, a challenge and a player's settings are each one record, JSON in
-- storage's own encoding (the same bytes the bbolt backend keeps: the log is
-- one string such as "B4B5+40 G7G6+3600"), and the record is the truth. The
-- other columns are its indexes, written from the record in the same
-- statement: who plays, where, whether it is active, and its next timer.
-- Records hold hidden information (set-ups, secrets): never show them.

CREATE SEQUENCE match_ids AS bigint;

CREATE TABLE matches (
    id         bigint PRIMARY KEY,
    version    bigint NOT NULL,            -- bumped by every change
    phase      text NOT NULL,              -- setup, playing, finished, abandoned
    active     boolean NOT NULL,           -- setup or playing
    guild_id   text NOT NULL,              -- '' outside a server
    channel_id text NOT NULL,
    thread_id  text,                       -- NULL without a thread of its own
    red_id     text NOT NULL,
    blue_id    text NOT NULL,
    wake_at    timestamptz,                -- the next timer, NULL when nobody must act
    wake_kind  text,                       -- m: deadline, r: reminder
    record     jsonb NOT NULL
);
ALTER SEQUENCE match_ids OWNED BY matches.id;

-- A player's or a channel's active or ended matches, newest first.
CREATE INDEX matches_red ON matches (red_id, active, id);
CREATE INDEX matches_blue ON matches (blue_id, active, id);
CREATE INDEX matches_channel ON matches (channel_id, active, id);
CREATE INDEX matches_thread ON matches (thread_id, active, id) WHERE thread_id IS NOT NULL;
-- Timers, earliest first.
CREATE INDEX matches_wake ON matches (wake_at, wake_kind, id) WHERE wake_at IS NOT NULL;

CREATE SEQUENCE challenge_ids AS bigint;

-- Pending challenges only: an answered or expired one is deleted.
CREATE TABLE challenges (
    id            bigint PRIMARY KEY,
    channel_id    text NOT NULL,
    challenger_id text NOT NULL,
    opponent_id   text,                    -- NULL for an open challenge
    expires_at    timestamptz NOT NULL,
    record        jsonb NOT NULL
);
ALTER SEQUENCE challenge_ids OWNED BY challenges.id;

CREATE INDEX challenges_channel ON challenges (channel_id, id);
CREATE INDEX challenges_challenger ON challenges (challenger_id, id);
CREATE INDEX challenges_opponent ON challenges (opponent_id, id) WHERE opponent_id IS NOT NULL;
CREATE INDEX challenges_expiry ON challenges (expires_at, id);

CREATE TABLE players (
    user_id text PRIMARY KEY,
    version bigint NOT NULL,
    record  jsonb NOT NULL
);

-- Results and Glicko-2 ratings per server, variant and player.
CREATE TABLE standings (
    guild_id    text NOT NULL,
    variant     text NOT NULL,             -- classic, barrage, duel, infiltrator, custom
    user_id     text NOT NULL,
    name        text NOT NULL,             -- the name in their latest rated match
    wins        integer NOT NULL,
    losses      integer NOT NULL,
    draws       integer NOT NULL,
    rating      double precision NOT NULL,
    rd          double precision NOT NULL,
    volatility  double precision NOT NULL,
    last_played timestamptz,
    PRIMARY KEY (guild_id, variant, user_id)
);
CREATE INDEX standings_table ON standings (guild_id, variant, rating DESC);
