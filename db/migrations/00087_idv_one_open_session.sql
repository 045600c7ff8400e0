-- +goose Up
-- One open identity verification session per offer: asking for a link
-- again answers the open session's link until the provider decides it or
-- its link expires. A pending session whose link expired (or that was made
-- for another provider or return address) is set 'expired' by the request
-- that replaces it; the provider may still report on it. The partial
-- unique index keeps two concurrent first requests from opening two.
ALTER TABLE idv_sessions DROP CONSTRAINT idv_sessions_status_check;
ALTER TABLE idv_sessions ADD CONSTRAINT idv_sessions_status_check
    CHECK (status IN ('pending', 'verified', 'failed', 'expired'));
-- Before, every request opened a session: all but an offer's newest
-- pending one are over.
UPDATE idv_sessions SET status = 'expired'
WHERE status = 'pending' AND id NOT IN (
    SELECT DISTINCT ON (offer_id) id FROM idv_sessions
    WHERE status = 'pending'
    ORDER BY offer_id, created_at DESC, id DESC
);
CREATE UNIQUE INDEX idv_sessions_one_open_key ON idv_sessions (offer_id) WHERE status = 'pending';

-- +goose Down
DROP INDEX idv_sessions_one_open_key;
UPDATE idv_sessions SET status = 'pending' WHERE status = 'expired';
ALTER TABLE idv_sessions DROP CONSTRAINT idv_sessions_status_check;
ALTER TABLE idv_sessions ADD CONSTRAINT idv_sessions_status_check
    CHECK (status IN ('pending', 'verified', 'failed'));
