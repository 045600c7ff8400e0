// Package keyring encrypts values at rest with AES-256-GCM under a ring of
// keys that can be rotated: the current key seals, every key of the ring
// opens what it sealed, so a second (older) key keeps old rows readable
// while they are sealed again with the new one.
//
// # The sealed form
//
// A value sealed by a labelled key is
//
//	0x01 | len(id) | id | nonce (12 bytes) | ciphertext and tag
//
// The header (version, id) is authenticated with the caller's context
// (the row's id, say), so a sealed value can be neither moved to another
// row nor relabelled with another key's id. Nonces are random: 2^32 values
// per key stay far inside AES-GCM's bounds, and rotating keys resets the
// count.
//
// A value sealed by the unlabelled key has no header: nonce | ciphertext
// and tag, its context alone authenticated. That is the form webhook
// signing secrets were sealed in before this package existed; a ring may
// hold one unlabelled key so those rows stay readable, and Reseal moves
// them to the current key.
//
// # Configuration
//
// A key is configured as "id:base64" (32 random bytes, standard base64),
// e.g. "2026-11:q3B…=". Parse takes a list, the current key first; the
// id is stored with each value, so removing a key from the list makes
// exactly the values sealed with it unreadable. GenerateSpec makes a
// fresh one for `tenure dev` and operators.
package keyring
