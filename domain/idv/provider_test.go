package idv

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

const secret = "provider-secret-0123456789abcdef0123"

func TestLinkFollowsTheDocumentedFormat(t *testing.T) {
	p := NewProvider("idv.example", "https://idv.example/start?tenant=7", secret, 30*time.Minute)
	expires := time.Unix(1_900_000_000, 0)
	link, err := p.Link("s-1", "https://tenure.example/checkout/offers/o-1?idv_session=s-1", expires)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	q := u.Query()
	if u.Host != "idv.example" || q.Get("tenant") != "7" || q.Get("session_id") != "s-1" {
		t.Fatalf("link %s", link)
	}
	// What a provider computes from the contract's description alone.
	mac := hmac.New(sha256.New, []byte(secret))
	subject := q.Get("session_id") + " " + q.Get("return_url")
	exp := strconv.FormatInt(expires.Unix(), 10)
	for _, part := range []string{"idv-session", subject, exp} {
		mac.Write([]byte(strconv.Itoa(len(part)) + ":" + part))
	}
	if want := exp + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)); q.Get("signature") != want {
		t.Errorf("signature %s, want %s", q.Get("signature"), want)
	}
}

func TestVerifyLink(t *testing.T) {
	p := NewProvider("x", "https://idv.example", secret, time.Minute)
	link, _ := p.Link("s-1", "https://back.example", time.Now().Add(time.Minute))
	q, _ := url.ParseQuery(strings.SplitN(link, "?", 2)[1])
	if err := p.VerifyLink(q.Get("session_id"), q.Get("return_url"), q.Get("signature")); err != nil {
		t.Errorf("own link refused: %v", err)
	}
	if err := p.VerifyLink(q.Get("session_id"), "https://evil.example", q.Get("signature")); !errors.Is(err, ErrBadSignature) {
		t.Errorf("a changed return URL passes: %v", err)
	}
	old, _ := p.Link("s-1", "https://back.example", time.Now().Add(-time.Second))
	q, _ = url.ParseQuery(strings.SplitN(old, "?", 2)[1])
	if err := p.VerifyLink("s-1", "https://back.example", q.Get("signature")); !errors.Is(err, ErrLinkExpired) {
		t.Errorf("an expired link passes: %v", err)
	}
}

func TestCallbackSignature(t *testing.T) {
	p := NewProvider("x", "https://idv.example", secret, time.Minute)
	body := []byte(`{"session_id":"s-1","result":"verified"}`)
	now := time.Now()
	header := p.SignCallback(body, now)
	if err := p.VerifyCallback(body, header); err != nil {
		t.Fatalf("own signature refused: %v", err)
	}
	// A provider's own computation, as the contract describes it.
	mac := hmac.New(sha256.New, []byte(secret))
	ts := strconv.FormatInt(now.Unix(), 10)
	mac.Write([]byte(ts + "." + string(body)))
	manual := "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
	if manual != header {
		t.Errorf("header %s, want %s", header, manual)
	}
	if err := p.VerifyCallback(body, "t="+ts+",v1=00,v1="+hex.EncodeToString(mac.Sum(nil))); err != nil {
		t.Errorf("any matching v1 is accepted: %v", err)
	}
	other := NewProvider("x", "https://idv.example", strings.Repeat("z", 32), time.Minute)
	for name, c := range map[string]struct {
		body   []byte
		header string
		want   error
	}{
		"tampered body": {[]byte(`{"session_id":"s-1","result":"failed"}`), header, ErrBadSignature},
		"other secret":  {body, other.SignCallback(body, now), ErrBadSignature},
		"missing":       {body, "", ErrBadSignature},
		"no timestamp":  {body, "v1=" + strings.Repeat("0", 64), ErrBadSignature},
		"stale":         {body, p.SignCallback(body, now.Add(-10*time.Minute)), ErrStale},
		"future":        {body, p.SignCallback(body, now.Add(10*time.Minute)), ErrStale},
	} {
		if err := p.VerifyCallback(c.body, c.header); !errors.Is(err, c.want) {
			t.Errorf("%s: want %v, got %v", name, c.want, err)
		}
	}
}

func TestRequirement(t *testing.T) {
	now := time.Now()
	live, expired := now.Add(time.Minute), now.Add(-time.Minute)
	for _, c := range []struct {
		required bool
		latest   *Session
		want     Result
		accepts  bool
	}{
		{false, nil, NotRequired, true},
		{true, nil, Required, false},
		{true, &Session{Status: SessionPending, LinkExpiresAt: live}, Pending, false},
		{true, &Session{Status: SessionPending, LinkExpiresAt: expired}, Required, false},
		{false, &Session{Status: SessionPending, LinkExpiresAt: expired}, NotRequired, true},
		{true, &Session{Status: SessionVerified, LinkExpiresAt: expired}, Verified, true},
		{true, &Session{Status: SessionFailed, LinkExpiresAt: live}, Failed, false},
		// A verification that happened shows its state, and holds up no
		// offer the rules do not require it for.
		{false, &Session{Status: SessionFailed, LinkExpiresAt: live}, Failed, true},
		{false, &Session{Status: SessionVerified, LinkExpiresAt: live}, Verified, true},
	} {
		if got := Requirement(c.required, c.latest, now); got != c.want {
			t.Errorf("Requirement(%v, %+v) = %s, want %s", c.required, c.latest, got, c.want)
		}
		if got := AllowsAcceptance(c.required, c.latest, now); got != c.accepts {
			t.Errorf("AllowsAcceptance(%v, %+v) = %v, want %v", c.required, c.latest, got, c.accepts)
		}
	}
}
