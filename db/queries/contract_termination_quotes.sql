-- name: CreateTerminationQuote :exec
-- Quotes have ids derived from the contract, the day and the schedule: the
-- same quote asked twice is stored once.
INSERT INTO contract_termination_quotes (id, contract_id, quote_date, valid_until, quote)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (id) DO NOTHING;

-- name: GetTerminationQuote :one
SELECT * FROM contract_termination_quotes WHERE contract_id = $1 AND id = $2;

-- name: AcceptTerminationQuote :execrows
UPDATE contract_termination_quotes SET accepted_at = now() WHERE id = $1 AND accepted_at IS NULL;
