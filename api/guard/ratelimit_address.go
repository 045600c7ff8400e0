package guard

import (
	"net/netip"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// clientAddress is the address the per-address limits and the credential
// throttle count a request against: the client's (see ClientIP), with IPv6
// clients counted per /64, the block one subscriber is usually given, so a
// client cannot step through its own addresses to escape a limit.
func clientAddress(c *fiber.Ctx, proxies []netip.Prefix) string {
	client, ok := ClientIP(c, proxies)
	if !ok {
		return UnknownAddress
	}
	return CountedAs(client)
}

// UnknownAddress counts the requests whose peer has no IP address.
const UnknownAddress = "unknown"

// CountedAs is the address a client's requests count against.
func CountedAs(client netip.Addr) string {
	if client.Is6() {
		return netip.PrefixFrom(client, 64).Masked().String()
	}
	return client.String()
}

// ClientIP is the address of the client: the peer, or, when the peer is a
// trusted proxy, the nearest address of X-Forwarded-For that is not one.
// Entries further left were written by the client and prove nothing.
func ClientIP(c *fiber.Ctx, proxies []netip.Prefix) (netip.Addr, bool) {
	client, ok := netip.AddrFromSlice(c.Context().RemoteIP())
	if !ok {
		return netip.Addr{}, false
	}
	client = client.Unmap()
	if trustedProxy(client, proxies) {
		var hops []string
		for _, header := range c.Request().Header.PeekAll(fiber.HeaderXForwardedFor) {
			hops = append(hops, strings.Split(string(header), ",")...)
		}
		for _, hop := range slices.Backward(hops) {
			a, err := netip.ParseAddr(strings.TrimSpace(hop))
			if err != nil {
				break
			}
			client = a.Unmap()
			if !trustedProxy(client, proxies) {
				break
			}
		}
	}
	return client, true
}

func trustedProxy(a netip.Addr, proxies []netip.Prefix) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
