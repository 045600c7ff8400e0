package config

import (
	"slices"
	"strings"
	"testing"
)

func TestCheckoutFrameAncestors(t *testing.T) {
	c := validConfig(t)
	if len(c.Checkout.FrameAncestors) != 0 {
		t.Errorf("no origin may frame the checkout by default, got %v", c.Checkout.FrameAncestors)
	}
	t.Setenv("TENURE_CHECKOUT_FRAME_ANCESTORS", "https://shop.example,http://127.0.0.1:3000")
	c = validConfig(t)
	if want := []string{"https://shop.example", "http://127.0.0.1:3000"}; !slices.Equal(c.Checkout.FrameAncestors, want) {
		t.Fatalf("frame ancestors from the variable: %v, want %v", c.Checkout.FrameAncestors, want)
	}
	if err := c.Validate(NeedHTTP); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"shop.example", "https://shop.example/checkout", "https://shop.example?x=1", "ftp://shop.example",
		"https://*.shop.example", "https://shop.example; script-src *", "https://user@shop.example", "https://",
	} {
		c.Checkout.FrameAncestors = []string{bad}
		err := c.Validate(NeedHTTP)
		if err == nil || !strings.Contains(err.Error(), "checkout.frame_ancestors (TENURE_CHECKOUT_FRAME_ANCESTORS)") {
			t.Errorf("%q: want a problem naming checkout.frame_ancestors, got %v", bad, err)
		}
	}
}
