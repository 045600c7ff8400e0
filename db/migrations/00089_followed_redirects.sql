-- +goose Up
-- Offers' success and exit redirects are URLs a customer is sent to, which
-- Tenure now accepts only as absolute https URLs with a host (package
-- weburl), plus http and https to localhost and 127.0.0.1 in the sandbox.
-- Earlier versions stored any absolute http(s) URL, https:javascript:...
-- and https:///x included. This clears every stored redirect that no
-- environment would accept now (empty stands for none), so the checkout
-- offers no link rather than one nobody should follow. updated_at stays:
-- an open checkout's acceptance must not become out of date through this.
--
-- followed approximates the rule in SQL from the safe side: at most 2,048
-- characters; https and a host of DNS labels whose last one is not a
-- number (browsers read 127.1 as an IPv4 address), a dotted-quad IPv4 or a
-- bracketed IPv6 address, or http to localhost or 127.0.0.1; an optional
-- port from 1 to 65535; then a path, query or fragment of printable ASCII.
-- It lives in this session only (pg_temp) and leaves nothing in the schema.
-- +goose StatementBegin
CREATE FUNCTION pg_temp.followed(u text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT length(u) <= 2048 AND (
        u ~* '^http://(localhost|127\.0\.0\.1)(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?([/?#][!-~]*)?$'
        OR u ~* '^https://(([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?\.?|(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}|\[[0-9a-f:.]+\])(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?([/?#][!-~]*)?$'
            AND (u !~* '^https://([^/?#]*\.)?([0-9]+|0x[0-9a-f]*)\.?(:[0-9]*)?([/?#]|$)'
                OR u ~ '^https://(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}(:[0-9]*)?([/?#]|$)'))
$$;
-- +goose StatementEnd
UPDATE offers SET exit_redirect = '' WHERE exit_redirect <> '' AND NOT pg_temp.followed(exit_redirect);
UPDATE offers SET success_redirect = '' WHERE success_redirect <> '' AND NOT pg_temp.followed(success_redirect);
DROP FUNCTION pg_temp.followed(text);

-- +goose Down
-- The cleared redirects are kept nowhere: there is nothing to restore.
SELECT 1;
