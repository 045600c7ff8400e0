-- name: GetSellerUserProfile :one
SELECT * FROM seller_user_profiles WHERE user_id = $1;

-- name: SaveSellerUserProfile :one
INSERT INTO seller_user_profiles (user_id, full_name, phone)
VALUES ($1, $2, $3)
ON CONFLICT (user_id) DO UPDATE SET full_name = excluded.full_name, phone = excluded.phone, updated_at = now()
RETURNING *;
