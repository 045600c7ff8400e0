package webhook

import (
	"hash/fnv"
	"strconv"
	"time"
)

// maxJitter is the largest share of a delay added as jitter, so that
// deliveries failing together do not all retry at the same instant.
const maxJitter = 0.1

// Delays turns the configured retry schedule into the waits of one
// delivery: each non-zero delay gets up to 10 % more, derived from the
// delivery's workflow id and the attempt number, so the same delivery always
// gets the same waits (the workflow stays deterministic) while different
// deliveries spread out.
func Delays(schedule []time.Duration, workflowID string) []time.Duration {
	delays := make([]time.Duration, len(schedule))
	for i, d := range schedule {
		if d <= 0 {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(workflowID))
		h.Write([]byte("/" + strconv.Itoa(i)))
		fraction := float64(h.Sum64()%10_000) / 10_000
		delays[i] = d + time.Duration(float64(d)*maxJitter*fraction)
	}
	return delays
}
