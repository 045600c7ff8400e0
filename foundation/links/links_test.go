package links

import (
	"errors"
	"testing"
	"time"
)

func TestSignAndVerify(t *testing.T) {
	s := NewSigner("0123456789abcdef0123456789abcdef")
	token := s.Sign("offer", "offer-1", time.Now().Add(time.Hour))
	if err := s.Verify("offer", "offer-1", token); err != nil {
		t.Fatal(err)
	}
	for name, check := range map[string]func() error{
		"other subject": func() error { return s.Verify("offer", "offer-2", token) },
		"other purpose": func() error { return s.Verify("upload", "offer-1", token) },
		"other key":     func() error { return NewSigner("another key, also 32 bytes long!").Verify("offer", "offer-1", token) },
		"tampered":      func() error { return s.Verify("offer", "offer-1", "9"+token) },
		"garbage":       func() error { return s.Verify("offer", "offer-1", "not-a-token") },
	} {
		if err := check(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: want ErrInvalid, got %v", name, err)
		}
	}
	expired := s.Sign("offer", "offer-1", time.Now().Add(-time.Second))
	if err := s.Verify("offer", "offer-1", expired); !errors.Is(err, ErrExpired) {
		t.Errorf("want ErrExpired, got %v", err)
	}
}

func TestDeriveKey(t *testing.T) {
	a, b := DeriveKey("secret", "one"), DeriveKey("secret", "two")
	if len(a) != 64 || a == b || a == DeriveKey("other", "one") {
		t.Errorf("keys must differ by secret and purpose: %s %s", a, b)
	}
	if a != DeriveKey("secret", "one") {
		t.Error("derivation is deterministic")
	}
}
