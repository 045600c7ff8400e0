-- name: LockOrderInvoicing :exec
-- Orders the issuing of an order's invoices: held until the transaction
-- ends, so two contracts of one order falling due at once bill each
-- installment once.
SELECT pg_advisory_xact_lock(hashtextextended('invoices/' || sqlc.arg(order_id)::uuid::text, 0));

-- name: GetInstallmentInvoice :one
-- The invoice of an installment, NULL while it has none.
SELECT invoice_id FROM contract_installments WHERE contract_id = $1 AND number = $2;

-- name: ListInvoiceableInstallments :many
-- The installments of an order due in a month [from, until) that no
-- invoice bills yet and that are owed or will be, in the order's line
-- order.
SELECT i.*, c.line_position, c.seller_offer_reference
FROM contract_installments i
JOIN rental_contracts c ON c.id = i.contract_id
WHERE c.order_id = sqlc.arg(order_id)
  AND i.invoice_id IS NULL
  AND i.status IN ('scheduled', 'due')
  AND i.due_date >= sqlc.arg(due_from) AND i.due_date < sqlc.arg(due_until)
ORDER BY c.line_position, i.number;

-- name: SetInstallmentInvoice :execrows
UPDATE contract_installments SET invoice_id = sqlc.arg(invoice_id)
WHERE contract_id = sqlc.arg(contract_id) AND number = sqlc.arg(number) AND invoice_id IS NULL;

-- name: GetContractChargeForInvoice :one
-- A charge with its contract's order and line, to bill it.
SELECT ch.*, c.order_id, c.seller_id, c.line_position
FROM contract_charges ch
JOIN rental_contracts c ON c.id = ch.contract_id
WHERE ch.id = $1;

-- name: SetChargeInvoice :execrows
UPDATE contract_charges SET invoice_id = sqlc.arg(invoice_id) WHERE id = sqlc.arg(id) AND invoice_id IS NULL;

-- name: CreateInvoice :exec
INSERT INTO invoices (id, seller_id, order_id, contractual_entity, number, kind, period, issue_date, service_from, service_to,
                      currency, net, tax, gross, language, collection_date, mandate_reference)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17);

-- name: CreateInvoiceLine :exec
INSERT INTO invoice_lines (invoice_id, position, contract_id, installment_number, charge_id, description, quantity,
                           service_from, service_to, net, tax_rate, tax, gross)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);

-- name: CreateInvoiceDocument :exec
INSERT INTO invoice_documents (invoice_id, format, content) VALUES ($1, $2, $3);

-- name: GetInvoice :one
SELECT * FROM invoices WHERE seller_id = $1 AND id = $2;

-- name: GetInvoiceByID :one
-- An invoice named by its id alone: a customer's signed link.
SELECT * FROM invoices WHERE id = $1;

-- name: ListInvoiceLines :many
SELECT * FROM invoice_lines WHERE invoice_id = ANY (sqlc.arg(invoice_ids)::uuid[]) ORDER BY invoice_id, position;

-- name: GetInvoiceDocument :one
SELECT content FROM invoice_documents WHERE invoice_id = $1 AND format = $2;

-- name: ListInvoices :many
-- One page of a seller's invoices with the filters of the invoice list,
-- oldest first; total_count counts every match, ignoring limit and offset.
SELECT i.*, count(*) OVER () AS total_count
FROM invoices i
WHERE i.seller_id = sqlc.arg(seller_id)
  AND (sqlc.narg(status)::text IS NULL OR i.status = sqlc.narg(status))
  AND (sqlc.narg(order_id)::uuid IS NULL OR i.order_id = sqlc.narg(order_id))
  AND (sqlc.narg(contract_id)::uuid IS NULL OR EXISTS (
      SELECT 1 FROM invoice_lines l WHERE l.contract_id = sqlc.narg(contract_id) AND l.invoice_id = i.id))
  AND (sqlc.narg(id_gt)::uuid IS NULL OR i.id > sqlc.narg(id_gt))
ORDER BY i.created_at, i.id
LIMIT sqlc.arg(row_limit)::bigint OFFSET sqlc.arg(row_offset)::bigint;
