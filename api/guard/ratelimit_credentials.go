package guard

import (
	"runtime"
	"time"
)

// The budgets of failed client authentications. Client secrets are 256
// random bits, so nobody guesses one; what a stream of wrong secrets can do
// is burn the API's CPU (each costs a bcrypt comparison of 50–80 ms)
// and, if failures counted per client id alone, lock a seller out from
// anywhere. So failures count per client id and address together, and per
// address: an attacker spends only the budgets of the addresses it sends
// from, and a seller's own address keeps its budget whatever others try.
const (
	// pairFailures wrong secrets for one client id from one address, then
	// one more a minute.
	pairFailures = 5
	pairRefill   = time.Minute
	// addressFailures failed authentications from one address, whatever
	// the client ids, then one more every ten seconds.
	addressFailures = 20
	addressRefill   = 10 * time.Second
	// slotWait is how long an attempt waits for a comparison slot.
	slotWait = 5 * time.Second
)

// credentialThrottle decides which token requests may have their secret
// compared. An attempt spends one failure of both budgets before the
// comparison, so concurrent attempts cannot overdraw them, and gets both
// back when the secret was right. Comparisons run in at most half the
// processor's cores, so even attempts from many addresses leave the rest
// of the API room to work.
type credentialThrottle struct {
	pairs     *bucketTable
	addresses *bucketTable
	slots     chan struct{}
	slotWait  time.Duration
}

func newCredentialThrottle(now func() time.Time) *credentialThrottle {
	return &credentialThrottle{
		pairs:     newBucketTable(pairRefill, pairFailures, maxBuckets, now),
		addresses: newBucketTable(addressRefill, addressFailures, maxBuckets, now),
		slots:     make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)),
		slotWait:  slotWait,
	}
}

// attempt reserves a failure of clientID at address; when either budget is
// spent it returns false and how long to wait.
func (t *credentialThrottle) attempt(clientID, address string) (time.Duration, bool) {
	byAddress := t.addresses.take(address)
	if !byAddress.allowed {
		return byAddress.retryAfter, false
	}
	byPair := t.pairs.take(pairKey(clientID, address))
	if !byPair.allowed {
		t.addresses.refund(address)
		return byPair.retryAfter, false
	}
	return 0, true
}

// succeeded forgives the pair's failures (the client knows the secret) and
// gives back the attempt's reservation.
func (t *credentialThrottle) succeeded(clientID, address string) {
	t.pairs.forget(pairKey(clientID, address))
	t.addresses.refund(address)
}

// withdraw gives back an attempt whose secret was never compared.
func (t *credentialThrottle) withdraw(clientID, address string) {
	t.pairs.refund(pairKey(clientID, address))
	t.addresses.refund(address)
}

// compare runs a secret comparison in a free slot, waiting for one at most
// slotWait; ran is false when none came free.
func (t *credentialThrottle) compare(matches func() bool) (matched, ran bool) {
	timer := time.NewTimer(t.slotWait)
	defer timer.Stop()
	select {
	case t.slots <- struct{}{}:
	case <-timer.C:
		return false, false
	}
	defer func() { <-t.slots }()
	return matches(), true
}

func pairKey(clientID, address string) string {
	return address + " " + clientID
}
