package testenv

import (
	"net/url"
	"testing"

	"github.com/tenurehq/tenure/domain/console"
)

// TOTPSecret is the TOTP secret of a console account's provisioning URI,
// read as an authenticator app reads it, so a test can make the codes the
// account's owner would type.
func TOTPSecret(t testing.TB, provisioningURI string) []byte {
	t.Helper()
	u, err := url.Parse(provisioningURI)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := console.DecodeTOTPSecret(u.Query().Get("secret"))
	if err != nil {
		t.Fatal(err)
	}
	return secret
}
