-- name: GetMandateByOffer :one
SELECT * FROM mandates WHERE offer_id = $1;

-- name: GetMandateByOfferForUpdate :one
SELECT * FROM mandates WHERE offer_id = $1 FOR UPDATE;

-- name: PutMandate :one
-- Gives or replaces an offer's mandate before it is signed; the id, and
-- so the reference and the IBAN's sealing context, stay those of the
-- first one given.
INSERT INTO mandates (id, offer_id, seller_id, contractual_entity, creditor_id, reference, scheme,
                      account_holder, iban_sealed, iban_masked, bic)
VALUES (sqlc.arg(id), sqlc.arg(offer_id), sqlc.arg(seller_id), sqlc.arg(contractual_entity), sqlc.arg(creditor_id),
        sqlc.arg(reference), sqlc.arg(scheme), sqlc.arg(account_holder), sqlc.arg(iban_sealed), sqlc.arg(iban_masked), sqlc.arg(bic))
ON CONFLICT (offer_id) DO UPDATE SET
    contractual_entity = excluded.contractual_entity,
    creditor_id = excluded.creditor_id,
    scheme = excluded.scheme,
    account_holder = excluded.account_holder,
    iban_sealed = excluded.iban_sealed,
    iban_masked = excluded.iban_masked,
    bic = excluded.bic,
    updated_at = now()
WHERE mandates.signed_at IS NULL AND mandates.id = excluded.id
RETURNING *;

-- name: SignOfferMandate :execrows
-- Signs an offer's mandate at the offer's acceptance (the transaction's
-- time); a signed mandate keeps its date.
UPDATE mandates SET signed_at = now(), updated_at = now()
WHERE offer_id = sqlc.arg(offer_id) AND signed_at IS NULL;

-- name: LockOfferStatus :one
-- The offer's status, its row locked until the transaction ends: a change
-- beside the offer (its mandate) is serialised with the acceptance.
SELECT status FROM offers WHERE id = $1 FOR UPDATE;

-- name: ListMandatesAfter :many
-- A page of mandates in id order, for sealing their IBANs again with the
-- current key.
SELECT id, iban_sealed FROM mandates WHERE id > sqlc.arg(after) ORDER BY id LIMIT sqlc.arg(page_size);

-- name: ResealMandateIBAN :execrows
-- Replaces a mandate's sealed IBAN with the same number sealed with
-- another key, unless it changed meanwhile.
UPDATE mandates SET iban_sealed = sqlc.arg(resealed)
WHERE id = sqlc.arg(id) AND iban_sealed = sqlc.arg(sealed);
