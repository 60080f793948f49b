-- Schema 9: an index of the players by the end of their last vacation
-- (storage.PlayerSettings.VacationEnds), so that the players on vacation
-- are found without reading every player's record. NULL: none taken.

ALTER TABLE players ADD COLUMN vacation_end timestamptz;

UPDATE players SET vacation_end = (
    SELECT to_timestamp(max((v->>1)::bigint))
    FROM jsonb_array_elements(record->'vacations') AS v
) WHERE jsonb_typeof(record->'vacations') = 'array';

CREATE INDEX players_vacation ON players (vacation_end) WHERE vacation_end IS NOT NULL;
