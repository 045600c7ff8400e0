-- name: ApproveOfferFirst :execrows
-- Records an operator's first approval of an offer under review; an offer
-- approved already keeps its first approval (0 rows).
INSERT INTO offer_approvals (offer_id, approved_by, approved_email, total_net, currency)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (offer_id) DO NOTHING;

-- name: GetOfferApproval :one
SELECT * FROM offer_approvals WHERE offer_id = $1;
