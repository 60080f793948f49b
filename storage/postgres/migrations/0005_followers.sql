-- Schema 5: followers, members who follow a match by DM without playing it
-- (storage.Store.Follow). A row per follower, beside the match rather than in
-- its record, so that following never changes the match's version.

CREATE TABLE followers (
    match_id bigint NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id  text NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
