package civil

import "testing"

func TestPeriodContainsBothEnds(t *testing.T) {
	p := Period{From: day(t, "2026-02-28"), To: day(t, "2026-03-30")}
	for d, want := range map[string]bool{
		"2026-02-27": false, "2026-02-28": true, "2026-03-15": true, "2026-03-30": true, "2026-03-31": false,
	} {
		if p.Contains(day(t, d)) != want {
			t.Errorf("%s in %s–%s: want %v", d, p.From, p.To, want)
		}
	}
}
