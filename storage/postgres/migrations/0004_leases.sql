-- Schema 4: leases, so that of several bot processes on one database exactly
-- one at a time runs the timers and the outbox (storage.Store.Lead). A lease
-- is held until it expires; its holder renews it well before.

CREATE TABLE leases (
    name    text PRIMARY KEY,
    holder  text NOT NULL,
    expires timestamptz NOT NULL
);
