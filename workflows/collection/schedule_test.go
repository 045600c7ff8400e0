package collection_test

import (
	"testing"

	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/collection"
)

// The worker creates the daily runs' Schedule at collections.run_at in
// the contracts' zone, and moves it when the setting changes.
func TestTheScheduleFollowsRunAt(t *testing.T) {
	tc := testenv.Temporal(t)
	cfg := testenv.Config(t)
	for _, runAt := range []string{"06:00", "05:30"} {
		cfg.Collections.RunAt = runAt
		if err := collection.EnsureSchedule(t.Context(), tc, cfg); err != nil {
			t.Fatalf("run_at %s: %v", runAt, err)
		}
	}
	d, err := tc.ScheduleClient().GetHandle(t.Context(), collection.ScheduleID).Describe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	spec := d.Schedule.Spec
	if len(spec.Calendars) != 1 || spec.Calendars[0].Hour[0].Start != 5 || spec.Calendars[0].Minute[0].Start != 30 || spec.TimeZoneName != "Europe/Berlin" {
		t.Errorf("the schedule's spec: %+v in %q, want 05:30 in Europe/Berlin", spec.Calendars, spec.TimeZoneName)
	}
}
