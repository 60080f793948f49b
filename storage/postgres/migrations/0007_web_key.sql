-- Schema 7: the web board's signing key (storage.Store.WebKey), one row drawn
-- by the first process that needs it and shared by every process on the
-- database. (A player's link generation lives in their settings record.)

CREATE TABLE web_key (
    id  boolean PRIMARY KEY DEFAULT true CHECK (id),
    key bytea NOT NULL
);
