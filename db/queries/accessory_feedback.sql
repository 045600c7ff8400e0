-- name: CreateAccessoryFeedback :one
INSERT INTO accessory_feedback (id, seller_id, offer_id, offer_line_id, customer_feedback)
VALUES ($1, $2, $3, $4, $5)
RETURNING *;
