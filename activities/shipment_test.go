package activities_test

import (
	"encoding/json"
	"testing"

	"github.com/tenurehq/tenure/activities"
)

// What the shipping activity answered before it reported completeness (the
// order's new status, recorded in histories) and what it answers now both
// decode.
func TestOrderShippedDecodesBothShapes(t *testing.T) {
	for raw, want := range map[string]bool{
		`"completed"`:           true,
		`"partially_fulfilled"`: false,
		`{"Complete":true}`:     true,
		`{"Complete":false}`:    false,
	} {
		var got activities.OrderShipped
		if err := json.Unmarshal([]byte(raw), &got); err != nil || got.Complete != want {
			t.Errorf("%s: %+v %v", raw, got, err)
		}
	}
	if err := json.Unmarshal([]byte(`[1]`), new(activities.OrderShipped)); err == nil {
		t.Error("a list decoded")
	}
}
