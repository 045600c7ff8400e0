-- +goose Up
-- API processes cache where each offer stands for its customer's
-- credentials (offers.Standing: its status, whether an edit superseded it)
-- and LISTEN on this channel, as they do for seller credentials (00050):
-- every change of an offer's status or superseded_by_id, and its deletion
-- with its seller, is announced with the offer's id when its transaction
-- commits, whichever code or person made it.
-- +goose StatementBegin
CREATE FUNCTION announce_offer_standing_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('offer_standing_changed', OLD.id::text);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER offers_standing_changed
AFTER UPDATE OF status, superseded_by_id ON offers
FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.superseded_by_id IS DISTINCT FROM NEW.superseded_by_id)
EXECUTE FUNCTION announce_offer_standing_change();

CREATE TRIGGER offers_deleted
AFTER DELETE ON offers
FOR EACH ROW EXECUTE FUNCTION announce_offer_standing_change();

-- +goose Down
DROP TRIGGER offers_deleted ON offers;
DROP TRIGGER offers_standing_changed ON offers;
DROP FUNCTION announce_offer_standing_change();
