package webhook

import (
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// The Standard Webhooks specification's published example: this secret,
// id, timestamp and body sign to this value.
func TestSignMatchesTheSpecificationExample(t *testing.T) {
	got, err := Sign("msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0),
		[]byte(`{"test": 2432232314}`), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestSignWithTwoSecretsDuringARotation(t *testing.T) {
	a, _ := NewSecret()
	b, _ := NewSecret()
	both, err := Sign("id", time.Unix(1, 0), []byte("{}"), a, b)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := Sign("id", time.Unix(1, 0), []byte("{}"), a)
	second, _ := Sign("id", time.Unix(1, 0), []byte("{}"), b)
	if both != first+" "+second || first == second {
		t.Errorf("got %q from %q and %q", both, first, second)
	}
	if _, err := Sign("id", time.Unix(1, 0), nil, "not-a-secret"); err == nil {
		t.Error("a secret without the whsec_ prefix cannot sign")
	}
}

func TestNewSecret(t *testing.T) {
	s, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	key, err := secretKey(s)
	if !strings.HasPrefix(s, "whsec_") || err != nil || len(key) != secretBytes {
		t.Errorf("secret %q: key of %d bytes, %v", s, len(key), err)
	}
	if other, _ := NewSecret(); other == s {
		t.Error("two secrets are equal")
	}
}

func TestSecretBox(t *testing.T) {
	box, err := NewSecretBox("a-configured-secret-key-of-32-bytes!")
	if err != nil {
		t.Fatal(err)
	}
	id, other := uuid.New(), uuid.New()
	sealed := box.Seal(id, "whsec_abc")
	if strings.Contains(string(sealed), "whsec_abc") {
		t.Error("the sealed secret contains the clear text")
	}
	if got, err := box.Open(id, sealed); err != nil || got != "whsec_abc" {
		t.Errorf("open: %q %v", got, err)
	}
	if _, err := box.Open(other, sealed); err == nil {
		t.Error("a secret sealed for one endpoint opens for another")
	}
	wrongKey, _ := NewSecretBox("another-configured-key-of-32-bytes!!")
	if _, err := wrongKey.Open(id, sealed); err == nil {
		t.Error("a secret opens with another key")
	}
}

// A secret sealed before the key ring existed (by the SecretBox of commit
// b3b7d22, for this endpoint and key) still opens.
func TestSecretBoxOpensSecretsSealedBeforeTheKeyRing(t *testing.T) {
	box, err := NewSecretBox("a-configured-secret-key-of-32-bytes!")
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.MustParse("0190f3a2-7b1c-7def-8a12-3456789abcde")
	sealed, _ := hex.DecodeString("eeecee18076ba2bf2e6b2c8cd07ddf946755f1324ffda0fdaf5e2e2bc45749785d8ba2615e43528a053d3ad4286324fd944832e16651a786d8ff7b6471c8e4f6c052")
	if got, err := box.Open(id, sealed); err != nil || got != "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" {
		t.Errorf("open: %q %v", got, err)
	}
}

func TestDelaysAreJitteredDeterministically(t *testing.T) {
	schedule := []time.Duration{0, 5 * time.Second, 5 * time.Minute, 24 * time.Hour}
	a := Delays(schedule, "webhook/a/b/1")
	if again := Delays(schedule, "webhook/a/b/1"); !slices.Equal(a, again) {
		t.Errorf("the same delivery gets different delays: %v %v", a, again)
	}
	if a[0] != 0 {
		t.Errorf("the first attempt is immediate, got %v", a[0])
	}
	for i, d := range schedule[1:] {
		if got := a[i+1]; got < d || got > d+d/10 {
			t.Errorf("delay %d is %v, want within 10 %% above %v", i+1, got, d)
		}
	}
	if b := Delays(schedule, "webhook/c/d/1"); slices.Equal(a, b) {
		t.Errorf("two deliveries get the same jitter: %v", a)
	}
}
