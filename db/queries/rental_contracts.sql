-- name: CreateRentalContract :exec
-- One contract per rented line: a retried confirmation inserts nothing.
INSERT INTO rental_contracts (id, order_id, seller_id, line_position, product_id, quantity, start_date,
                              duration_months, monthly_net, monthly_gross, currency)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (order_id, line_position) DO NOTHING;
