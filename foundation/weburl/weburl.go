// Package weburl is Tenure's one rule for the URLs someone will follow: a
// customer's browser (an offer's success and exit redirects, a seller's
// logo and terms documents, a shipment's tracking link) or Tenure itself
// (a seller's webhook endpoints).
//
// Such a URL is an absolute https URL with a host. The sandbox also accepts
// http and https URLs to localhost and 127.0.0.1, so that a merchant can
// test against its own machine; production accepts no URL to this machine
// at all. Everything else is refused before it is stored: other schemes
// (javascript:, data:, http: to any other host), URLs without a host
// (https:javascript:alert(1), https:///x), relative and scheme-relative
// references (/done, //evil.example), user names and passwords
// (https://shop.example@evil.example), spaces and invisible characters,
// and hosts that are neither an ASCII DNS name nor an IP address (an
// international domain name is written in its xn-- form, so that no host
// can pass for another in a different script).
package weburl

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLength is the longest URL accepted, in bytes.
const MaxLength = 2048

// numeric is a last host label that makes browsers read the host as an
// IPv4 address (WHATWG URL Standard, "ends in a number"): decimal digits,
// or 0x and hexadecimal digits.
var numeric = regexp.MustCompile(`^(?:[0-9]+|0x[0-9a-f]*)$`)

// Rule is which URLs may be followed in one deployment.
type Rule struct {
	// Local accepts http and https URLs to localhost and 127.0.0.1: the
	// sandbox's exception.
	Local bool
}

// errNotAbsolute says what a followed URL must look like.
var errNotAbsolute = errors.New("must be an absolute https URL with a host, such as https://shop.example/checkout/done")

// Check is nil when raw may be followed; otherwise its error says what is
// wrong, in words that follow the field's name ("must use https, not
// http").
func (r Rule) Check(raw string) error {
	if len(raw) > MaxLength {
		return fmt.Errorf("must be at most %d characters, got %d", MaxLength, len(raw))
	}
	if !utf8.ValidString(raw) || strings.ContainsFunc(raw, func(c rune) bool { return c == ' ' || !unicode.IsPrint(c) }) {
		return errors.New("must not contain spaces or invisible characters (write a space as %20)")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Opaque != "" || u.Host == "" {
		return errNotAbsolute
	}
	if u.User != nil {
		return errors.New("must not carry a user name or password")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if err := checkHost(host); err != nil {
		return err
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("has an invalid port %q", port)
		}
	}
	local := host == "localhost" || host == "127.0.0.1"
	switch {
	case r.Local && local && (u.Scheme == "http" || u.Scheme == "https"):
		return nil
	case u.Scheme != "https" && r.Local:
		return fmt.Errorf("must use https, not %s (the sandbox accepts http to localhost and 127.0.0.1 only)", u.Scheme)
	case u.Scheme != "https":
		return fmt.Errorf("must use https, not %s", u.Scheme)
	case !r.Local && thisMachine(host):
		return errors.New("must not name this machine (localhost, a loopback or unspecified address) outside the sandbox")
	}
	return nil
}

// checkHost refuses a host that is neither an IP address nor an ASCII DNS
// name (labels of letters, digits and hyphens).
func checkHost(host string) error {
	if addr, err := netip.ParseAddr(host); err == nil {
		if addr.Zone() != "" {
			return errors.New("must not name an IPv6 zone")
		}
		return nil
	}
	if len(host) > 253 {
		return errors.New("has a host name longer than 253 characters")
	}
	labels := strings.Split(host, ".")
	if numeric.MatchString(labels[len(labels)-1]) {
		// Browsers read such a host as an IPv4 address (127.1 and
		// 2130706433 are 127.0.0.1), which the checks below must see.
		return errors.New("must write an IPv4 address as four decimal numbers, such as 192.0.2.10")
	}
	for _, label := range labels {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' ||
			strings.ContainsFunc(label, func(c rune) bool { return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') }) {
			return errors.New("must have a host of letters, digits, hyphens and dots (an international domain name in its xn-- form) or an IP address")
		}
	}
	return nil
}

// thisMachine reports whether host names the machine Tenure or the
// customer runs on: localhost (RFC 6761 reserves every name under it), a
// loopback or the unspecified address.
func thisMachine(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && (addr.Unmap().IsLoopback() || addr.IsUnspecified())
}
