package config

import "github.com/tenurehq/tenure/foundation/weburl"

// FollowedURLs is the rule for the URLs a seller sets that a customer or
// Tenure will follow (package weburl): the sandbox also accepts URLs to
// localhost and 127.0.0.1.
func (c *Config) FollowedURLs() weburl.Rule {
	return weburl.Rule{Local: c.Environment == Sandbox}
}
