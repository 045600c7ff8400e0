package keyring

import (
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
)

// version starts every value sealed by a labelled key.
const version = 0x01

// ErrUnknownKey refuses a value sealed with a key the ring does not hold
// (removed from the configuration too early).
var ErrUnknownKey = errors.New("sealed with a key that is not configured")

// ErrOpen refuses a value no key of the ring opens: changed after it was
// sealed, sealed for another context, or sealed with another secret under
// the same id.
var ErrOpen = errors.New("the sealed value does not open: it was changed, belongs to another record, or the key's secret differs")

// Ring is the current key, which seals, and the older keys, which only
// open. It is safe for concurrent use.
type Ring struct {
	current    Key
	labelled   map[string]Key
	unlabelled *Key
}

// New is a ring sealing with current and opening with current and older.
// Ids must be unique; at most one key may be unlabelled.
func New(current Key, older ...Key) (*Ring, error) {
	r := &Ring{current: current, labelled: map[string]Key{}}
	for _, k := range append([]Key{current}, older...) {
		if k.aead == nil {
			return nil, errors.New("a key of the ring was not made by NewKey, ParseKey or Unlabelled")
		}
		if k.id == "" {
			if r.unlabelled != nil {
				return nil, errors.New("a ring holds at most one unlabelled key")
			}
			r.unlabelled = &k
			continue
		}
		if _, dup := r.labelled[k.id]; dup {
			return nil, fmt.Errorf("two keys have the id %q", k.id)
		}
		r.labelled[k.id] = k
	}
	return r, nil
}

// Parse is the ring of configured keys ("id:base64" each), the first the
// current one. An error names the entry by its position and id, never the
// secret.
func Parse(specs []string) (*Ring, error) {
	if len(specs) == 0 {
		return nil, errors.New("no key is configured")
	}
	keys := make([]Key, len(specs))
	for i, spec := range specs {
		k, err := ParseKey(spec)
		if err != nil {
			return nil, fmt.Errorf("key %d: %w", i+1, err)
		}
		keys[i] = k
	}
	return New(keys[0], keys[1:]...)
}

// CurrentID is the id of the key that seals.
func (r *Ring) CurrentID() string { return r.current.id }

// Seal encrypts plaintext with the current key, bound to context: Open
// needs the same context (a record's id, so a value cannot be moved to
// another record).
func (r *Ring) Seal(plaintext, context []byte) []byte {
	k := r.current
	header := headerOf(k.id)
	nonce := make([]byte, k.aead.NonceSize())
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+).
	out := slices.Concat(header, nonce)
	return k.aead.Seal(out, nonce, plaintext, slices.Concat(header, context))
}

// Open decrypts what Seal produced with any key of the ring, for the same
// context.
func (r *Ring) Open(sealed, context []byte) ([]byte, error) {
	plain, _, err := r.open(sealed, context)
	return plain, err
}

// KeyID is the id of the ring's key that opens a value ("" for the
// unlabelled key); it decrypts to be sure, since an unlabelled value's
// random nonce may look like a header.
func (r *Ring) KeyID(sealed, context []byte) (string, error) {
	_, k, err := r.open(sealed, context)
	return k.id, err
}

// Reseal is the value sealed with the current key, and whether that
// changed it: a rotation job calls it on every stored value and writes
// back the changed ones, after which the older keys can be removed.
func (r *Ring) Reseal(sealed, context []byte) ([]byte, bool, error) {
	plain, k, err := r.open(sealed, context)
	if err != nil {
		return nil, false, err
	}
	if k.id == r.current.id {
		return sealed, false, nil
	}
	return r.Seal(plain, context), true, nil
}

// open decrypts a value with the key it names, else with the unlabelled
// key, and says which one opened it.
func (r *Ring) open(sealed, context []byte) ([]byte, Key, error) {
	id, rest, labelled := parseHeader(sealed)
	if labelled {
		if k, ok := r.labelled[id]; ok {
			if plain, err := openWith(k, rest, slices.Concat(sealed[:len(sealed)-len(rest)], context)); err == nil {
				return plain, k, nil
			}
		}
	}
	// No header, or one that happens to come from the random nonce of an
	// unlabelled value: the unlabelled key tries the whole value.
	if r.unlabelled != nil {
		if plain, err := openWith(*r.unlabelled, sealed, context); err == nil {
			return plain, *r.unlabelled, nil
		}
	}
	if _, known := r.labelled[id]; labelled && !known {
		return nil, Key{}, fmt.Errorf("%w: key %q", ErrUnknownKey, id)
	}
	return nil, Key{}, ErrOpen
}

// headerOf is the header of a labelled key's values; none for the
// unlabelled key.
func headerOf(id string) []byte {
	if id == "" {
		return nil
	}
	return append([]byte{version, byte(len(id))}, id...)
}

// parseHeader splits a labelled value into its key id and the rest
// (nonce, ciphertext and tag).
func parseHeader(sealed []byte) (id string, rest []byte, ok bool) {
	if len(sealed) < 2 || sealed[0] != version {
		return "", nil, false
	}
	n := int(sealed[1])
	if n == 0 || n > maxIDLength || len(sealed) < 2+n {
		return "", nil, false
	}
	id = string(sealed[2 : 2+n])
	if checkID(id) != nil {
		return "", nil, false
	}
	return id, sealed[2+n:], true
}

// openWith decrypts nonce | ciphertext and tag with one key.
func openWith(k Key, sealed, additional []byte) ([]byte, error) {
	n := k.aead.NonceSize()
	if len(sealed) < n+k.aead.Overhead() {
		return nil, ErrOpen
	}
	return k.aead.Open(nil, sealed[:n], sealed[n:], additional)
}
