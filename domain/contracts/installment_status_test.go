package contracts

import (
	"strings"
	"testing"
)

func TestInstallmentMovesAreExactlyTheTable(t *testing.T) {
	allowed := map[[2]InstallmentStatus]bool{
		{InstallmentScheduled, InstallmentDue}:    true,
		{InstallmentScheduled, InstallmentWaived}: true,
		{InstallmentDue, InstallmentPaid}:         true,
		{InstallmentDue, InstallmentFailed}:       true,
		{InstallmentDue, InstallmentWaived}:       true,
		{InstallmentFailed, InstallmentPaid}:      true,
		{InstallmentFailed, InstallmentWaived}:    true,
		{InstallmentPaid, InstallmentFailed}:      true,
	}
	for _, from := range installmentStatuses {
		for _, to := range installmentStatuses {
			want := allowed[[2]InstallmentStatus{from, to}]
			if from.CanMoveTo(to) != want {
				t.Errorf("%s → %s: allowed %v, want %v", from, to, from.CanMoveTo(to), want)
			}
			moved, err := Installment{Number: 3, Status: from}.MoveTo(to)
			switch {
			case want && (err != nil || moved.Status != to):
				t.Errorf("%s → %s: %+v, %v", from, to, moved, err)
			case !want && (err == nil || moved.Status != from):
				t.Errorf("%s → %s was made: %+v", from, to, moved)
			case !want && !strings.Contains(err.Error(), "installments with status="+string(from)+" cannot become "+string(to)):
				t.Errorf("%s → %s refused with %q", from, to, err)
			}
		}
	}
}

func TestInstallmentStatusesOwedAndFinal(t *testing.T) {
	for _, tc := range []struct {
		status      InstallmentStatus
		owed, final bool
	}{
		{InstallmentScheduled, false, false},
		{InstallmentDue, true, false},
		{InstallmentPaid, false, false}, // a debit can still be returned
		{InstallmentFailed, true, false},
		{InstallmentWaived, false, true},
	} {
		if tc.status.Owed() != tc.owed || tc.status.Final() != tc.final {
			t.Errorf("%s: owed %v final %v, want %v %v", tc.status, tc.status.Owed(), tc.status.Final(), tc.owed, tc.final)
		}
	}
}
