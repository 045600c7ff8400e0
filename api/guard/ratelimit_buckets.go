package guard

import (
	"container/list"
	"sync"
	"time"
)

// maxBuckets bounds each table of buckets: the keys are chosen by clients
// (addresses, client ids), so memory must not grow with them. A key takes
// 150 to 200 bytes; the credential throttle's two tables hold 16 MB when
// full.
const maxBuckets = 50_000

// bucketTable holds a token bucket per key (a seller, a client address), at
// most maxKeys of them. When full it forgets the key used longest ago; a
// forgotten key starts again with a full bucket, so the bound can only
// forgive, never refuse, and a key in use is the last to go.
//
// A bucket is kept as the time it will be full again (the generic cell rate
// algorithm): whole intervals in integer time, so a refill after exactly
// one interval gives exactly one request.
type bucketTable struct {
	// interval is the time one request's token takes to come back.
	interval time.Duration
	burst    int
	maxKeys  int
	now      func() time.Time

	mu    sync.Mutex
	byKey map[string]*list.Element
	// order holds the *bucket values, most recently used first.
	order *list.List
}

type bucket struct {
	key    string
	fullAt time.Time
}

// quota is where a key's bucket stands after a request.
type quota struct {
	allowed bool
	// limit is the bucket's size, remaining the whole requests left in it.
	limit, remaining int
	// reset is the time until the bucket is full again.
	reset time.Duration
	// retryAfter is the time until the next request is allowed, when this
	// one was not.
	retryAfter time.Duration
}

// newBucketTable makes buckets of burst requests, each of which comes back
// after interval.
func newBucketTable(interval time.Duration, burst, maxKeys int, now func() time.Time) *bucketTable {
	return &bucketTable{
		interval: interval,
		burst:    burst,
		maxKeys:  maxKeys,
		now:      now,
		byKey:    make(map[string]*list.Element),
		order:    list.New(),
	}
}

// take spends one request of key's bucket if one is left.
func (t *bucketTable) take(key string) quota {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.touch(key, now)
	debt := max(0, b.fullAt.Sub(now))
	capacity := time.Duration(t.burst) * t.interval
	if debt+t.interval > capacity {
		return quota{limit: t.burst, reset: debt, retryAfter: debt + t.interval - capacity}
	}
	debt += t.interval
	b.fullAt = now.Add(debt)
	return quota{allowed: true, limit: t.burst, remaining: int((capacity - debt) / t.interval), reset: debt}
}

// refund gives back the request a take spent.
func (t *bucketTable) refund(key string) {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byKey[key]; ok {
		b := e.Value.(*bucket)
		b.fullAt = b.fullAt.Add(-t.interval)
		if b.fullAt.Before(now) {
			b.fullAt = now
		}
	}
}

// forget gives key a full bucket again.
func (t *bucketTable) forget(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byKey[key]; ok {
		t.order.Remove(e)
		delete(t.byKey, key)
	}
}

// size is the number of keys held.
func (t *bucketTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byKey)
}

// touch returns key's bucket, a full one if it had none, as the most
// recently used; t.mu is held.
func (t *bucketTable) touch(key string, now time.Time) *bucket {
	if e, ok := t.byKey[key]; ok {
		t.order.MoveToFront(e)
		return e.Value.(*bucket)
	}
	if len(t.byKey) >= t.maxKeys {
		oldest := t.order.Back()
		t.order.Remove(oldest)
		delete(t.byKey, oldest.Value.(*bucket).key)
	}
	b := &bucket{key: key, fullAt: now}
	t.byKey[key] = t.order.PushFront(b)
	return b
}
