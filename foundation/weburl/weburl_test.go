package weburl

import (
	"strings"
	"testing"
)

func TestRule(t *testing.T) {
	sandbox, production := Rule{Local: true}, Rule{}
	both := []Rule{sandbox, production}
	for _, c := range []struct {
		raw      string
		accepted []Rule
	}{
		{"https://shop.example/checkout/done?cart=42#top", both},
		{"HTTPS://Shop.Example:8443/x", both},
		{"https://shop.example./", both},
		{"https://xn--bcher-kva.example/", both},
		{"https://192.0.2.10/", both},
		{"https://[2001:db8::1]/", both},
		{"http://localhost:3000/done", []Rule{sandbox}},
		{"http://LOCALHOST/done", []Rule{sandbox}},
		{"http://127.0.0.1:8080/done", []Rule{sandbox}},
		{"https://localhost/done", []Rule{sandbox}},
		{"https://127.0.0.1/done", []Rule{sandbox}},
		{"https://app.localhost/", []Rule{sandbox}},
		{"https://127.0.0.2/", []Rule{sandbox}},
		{"https://[::1]/", []Rule{sandbox}},
		{"https://0.0.0.0/", []Rule{sandbox}},

		{"https:javascript:alert(1)", nil},
		{"https:///x", nil},
		{"https:/shop.example", nil},
		{"//evil.example", nil},
		{"javascript:alert(1)", nil},
		{"JavaScript:alert(1)", nil},
		{"data:text/html,<script>alert(1)</script>", nil},
		{"/checkout/done", nil},
		{"done", nil},
		{"", nil},
		{"http://shop.example/done", nil},
		{"http://[::1]/", nil},
		{"http://127.0.0.2/", nil},
		{"ftp://shop.example/", nil},
		{"https://user:pass@shop.example/", nil},
		{"https://shop.example@evil.example/", nil},
		{"https://evil.example\\@shop.example/", nil},
		{"https://shop.example\\evil.example/", nil},
		{"https://shop.example/a b", nil},
		{"https://shop.example/\tx", nil},
		{"https://shop.example/\u202egnp.exe", nil},
		{" https://shop.example/", nil},
		{"https://bücher.example/", nil},
		{"https://shop_example.com/", nil},
		{"https://-shop.example/", nil},
		{"https://shop..example/", nil},
		{"https://127.1/", nil},
		{"https://2130706433/", nil},
		{"https://0x7f.1/", nil},
		{"https://shop.example:0/", nil},
		{"https://shop.example:65536/", nil},
		{"https://[fe80::1%25eth0]/", nil},
		{"https://" + strings.Repeat("a", MaxLength) + ".example/", nil},
	} {
		for _, r := range both {
			err := r.Check(c.raw)
			want := false
			for _, a := range c.accepted {
				want = want || a == r
			}
			if (err == nil) != want {
				t.Errorf("Local=%v Check(%q) = %v, want accepted %v", r.Local, c.raw, err, want)
			}
		}
	}
}

// The refusals say what to send instead.
func TestRefusalsSayWhy(t *testing.T) {
	for raw, want := range map[string]string{
		"https:javascript:alert(1)":  "absolute https URL with a host",
		"http://shop.example/":       "must use https, not http",
		"https://a@shop.example/":    "user name or password",
		"https://localhost/":         "outside the sandbox",
		"https://shop.example/a b":   "%20",
		"https://bücher.example/":    "xn--",
		"https://shop.example:99999": "invalid port",
	} {
		if err := (Rule{}).Check(raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v, want it to say %q", raw, err, want)
		}
	}
	if err := (Rule{Local: true}).Check("http://shop.example/"); err == nil || !strings.Contains(err.Error(), "localhost and 127.0.0.1") {
		t.Errorf("the sandbox's refusal of http names its exception: %v", err)
	}
}
