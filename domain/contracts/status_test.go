package contracts

import "testing"

func TestContractStatusesFinalAndActive(t *testing.T) {
	for _, tc := range []struct {
		status        Status
		final, active bool
	}{
		{AwaitingDelivery, false, false},
		{Running, false, true},
		{Ending, false, true},
		{Monthly, false, true},
		{Returned, true, false},
		{BoughtOut, true, false},
		{Terminated, true, false},
		{Canceled, true, false},
		{Defaulted, false, false}, // waits for an operator
		{WrittenOff, true, false},
	} {
		if tc.status.Final() != tc.final || tc.status.Active() != tc.active || !tc.status.Known() {
			t.Errorf("%s: final %v active %v known %v, want %v %v true", tc.status, tc.status.Final(), tc.status.Active(), tc.status.Known(), tc.final, tc.active)
		}
	}
	seen := map[Status]bool{}
	for _, s := range Statuses {
		if seen[s] {
			t.Errorf("%s is listed twice", s)
		}
		seen[s] = true
	}
	if len(seen) != 10 {
		t.Errorf("%d statuses, want 10", len(seen))
	}
	if unknown := Status("paused"); unknown.Known() || unknown.Final() || unknown.Active() {
		t.Error("an unknown status is known, final or active")
	}
}
