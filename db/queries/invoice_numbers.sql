-- name: TakeInvoiceNumber :one
-- Takes the next number of a contractual entity's year, starting at 1.
-- The counter row stays locked until the transaction ends: a concurrent
-- issuer waits, and a rollback gives the number back, so numbers have no
-- gaps.
INSERT INTO invoice_counters AS c (contractual_entity, year, next) VALUES ($1, $2, 2)
ON CONFLICT (contractual_entity, year) DO UPDATE SET next = c.next + 1
RETURNING (next - 1)::bigint AS number;
