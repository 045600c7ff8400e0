package sepa

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Scheme is the SEPA direct debit scheme a mandate is signed under, the
// local instrument of its collections.
type Scheme string

// The schemes: Core for consumers and businesses (the debtor may ask for a
// refund for 8 weeks), B2B for businesses only (no refund; the debtor's
// bank checks the mandate).
const (
	Core Scheme = "CORE"
	B2B  Scheme = "B2B"
)

// ParseScheme reads a scheme by its code, CORE or B2B.
func ParseScheme(s string) (Scheme, error) {
	switch sc := Scheme(strings.ToUpper(strings.TrimSpace(s))); sc {
	case Core, B2B:
		return sc, nil
	}
	return "", fmt.Errorf("the SEPA direct debit scheme is CORE or B2B, got %q", s)
}

// SequenceType says where a collection stands in its mandate's life.
type SequenceType string

// FRST is a mandate's first collection, RCUR every later one. (Since the
// 2016 rulebooks a first collection may also go as RCUR; Tenure marks it,
// as banks still report on it.)
const (
	First     SequenceType = "FRST"
	Recurring SequenceType = "RCUR"
)

// MandateReference identifies a mandate together with its creditor
// identifier: at most 35 characters of the SEPA set (charset.go), neither
// starting nor ending with '/' nor containing "//". It must be unique per
// creditor; some banks compare case-insensitively, so unique in upper case
// is the safe rule (MandateReferenceFor keeps to it).
type MandateReference string

// ParseMandateReference checks a mandate reference.
func ParseMandateReference(s string) (MandateReference, error) {
	if err := checkIdentifier("a mandate reference", s, 35); err != nil {
		return "", err
	}
	return MandateReference(s), nil
}

// MandateReferenceFor is the mandate reference of a mandate's id: "TNR"
// and the id's 32 hexadecimal digits in upper case (35 characters), unique
// as the id is, and readable back into it by support staff.
func MandateReferenceFor(mandate uuid.UUID) MandateReference {
	return MandateReference("TNR" + upperHex(mandate))
}

// EndToEndID is the creditor's reference of one collection or transfer,
// returned with it by every bank on the way: at most 35 characters of the
// SEPA set, with the rules of identifiers.
type EndToEndID string

// ParseEndToEndID checks an end-to-end id.
func ParseEndToEndID(s string) (EndToEndID, error) {
	if err := checkIdentifier("an end-to-end id", s, 35); err != nil {
		return "", err
	}
	return EndToEndID(s), nil
}

// maxAttempts bounds the collection attempts of one installment, so an
// attempt number has at most two digits and the id 35 characters.
const maxAttempts = 99

// CollectionID is the end-to-end id of the attempt-th collection of an
// installment (or a charge): its id's 32 hexadecimal digits in upper
// case, "-", the attempt (1 to 99). Each attempt has its own id, so a bank
// return names the attempt it answers; ParseCollectionID reads it back.
func CollectionID(installment uuid.UUID, attempt int) (EndToEndID, error) {
	if attempt < 1 || attempt > maxAttempts {
		return "", fmt.Errorf("a collection attempt is 1 to %d, got %d", maxAttempts, attempt)
	}
	return EndToEndID(fmt.Sprintf("%s-%d", upperHex(installment), attempt)), nil
}

// ParseCollectionID reads the installment and the attempt back from an
// end-to-end id CollectionID made.
func ParseCollectionID(id EndToEndID) (uuid.UUID, int, error) {
	refused := fmt.Errorf("%q is not an end-to-end id of a Tenure collection", id)
	digits, number, found := strings.Cut(string(id), "-")
	if !found || len(digits) != 32 || digits != strings.ToUpper(digits) {
		return uuid.UUID{}, 0, refused
	}
	// The id's 32 hexadecimal digits are the installment's 16 bytes, not
	// a record id as the APIs spell it (package recordid).
	var installment uuid.UUID
	if _, err := hex.Decode(installment[:], []byte(digits)); err != nil {
		return uuid.UUID{}, 0, refused
	}
	attempt, err := strconv.Atoi(number)
	if err != nil || strconv.Itoa(attempt) != number || attempt < 1 || attempt > maxAttempts {
		return uuid.UUID{}, 0, refused
	}
	return installment, attempt, nil
}

// upperHex is an id's 32 hexadecimal digits in upper case.
func upperHex(id uuid.UUID) string {
	return strings.ToUpper(strings.ReplaceAll(id.String(), "-", ""))
}
