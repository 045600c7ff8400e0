-- +goose Up
-- Access tokens carry the generation of the credential they were issued
-- under; rotating the secret counts a new generation, and the API refuses
-- tokens of an older one. 0 is a credential never rotated, which is also
-- what a token issued before this column existed reads as.
ALTER TABLE seller_credentials ADD COLUMN generation integer NOT NULL DEFAULT 0;

-- API processes cache generations and LISTEN on this channel: every change
-- to a credential (a rotation, a deletion with its seller) is announced
-- when its transaction commits, whichever code or person made it.
-- +goose StatementBegin
CREATE FUNCTION announce_seller_credential_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('seller_credential_changed', OLD.client_id);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER seller_credentials_changed
AFTER UPDATE OR DELETE ON seller_credentials
FOR EACH ROW EXECUTE FUNCTION announce_seller_credential_change();

-- +goose Down
DROP TRIGGER seller_credentials_changed ON seller_credentials;
DROP FUNCTION announce_seller_credential_change();
ALTER TABLE seller_credentials DROP COLUMN generation;
