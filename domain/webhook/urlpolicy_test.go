package webhook

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/foundation/weburl"
)

// hosts is a resolver over a fixed table, so the policy's handling of
// names is tested without depending on the machine's DNS.
type hosts map[string][]string

func (h hosts) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	ips, ok := h[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []net.IPAddr
	for _, ip := range ips {
		out = append(out, net.IPAddr{IP: net.ParseIP(ip)})
	}
	return out, nil
}

func TestURLPolicy(t *testing.T) {
	resolver := hosts{
		"shop.example":     {"93.184.215.14"},
		"rebind.example":   {"93.184.215.14", "10.1.2.3"},
		"internal.example": {"192.168.1.20"},
		"v6.example":       {"2606:4700::6810:84e5"},
		"v6local.example":  {"fd00::1"},
	}
	production := URLPolicy{Resolver: resolver}
	sandbox := URLPolicy{AllowPrivate: true, Resolver: resolver}
	cases := []struct {
		url                string
		production, sandbx string // "" = accepted, "blocked", or part of the message
	}{
		{"https://shop.example/webhooks", "", ""},
		{"https://shop.example:8443/hooks?x=1", "", ""},
		{"https://v6.example/h", "", ""},
		{"https://93.184.215.14/h", "", ""},
		// http only to this machine, where only the sandbox may call.
		{"http://127.0.0.1:9000/h", "blocked", ""},
		{"http://localhost/h", "does not resolve", ""},
		{"http://shop.example:8443/hooks", "must use https", "localhost and 127.0.0.1 only"},
		{"http://10.0.0.8/h", "must use https", "must use https"},
		{"https://127.0.0.1:9000/h", "blocked", ""},
		{"https://[::1]/h", "blocked", ""},
		{"https://10.0.0.8/h", "blocked", ""},
		{"https://172.16.5.4/h", "blocked", ""},
		{"https://192.168.0.1/h", "blocked", ""},
		{"https://169.254.169.254/latest/meta-data", "blocked", ""},
		{"https://0.0.0.0/h", "blocked", ""},
		{"https://[::]/h", "blocked", ""},
		{"https://[::ffff:127.0.0.1]/h", "blocked", ""},
		{"https://[::ffff:10.0.0.1]/h", "blocked", ""},
		{"https://[fe80::1]/h", "blocked", ""},
		{"https://[fd12::1]/h", "blocked", ""},
		{"https://224.0.0.1/h", "blocked", ""},
		{"https://100.64.1.1/h", "blocked", ""},
		{"https://internal.example/h", "blocked", ""},
		{"https://rebind.example/h", "blocked", ""},
		{"https://v6local.example/h", "blocked", ""},
		{"https://nowhere.example/h", "does not resolve", ""},
		{"ftp://shop.example/h", "https", "https"},
		{"javascript:alert(1)", "absolute https URL", "absolute https URL"},
		{"https:javascript:alert(1)", "absolute https URL", "absolute https URL"},
		{"/relative/path", "absolute", "absolute"},
		{"//shop.example/webhooks", "absolute", "absolute"},
		{"shop.example/webhooks", "absolute", "absolute"},
		{"https:///nohost", "host", "host"},
		{"https://user:pw@shop.example/h", "user name", "user name"},
		{"https://shop.example:99999/h", "port", "port"},
		{"https://shop.example/" + strings.Repeat("a", weburl.MaxLength), "at most 2048", "at most 2048"},
	}
	for _, tc := range cases {
		for _, run := range []struct {
			name   string
			policy URLPolicy
			want   string
		}{{"production", production, tc.production}, {"sandbox", sandbox, tc.sandbx}} {
			err := run.policy.Check(t.Context(), tc.url)
			var blocked *BlockedAddressError
			switch {
			case run.want == "" && err != nil:
				t.Errorf("%s: %.60s refused: %v", run.name, tc.url, err)
			case run.want == "blocked" && !errors.As(err, &blocked):
				t.Errorf("%s: %.60s: want a blocked address, got %v", run.name, tc.url, err)
			case run.want != "" && run.want != "blocked" && (err == nil || !strings.Contains(err.Error(), run.want)):
				t.Errorf("%s: %.60s: want an error about %q, got %v", run.name, tc.url, run.want, err)
			}
		}
	}
}

func TestBlockedAddresses(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "127.8.9.10": true, "10.255.0.1": true, "172.31.255.255": true, "172.32.0.1": false,
		"192.168.10.10": true, "169.254.0.5": true, "0.0.0.0": true, "255.255.255.255": true, "8.8.8.8": false,
		"::1": true, "::": true, "fe80::abcd": true, "fc00::1": true, "ff02::1": true, "::ffff:192.168.1.1": true,
		"::ffff:8.8.8.8": false, "2001:4860:4860::8888": false, "64:ff9b::a00:1": true, "198.18.0.1": true,
	} {
		if got := Blocked(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Blocked(%s) = %v, want %v", addr, got, want)
		}
	}
}
