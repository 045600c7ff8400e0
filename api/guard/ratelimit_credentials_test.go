package guard

import (
	"fmt"
	"testing"
	"time"
)

func TestCredentialThrottleBudgets(t *testing.T) {
	c := newClock()
	throttle := newCredentialThrottle(c.now)
	for i := range pairFailures {
		if _, ok := throttle.attempt("tnr_a", "192.0.2.1"); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	wait, ok := throttle.attempt("tnr_a", "192.0.2.1")
	if ok || wait != pairRefill {
		t.Fatalf("after %d failures: ok %v, wait %s", pairFailures, ok, wait)
	}
	if _, ok := throttle.attempt("tnr_a", "198.51.100.1"); !ok {
		t.Error("the same client from another address is not throttled")
	}
	if _, ok := throttle.attempt("tnr_b", "192.0.2.1"); !ok {
		t.Error("another client from the same address is not throttled yet")
	}
	c.advance(pairRefill)
	if _, ok := throttle.attempt("tnr_a", "192.0.2.1"); !ok {
		t.Error("one more attempt a minute")
	}

	// Failures for many client ids from one address spend its budget.
	for i := range addressFailures {
		if _, ok := throttle.attempt(fmt.Sprintf("tnr_%d", i), "192.0.2.50"); !ok {
			t.Fatalf("attempt %d of the address refused", i+1)
		}
	}
	if wait, ok := throttle.attempt("tnr_new", "192.0.2.50"); ok || wait != addressRefill {
		t.Errorf("the address has spent its %d failures: ok %v, wait %s", addressFailures, ok, wait)
	}
	if _, ok := throttle.attempt("tnr_new", "203.0.113.9"); !ok {
		t.Error("other addresses keep their budget")
	}

	// A right secret forgives the pair and gives the attempt back.
	throttle.succeeded("tnr_new", "203.0.113.9")
	for i := range pairFailures {
		if _, ok := throttle.attempt("tnr_new", "203.0.113.9"); !ok {
			t.Fatalf("after a success, attempt %d refused", i+1)
		}
	}
}

func TestCredentialThrottleBoundsConcurrentComparisons(t *testing.T) {
	throttle := newCredentialThrottle(time.Now)
	throttle.slotWait = 10 * time.Millisecond
	for range cap(throttle.slots) {
		throttle.slots <- struct{}{}
	}
	ran := false
	if _, compared := throttle.compare(func() bool { ran = true; return true }); compared || ran {
		t.Error("a comparison ran without a free slot")
	}
	<-throttle.slots
	if matched, compared := throttle.compare(func() bool { return true }); !compared || !matched {
		t.Error("a free slot runs the comparison")
	}
	if len(throttle.slots) != cap(throttle.slots)-1 {
		t.Error("a comparison gives its slot back")
	}
}

func TestCredentialThrottleMemoryIsBounded(t *testing.T) {
	throttle := newCredentialThrottle(time.Now)
	// Every attempt from a new address with a new client id, as a botnet
	// would send them.
	for i := range 2 * maxBuckets {
		address := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
		throttle.attempt(fmt.Sprintf("tnr_%024x", i), address)
	}
	if p, a := throttle.pairs.size(), throttle.addresses.size(); p != maxBuckets || a != maxBuckets {
		t.Errorf("the throttle holds %d pairs and %d addresses; its bound is %d each", p, a, maxBuckets)
	}
}
