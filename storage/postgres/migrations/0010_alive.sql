-- Schema 10: when the process running the timers was last alive
-- (storage.Store.Alive), one row, NULL until it first says so: on its
-- return after a time nobody ran them, the clocks that ran meanwhile are
-- given that time back.

CREATE TABLE alive (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    at timestamptz
);

INSERT INTO alive (at) VALUES (NULL);
