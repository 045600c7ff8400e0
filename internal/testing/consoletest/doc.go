// Package consoletest drives the console at /console/ in a real headless
// Chromium against a whole Tenure in production mode (API, workers,
// PostgreSQL, a namespace of the Temporal dev server): an operator signs
// in with a password and a TOTP code and works the review queue, in
// English at 1280 px and in German at 360 px, and adds a passkey through
// Chromium's virtual authenticator, signs in with it and with a recovery
// code, each screen checked with axe-core and kept as a screenshot. Every
// tab checks, as its test ends, that the audit log has an entry of each
// changing request it sent to the console (audited_test.go).
package consoletest
