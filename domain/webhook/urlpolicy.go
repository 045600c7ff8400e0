package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/foundation/weburl"
)

// Resolver looks host names up; *net.Resolver is one.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// URLPolicy decides which endpoint URLs Tenure may call. In production
// (AllowPrivate false) a URL whose host resolves to a loopback, private,
// link-local, unspecified, multicast or otherwise non-public address is
// refused when it is registered, and the sender's dialer checks the address
// it actually connects to, so a host that later resolves elsewhere (DNS
// rebinding) is refused too. The sandbox allows every address, so merchants
// can test against localhost.
type URLPolicy struct {
	AllowPrivate bool
	// Resolver looks hosts up at registration; nil uses net.DefaultResolver.
	Resolver Resolver
}

// PolicyFor is the URL policy of a configuration: the sandbox allows every
// address, production only public ones unless
// webhooks.allow_private_addresses says otherwise.
func PolicyFor(cfg *config.Config) URLPolicy {
	return URLPolicy{AllowPrivate: cfg.Environment == config.Sandbox || cfg.Webhooks.AllowPrivateAddresses}
}

// BlockedAddressError refuses an address the policy does not let Tenure call.
type BlockedAddressError struct {
	Host string
	Addr netip.Addr
}

func (e *BlockedAddressError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("host %s resolves to %s, a loopback, private, link-local or otherwise non-public address", e.Host, e.Addr)
	}
	return fmt.Sprintf("%s is a loopback, private, link-local or otherwise non-public address", e.Addr)
}

// nonPublic are ranges beyond what netip classifies that no webhook receiver
// on the internet lives in.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64 (embeds IPv4)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2002::/16"),       // 6to4 (embeds IPv4)
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated
}

// Blocked reports whether production refuses to call addr.
func Blocked(addr netip.Addr) bool {
	addr = addr.Unmap()
	if addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsInterfaceLocalMulticast() || addr.IsMulticast() || addr.IsUnspecified() || !addr.IsValid() {
		return true
	}
	for _, p := range nonPublic {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// Check validates an endpoint URL by the rule for URLs Tenure follows
// (package weburl): an absolute https URL with a host and no user
// information, at most weburl.MaxLength bytes; http only to localhost and
// 127.0.0.1, which only a policy that allows private addresses lets
// through. Where it does not, every address of the host must be public.
// The error says what is wrong in the words of the url field; a
// *BlockedAddressError means the URL is well formed but its address is
// refused.
func (p URLPolicy) Check(ctx context.Context, raw string) error {
	// The local exception of the rule is left to the address check below,
	// which refuses this machine and every other non-public address.
	if err := (weburl.Rule{Local: true}).Check(raw); err != nil {
		return err
	}
	if p.AllowPrivate {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	return p.checkHost(ctx, u.Hostname())
}

// checkHost refuses a host when any of its addresses is non-public.
func (p URLPolicy) checkHost(ctx context.Context, host string) error {
	if addr, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if Blocked(addr) {
			return &BlockedAddressError{Host: host, Addr: addr}
		}
		return nil
	}
	resolver := p.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	addrs, err := resolver.LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		return fmt.Errorf("host %s does not resolve", host)
	}
	for _, a := range addrs {
		addr, ok := netip.AddrFromSlice(a.IP)
		if !ok || Blocked(addr) {
			return &BlockedAddressError{Host: host, Addr: addr}
		}
	}
	return nil
}

// dialControl runs after DNS resolution, just before each connection: it
// refuses the connection when production may not call the address.
func (p URLPolicy) dialControl(_, address string, _ syscall.RawConn) error {
	if p.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedAddressError{Host: address}
	}
	if Blocked(ap.Addr()) {
		return &BlockedAddressError{Addr: ap.Addr()}
	}
	return nil
}
