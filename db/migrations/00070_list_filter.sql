-- +goose Up
-- The filters of the offer and order lists (GET /v1/offers/paginated,
-- GET /v1/orders/paginated and the deprecated unpaginated lists), written
-- once for both queries. A plain SQL function of one expression: the
-- planner inlines it, so the lists keep using their indexes (the trigram
-- index of search_text for a query, (seller_id, created_at, id) for pages).
CREATE FUNCTION list_filter(
    search_text text, created_by text, partner boolean, id uuid, created_at timestamptz,
    query text, creators text[], partners_only boolean,
    id_gt uuid, id_gte uuid, id_lt uuid, id_lte uuid,
    created_at_gt timestamptz, created_at_gte timestamptz, created_at_lt timestamptz, created_at_lte timestamptz
) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (query IS NULL OR search_text LIKE '%' || query || '%')
   AND (cardinality(creators) = 0 OR created_by = ANY (creators))
   AND (NOT partners_only OR partner)
   AND (id_gt IS NULL OR id > id_gt)
   AND (id_gte IS NULL OR id >= id_gte)
   AND (id_lt IS NULL OR id < id_lt)
   AND (id_lte IS NULL OR id <= id_lte)
   AND (created_at_gt IS NULL OR created_at > created_at_gt)
   AND (created_at_gte IS NULL OR created_at >= created_at_gte)
   AND (created_at_lt IS NULL OR created_at < created_at_lt)
   AND (created_at_lte IS NULL OR created_at <= created_at_lte);

-- +goose Down
DROP FUNCTION list_filter;
