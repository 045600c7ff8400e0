package keyring

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// secretOf is a test secret filled with one byte.
func secretOf(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

// specOf is the configured form of a test key.
func specOf(id string, b byte) string {
	return id + ":" + base64.StdEncoding.EncodeToString(secretOf(b))
}

// mustRing is the ring of configured keys, failing the test otherwise.
func mustRing(t *testing.T, specs ...string) *Ring {
	t.Helper()
	r, err := Parse(specs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSealThenOpenGivesThePlaintextBack(t *testing.T) {
	r := mustRing(t, specOf("2026-11", 1))
	for _, plain := range []string{"", "DE89370400440532013000", strings.Repeat("x", 10_000)} {
		sealed := r.Seal([]byte(plain), []byte("row-1"))
		if plain != "" && bytes.Contains(sealed, []byte(plain)) {
			t.Errorf("the sealed value carries the plaintext %q", plain)
		}
		if !bytes.HasPrefix(sealed, []byte("\x01\x072026-11")) {
			t.Errorf("the sealed value does not start with its key id: %q", sealed[:10])
		}
		got, err := r.Open(sealed, []byte("row-1"))
		if err != nil || string(got) != plain {
			t.Errorf("open: %q, %v", got, err)
		}
	}
	if a, b := r.Seal([]byte("same"), nil), r.Seal([]byte("same"), nil); bytes.Equal(a, b) {
		t.Error("two seals of the same value are equal: the nonce repeats")
	}
}

func TestRotationOpensOldValuesAndSealsWithTheNewKey(t *testing.T) {
	before := mustRing(t, specOf("k1", 1))
	old := before.Seal([]byte("DE89370400440532013000"), []byte("mandate-7"))

	after := mustRing(t, specOf("k2", 2), specOf("k1", 1))
	if got, err := after.Open(old, []byte("mandate-7")); err != nil || string(got) != "DE89370400440532013000" {
		t.Fatalf("the rotated ring does not open the old value: %q, %v", got, err)
	}
	fresh := after.Seal([]byte("DE89370400440532013000"), []byte("mandate-7"))
	for _, tc := range []struct {
		name    string
		value   []byte
		id      string
		changed bool
	}{
		{"old", old, "k1", true},
		{"fresh", fresh, "k2", false},
	} {
		if got, err := after.KeyID(tc.value, []byte("mandate-7")); got != tc.id || err != nil {
			t.Errorf("%s: KeyID %q, %v, want %q", tc.name, got, err, tc.id)
		}
		resealed, changed, err := after.Reseal(tc.value, []byte("mandate-7"))
		if err != nil || changed != tc.changed {
			t.Errorf("%s: Reseal changed %v, %v, want %v", tc.name, changed, err, tc.changed)
		}
		if id, _ := after.KeyID(resealed, []byte("mandate-7")); id != "k2" {
			t.Errorf("%s: resealed with %q", tc.name, id)
		}
	}
	if _, _, err := after.Reseal(old, []byte("mandate-8")); !errors.Is(err, ErrOpen) {
		t.Errorf("Reseal for another record: %v", err)
	}
	if after.CurrentID() != "k2" {
		t.Errorf("current key %q", after.CurrentID())
	}

	retired := mustRing(t, specOf("k2", 2))
	if _, err := retired.Open(old, []byte("mandate-7")); !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), `"k1"`) {
		t.Errorf("a value of a removed key: %v, want ErrUnknownKey naming k1", err)
	}
	if got, err := retired.Open(fresh, []byte("mandate-7")); err != nil || string(got) != "DE89370400440532013000" {
		t.Errorf("the value sealed again opens without the old key: %q, %v", got, err)
	}
}

func TestTamperedValuesDoNotOpen(t *testing.T) {
	r := mustRing(t, specOf("k1", 1), specOf("k0", 9))
	sealed := r.Seal([]byte("DE89370400440532013000"), []byte("row-1"))
	other := mustRing(t, specOf("k1", 3))

	// Every single bit flipped anywhere: header, nonce, ciphertext, tag.
	for i := range sealed {
		for bit := range 8 {
			changed := bytes.Clone(sealed)
			changed[i] ^= 1 << bit
			if got, err := r.Open(changed, []byte("row-1")); err == nil {
				t.Fatalf("byte %d bit %d flipped still opens: %q", i, bit, got)
			}
		}
	}
	relabelled := bytes.Clone(sealed)
	copy(relabelled[2:4], "k0")
	for _, tc := range []struct {
		name    string
		ring    *Ring
		value   []byte
		context string
		want    error
	}{
		{"another record", r, sealed, "row-2", ErrOpen},
		{"no context", r, sealed, "", ErrOpen},
		{"relabelled with another key's id", r, relabelled, "row-1", ErrOpen},
		{"the same id with another secret", other, sealed, "row-1", ErrOpen},
		{"truncated to its header", r, sealed[:4], "row-1", ErrOpen},
		{"truncated before the tag ends", r, sealed[:len(sealed)-1], "row-1", ErrOpen},
		{"empty", r, nil, "row-1", ErrOpen},
		{"appended to", r, append(bytes.Clone(sealed), 0), "row-1", ErrOpen},
	} {
		if got, err := tc.ring.Open(tc.value, []byte(tc.context)); !errors.Is(err, tc.want) {
			t.Errorf("%s: %q, %v, want %v", tc.name, got, err, tc.want)
		}
	}
}

// legacySeal is how webhook secrets were sealed before key ids: AES-GCM,
// nonce | ciphertext and tag, the context as additional data.
func legacySeal(t *testing.T, secret []byte, nonce, plain, context []byte) []byte {
	t.Helper()
	block, err := aes.NewCipher(secret)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	return aead.Seal(bytes.Clone(nonce), nonce, plain, context)
}

func TestTheUnlabelledKeyOpensValuesWithoutAHeader(t *testing.T) {
	legacy, err := Unlabelled(secretOf(7))
	if err != nil {
		t.Fatal(err)
	}
	current, err := NewKey("k1", secretOf(1))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(current, legacy)
	if err != nil {
		t.Fatal(err)
	}
	// Nonces that look like a header of a known key, of an unknown key,
	// and none at all: the unlabelled key opens each.
	for _, nonce := range [][]byte{
		[]byte("\x01\x02k1nonce!!!"), []byte("\x01\x02zzabcdefgh"), bytes.Repeat([]byte{0xAB}, 12),
	} {
		old := legacySeal(t, secretOf(7), nonce, []byte("whsec_abc"), []byte("endpoint-1"))
		if got, err := r.Open(old, []byte("endpoint-1")); err != nil || string(got) != "whsec_abc" {
			t.Errorf("nonce %q: %q, %v", nonce, got, err)
		}
		if id, err := r.KeyID(old, []byte("endpoint-1")); id != "" || err != nil {
			t.Errorf("nonce %q: attributed to key %q, %v", nonce, id, err)
		}
		if _, changed, err := r.Reseal(old, []byte("endpoint-1")); !changed || err != nil {
			t.Errorf("nonce %q: an unlabelled value is not sealed again under a labelled current key: %v", nonce, err)
		}
	}

	// An unlabelled current key seals in the old form, so code that only
	// knows the old form still reads it.
	alone, err := New(legacy)
	if err != nil {
		t.Fatal(err)
	}
	sealed := alone.Seal([]byte("whsec_abc"), []byte("endpoint-1"))
	block, _ := aes.NewCipher(secretOf(7))
	aead, _ := cipher.NewGCM(block)
	if got, err := aead.Open(nil, sealed[:12], sealed[12:], []byte("endpoint-1")); err != nil || string(got) != "whsec_abc" {
		t.Errorf("the old form does not read the unlabelled key's value: %q, %v", got, err)
	}
	if _, changed, _ := alone.Reseal(sealed, []byte("endpoint-1")); changed || alone.CurrentID() != "" {
		t.Errorf("resealed %v, current %q", changed, alone.CurrentID())
	}
}

func TestConfigurationMistakesAreNamedWithoutTheSecret(t *testing.T) {
	secret := base64.StdEncoding.EncodeToString(secretOf(5))
	for _, tc := range []struct {
		name  string
		specs []string
		want  string
	}{
		{"nothing", nil, "no key is configured"},
		{"no colon", []string{secret}, "key 1: a key is written id:base64"},
		{"no id", []string{":" + secret}, "key 1: a key id has 1 to 64 characters"},
		{"a space in the id", []string{"k 1:" + secret}, `key 1: key id "k 1": only letters`},
		{"a long id", []string{strings.Repeat("k", 65) + ":" + secret}, "key 1: a key id has 1 to 64 characters, got 65"},
		{"not base64", []string{specOf("k1", 1), "k2:!!!"}, `key 2: key "k2": the secret is not standard base64`},
		{"too short", []string{"k1:" + base64.StdEncoding.EncodeToString(secretOf(1)[:16])}, `key 1: key "k1": the secret has 16 bytes, want 32`},
		{"a duplicate id", []string{specOf("k1", 1), specOf("k1", 2)}, `two keys have the id "k1"`},
	} {
		_, err := Parse(tc.specs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error shows the secret", tc.name)
		}
	}
	a, _ := Unlabelled(secretOf(1))
	b, _ := Unlabelled(secretOf(2))
	if _, err := New(a, b); err == nil {
		t.Error("a ring took two unlabelled keys")
	}
	if _, err := New(Key{}); err == nil {
		t.Error("a ring took a key it cannot use")
	}
	if _, err := Unlabelled(secretOf(1)[:31]); err == nil {
		t.Error("an unlabelled key took a short secret")
	}
}

func TestGeneratedSpecsParseAndDiffer(t *testing.T) {
	a, err := GenerateSpec("2026-11")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateSpec("2026-11")
	if a == b {
		t.Error("two generated keys are equal")
	}
	r := mustRing(t, a)
	if r.CurrentID() != "2026-11" {
		t.Errorf("current %q", r.CurrentID())
	}
	if got, err := r.Open(r.Seal([]byte("x"), nil), nil); err != nil || string(got) != "x" {
		t.Errorf("%q %v", got, err)
	}
	if _, err := GenerateSpec("no spaces"); err == nil {
		t.Error("a key was generated with an id that cannot be configured")
	}
}
