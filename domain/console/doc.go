// Package console keeps the console's accounts and what signing in to it
// takes: operators and seller users with their roles, passkeys
// (WebAuthn), passwords hashed with argon2id, TOTP codes (RFC 6238) whose
// secrets are sealed at rest, single-use recovery codes,
// sessions known only by their token's digest with idle and absolute
// ends, CSRF tokens, throttled sign-in attempts and the append-only audit
// log of every changing action.
package console
