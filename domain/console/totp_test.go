package console_test

import (
	"encoding/hex"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/console"
)

// RFC 6238's test vectors for HMAC-SHA1 (appendix B), the last six digits
// of each eight-digit value.
func TestTOTPMatchesRFC6238(t *testing.T) {
	secret := []byte("12345678901234567890")
	for unix, want := range map[int64]string{
		59: "287082", 1111111109: "081804", 1111111111: "050471", 1234567890: "005924", 2000000000: "279037",
	} {
		if got := console.TOTPCode(secret, console.TOTPStep(time.Unix(unix, 0))); got != want {
			t.Errorf("code at %d = %s, want %s", unix, got, want)
		}
	}
}

func TestMatchTOTPAcceptsOneStepEitherSide(t *testing.T) {
	secret, _ := hex.DecodeString("3132333435363738393031323334353637383930")
	now := time.Unix(1111111111, 0)
	step := console.TOTPStep(now)
	for offset, ok := range map[int64]bool{-2: false, -1: true, 0: true, 1: true, 2: false} {
		got, matched := console.MatchTOTP(secret, console.TOTPCode(secret, step+offset), now)
		if matched != ok || (ok && got != step+offset) {
			t.Errorf("code of step %+d: matched %v at %d, want %v", offset, matched, got, ok)
		}
	}
	for _, bad := range []string{"", "12345", "1234567", "abcdef"} {
		if _, ok := console.MatchTOTP(secret, bad, now); ok {
			t.Errorf("%q matched", bad)
		}
	}
}

func TestProvisioningURI(t *testing.T) {
	uri := console.ProvisioningURI("ops@example.com", []byte("12345678901234567890"))
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "otpauth" || u.Host != "totp" || !strings.HasPrefix(u.Path, "/Tenure:ops@example.com") {
		t.Errorf("URI %s", uri)
	}
	q := u.Query()
	if q.Get("secret") != "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" || q.Get("issuer") != "Tenure" || q.Get("digits") != "6" || q.Get("period") != "30" {
		t.Errorf("URI parameters %v", q)
	}
}
