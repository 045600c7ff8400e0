-- name: LockRiskCompanyKey :exec
-- Serialises the decisions of one company (one of its keys) until the
-- transaction ends: its exposure is read and reserved by one at a time.
SELECT pg_advisory_xact_lock(hashtextextended('tenure-risk-company:' || sqlc.arg(key)::text, 0));

-- name: CompanyExposure :one
-- What a company (any of its keys) owes or has asked for in a currency:
-- its offers under review or accepted whose order was not canceled or
-- rejected, each counted by its reservation until its order's contracts
-- have schedules, then by their installments still owed (scheduled, due,
-- failed). The one query of exposure.
WITH held AS (
    SELECT d.offer_id, d.reserved_net
    FROM risk_decisions d
    JOIN offers o ON o.id = d.offer_id
    WHERE d.company_keys && sqlc.arg(keys)::text[]
      AND d.reserved_net > 0
      AND d.currency = sqlc.arg(currency)
      AND o.status IN ('pending_review', 'accepted')
      AND NOT EXISTS (SELECT 1 FROM orders r WHERE r.offer_id = d.offer_id AND r.status IN ('canceled', 'rejected'))
), contracted AS (
    SELECT h.offer_id, coalesce(sum(i.net) FILTER (WHERE i.status IN ('scheduled', 'due', 'failed')), 0) AS open_net
    FROM held h
    JOIN orders r ON r.offer_id = h.offer_id
    JOIN rental_contracts c ON c.order_id = r.id
    JOIN contract_installments i ON i.contract_id = c.id
    GROUP BY h.offer_id
)
SELECT coalesce(sum(coalesce(ct.open_net, h.reserved_net)), 0)::bigint AS open_net, count(*) AS offers
FROM held h
LEFT JOIN contracted ct ON ct.offer_id = h.offer_id;

-- name: CompanyExposures :many
-- CompanyExposure of many companies in one statement, for a page of the
-- console: company i has the keys given with i in companies (keys and
-- currencies run beside it). The rules are CompanyExposure's: change both
-- together (a test compares them).
WITH given AS (
    SELECT unnest(sqlc.arg(companies)::int[]) AS company, unnest(sqlc.arg(keys)::text[]) AS key,
           unnest(sqlc.arg(currencies)::text[]) AS currency
), companies AS (
    SELECT g.company, array_agg(g.key)::text[] AS keys, min(g.currency) AS currency
    FROM given g
    GROUP BY g.company
)
SELECT co.company::int AS company, x.open_net::bigint AS open_net, x.offers::bigint AS offers
FROM companies co
CROSS JOIN LATERAL (
    SELECT coalesce(sum(CASE WHEN ct.installments > 0 THEN ct.open_net ELSE h.reserved_net END), 0) AS open_net, count(*) AS offers
    FROM risk_decisions h
    JOIN offers o ON o.id = h.offer_id
    CROSS JOIN LATERAL (
        SELECT count(i.net) AS installments,
               coalesce(sum(i.net) FILTER (WHERE i.status IN ('scheduled', 'due', 'failed')), 0) AS open_net
        FROM orders r
        JOIN rental_contracts c ON c.order_id = r.id
        JOIN contract_installments i ON i.contract_id = c.id
        WHERE r.offer_id = h.offer_id
    ) ct
    WHERE h.company_keys && co.keys
      AND h.reserved_net > 0
      AND h.currency = co.currency
      AND o.status IN ('pending_review', 'accepted')
      AND NOT EXISTS (SELECT 1 FROM orders r WHERE r.offer_id = h.offer_id AND r.status IN ('canceled', 'rejected'))
) x;

-- name: NoJITInTransaction :exec
-- Turns PostgreSQL's JIT compilation off until the transaction ends, for
-- a statement whose plan is estimated far above its cost (decision 0277).
SELECT set_config('jit', 'off', true);

-- name: InsertRiskDecision :one
INSERT INTO risk_decisions (id, offer_id, seller_id, snapshot_version, snapshot, company_keys, currency, reserved_net,
                            rule_set_version, outcome, rule_id, reason, error,
                            shadow_rule_set_version, shadow_outcome, shadow_rule_id, shadow_reason, shadow_error)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
RETURNING decided_at;

-- name: GetRiskDecisionByOffer :one
SELECT * FROM risk_decisions WHERE offer_id = $1;

-- name: ListRiskDecisionsSince :many
-- The decision log from since on, in the order it was written, a page
-- after the decision (after_at, after_id).
SELECT * FROM risk_decisions
WHERE decided_at >= sqlc.arg(since)::timestamptz
  AND (decided_at, id) > (sqlc.arg(after_at)::timestamptz, sqlc.arg(after_id)::uuid)
ORDER BY decided_at, id
LIMIT sqlc.arg(page_size);

-- name: ListRiskDecisionsByOutcome :many
-- The newest decisions of an outcome since a time, for operators.
SELECT d.*, o.status AS offer_status, o.seller_offer_reference
FROM risk_decisions d
JOIN offers o ON o.id = d.offer_id
WHERE d.outcome = sqlc.arg(outcome) AND d.decided_at >= sqlc.arg(since)::timestamptz
ORDER BY d.decided_at DESC, d.id DESC
LIMIT sqlc.arg(page_size);

-- name: SetOfferRiskReview :exec
-- Stores the rules' decision in the document of an offer under review.
UPDATE offers SET document = sqlc.arg(document), updated_at = now()
WHERE seller_id = sqlc.arg(seller_id) AND id = sqlc.arg(id) AND status = 'pending_review';

-- name: ListSellerRiskLimits :many
SELECT * FROM seller_risk_limits WHERE seller_id = $1 ORDER BY name;

-- name: SetSellerRiskLimit :exec
INSERT INTO seller_risk_limits (seller_id, name, amount) VALUES ($1, $2, $3)
ON CONFLICT (seller_id, name) DO UPDATE SET amount = excluded.amount, updated_at = now();

-- name: DeleteSellerRiskLimit :execrows
DELETE FROM seller_risk_limits WHERE seller_id = $1 AND name = $2;
