package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
)

// heartbeatsPerTimeout is how many heartbeats an activity records within
// its heartbeat timeout; the SDK sends them on, at most one every 80 % of
// the timeout.
const heartbeatsPerTimeout = 4

// heartbeating records the running activity's heartbeat until the
// function it answers is called, if the activity has a heartbeat timeout
// (none outside an activity, or for one scheduled without it). The first
// comes after a quarter of the timeout, so an activity done sooner (most
// webhook attempts) costs the server no heartbeat; until then the server
// counts the timeout from the activity's start. The heartbeat says the
// worker lives; it carries no progress.
func heartbeating(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	timeout := activity.GetInfo(ctx).HeartbeatTimeout
	if timeout <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(timeout / heartbeatsPerTimeout)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}
