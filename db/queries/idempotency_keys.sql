-- name: ClaimIdempotencyKey :one
-- Records a key's first request in flight, or replaces an expired key;
-- no row when the key is in use.
INSERT INTO idempotency_keys (caller, key, method, path, fingerprint, resource_id, lease_token, leased_until, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (caller, key) DO UPDATE SET
    method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint,
    resource_id = EXCLUDED.resource_id, lease_token = EXCLUDED.lease_token, leased_until = EXCLUDED.leased_until,
    status = NULL, content_type = NULL, body = NULL,
    created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
RETURNING *;

-- name: GetIdempotencyKey :one
SELECT * FROM idempotency_keys WHERE caller = $1 AND key = $2;

-- name: TakeOverIdempotencyKey :one
-- Hands an in-flight request whose lease ran out to a retry; no row when
-- another retry took it first, or it completed meanwhile.
UPDATE idempotency_keys
SET lease_token = sqlc.arg(lease_token), leased_until = sqlc.arg(leased_until)
WHERE caller = $1 AND key = $2 AND status IS NULL
  AND leased_until <= sqlc.arg(now) AND expires_at > sqlc.arg(now)
RETURNING *;

-- name: RenewIdempotencyLease :execrows
-- Moves the end of a lease (to now, to hand the request to its next retry).
UPDATE idempotency_keys SET leased_until = $4
WHERE caller = $1 AND key = $2 AND lease_token = $3;

-- name: CompleteIdempotencyKey :execrows
-- Records the outcome of the attempt holding the lease.
UPDATE idempotency_keys
SET status = $4, content_type = $5, body = $6, lease_token = NULL, leased_until = NULL
WHERE caller = $1 AND key = $2 AND lease_token = $3;

-- name: ForgetIdempotencyKey :exec
-- Forgets the key of a request refused as sent, so it can be sent again.
DELETE FROM idempotency_keys WHERE caller = $1 AND key = $2 AND lease_token = $3;

-- name: PurgeIdempotencyKeys :execrows
-- Deletes up to batch_size expired keys.
DELETE FROM idempotency_keys
WHERE (caller, key) IN (
    SELECT expired.caller, expired.key FROM idempotency_keys expired
    WHERE expired.expires_at <= sqlc.arg(now)
    ORDER BY expired.expires_at
    LIMIT sqlc.arg(batch_size)
);
