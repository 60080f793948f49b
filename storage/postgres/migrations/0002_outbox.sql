-- Schema 2: the outbox, the notices that changes owe until the bot has
-- delivered them (see storage's package documentation, "The outbox").
--
-- A notice is one record, JSON in storage's own encoding, written in the same
-- transaction as the change that owes it; a done notice is deleted. Notices of
-- one match (or challenge) to one audience wait in one queue, named by the
-- queue column ("m42/red", "c7/public"), and go out in id order: only a
-- queue's oldest notice is ever due, when its next_try has come. A challenge's
-- notice holds the challenge, which is no longer stored anywhere else.

CREATE SEQUENCE notice_ids AS bigint;

CREATE TABLE notices (
    id       bigint PRIMARY KEY,       -- the order notices were recorded in
    queue    text NOT NULL,            -- m<match>/<audience> or c<challenge>/<audience>
    next_try timestamptz NOT NULL,     -- not before this time
    record   jsonb NOT NULL
);
ALTER SEQUENCE notice_ids OWNED BY notices.id;

-- A queue's oldest notice: its first entry.
CREATE INDEX notices_queue ON notices (queue, id);
-- The notices that may be tried, earliest first.
CREATE INDEX notices_due ON notices (next_try, id);
