// Package checkouttest holds the browser tests of the hosted checkout: a
// real headless Chromium (Debian's chromium package) driven through the
// DevTools protocol with chromedp, against a real Tenure (PostgreSQL,
// Temporal dev server, workers, HTTP on 127.0.0.1), with axe-core checking
// every screen for accessibility. The package has no code of its own
// beyond its tests.
package checkouttest
