-- name: FindOffer :one
-- An offer by id alone, for callers that prove the offer but not its
-- seller (the shared token, the token exchange, unauthenticated feedback).
SELECT * FROM offers WHERE id = $1;
