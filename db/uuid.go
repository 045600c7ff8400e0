package db

import (
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// encodeUUIDsAsBytes makes pgx encode google/uuid values as the 16 bytes
// they are. Left to itself pgx takes them for driver.Valuers: every value
// became a string that was parsed back into bytes, with an error built and
// dropped on the way, and the UUID columns of a COPY cost more CPU than all
// the other columns together.
func encodeUUIDsAsBytes(m *pgtype.Map) {
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{wrapUUID}, m.TryWrapEncodePlanFuncs...)
}

func wrapUUID(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	switch u := value.(type) {
	case uuid.UUID:
		return &uuidAsBytes{}, [16]byte(u), true
	case *uuid.UUID:
		// An optional UUID column (products.import_id) would take the
		// detour with every row.
		return &uuidPointerAsBytes{}, (*[16]byte)(u), true
	}
	return nil, nil, false
}

// uuidAsBytes hands a UUID's bytes to the plan for [16]byte.
type uuidAsBytes struct{ next pgtype.EncodePlan }

func (p *uuidAsBytes) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *uuidAsBytes) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode([16]byte(value.(uuid.UUID)), buf)
}

// uuidPointerAsBytes hands an optional UUID's bytes, or NULL, to the plan
// for *[16]byte.
type uuidPointerAsBytes struct{ next pgtype.EncodePlan }

func (p *uuidPointerAsBytes) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *uuidPointerAsBytes) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode((*[16]byte)(value.(*uuid.UUID)), buf)
}
