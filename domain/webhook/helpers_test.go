package webhook_test

import (
	"net/url"
	"testing"

	"github.com/google/uuid"
)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func mustUUID(t *testing.T, s string) uuid.UUID {
	t.Helper()
	id, err := uuid.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func uuidOther() uuid.UUID { return uuid.Must(uuid.NewV7()) }

func hostOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}
