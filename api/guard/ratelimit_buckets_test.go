package guard

import (
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// clock is a time tests move by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *clock { return &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

func TestBucketsRefuseWhenEmptyAndRefillEachInterval(t *testing.T) {
	c := newClock()
	table := newBucketTable(time.Second, 3, 10, c.now)
	for i, want := range []int{2, 1, 0} {
		q := table.take("seller")
		if !q.allowed || q.limit != 3 || q.remaining != want || q.reset != time.Duration(i+1)*time.Second {
			t.Fatalf("request %d: %+v", i+1, q)
		}
	}
	q := table.take("seller")
	if q.allowed || q.remaining != 0 || q.retryAfter != time.Second || q.reset != 3*time.Second {
		t.Fatalf("the fourth request of a bucket of three: %+v", q)
	}
	if other := table.take("another seller"); !other.allowed || other.remaining != 2 {
		t.Errorf("buckets are per key: %+v", other)
	}
	c.advance(999 * time.Millisecond)
	if q := table.take("seller"); q.allowed || q.retryAfter != time.Millisecond {
		t.Errorf("a request before the interval is up: %+v", q)
	}
	c.advance(time.Millisecond)
	if q := table.take("seller"); !q.allowed || q.remaining != 0 {
		t.Errorf("after one interval exactly one request: %+v", q)
	}
	if q := table.take("seller"); q.allowed {
		t.Errorf("and only one: %+v", q)
	}
	c.advance(time.Hour)
	if q := table.take("seller"); !q.allowed || q.remaining != 2 || q.reset != time.Second {
		t.Errorf("an idle bucket fills up to its size, not beyond: %+v", q)
	}
}

func TestBucketsRefundAndForget(t *testing.T) {
	c := newClock()
	table := newBucketTable(time.Minute, 2, 10, c.now)
	table.take("a")
	table.take("a")
	table.refund("a")
	if q := table.take("a"); !q.allowed || q.remaining != 0 {
		t.Errorf("a refunded request can be made again: %+v", q)
	}
	table.forget("a")
	if q := table.take("a"); !q.allowed || q.remaining != 1 {
		t.Errorf("a forgotten key starts full: %+v", q)
	}
	table.refund("a")
	table.refund("a")
	if q := table.take("a"); q.remaining != 1 {
		t.Errorf("refunds never fill a bucket beyond its size: %+v", q)
	}
}

func TestBucketsStayWithinTheirBound(t *testing.T) {
	c := newClock()
	table := newBucketTable(time.Hour, 1, 100, c.now)
	table.take("busy client")
	for i := range 10_000 {
		table.take(fmt.Sprintf("client %d", i))
		// The busy client keeps calling (and being refused).
		if q := table.take("busy client"); q.allowed {
			t.Fatalf("after %d other keys the busy client's empty bucket was forgotten", i+1)
		}
	}
	if n := table.size(); n != 100 {
		t.Errorf("the table holds %d keys, its bound is 100", n)
	}
}

func TestClientAddress(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	app := fiber.New()
	for _, tc := range []struct {
		name, peer string
		forwarded  []string
		want       string
	}{
		{"a direct client", "192.0.2.7", nil, "192.0.2.7"},
		{"a direct client's forwarded header is ignored", "192.0.2.7", []string{"198.51.100.1"}, "192.0.2.7"},
		{"IPv6 clients count per /64", "2001:db8:1:2:3:4:5:6", nil, "2001:db8:1:2::/64"},
		{"IPv4-mapped IPv6 is IPv4", "::ffff:192.0.2.7", nil, "192.0.2.7"},
		{"behind a proxy", "10.0.0.1", []string{"198.51.100.1"}, "198.51.100.1"},
		{"the client cannot choose its address", "10.0.0.1", []string{"203.0.113.66, 198.51.100.1"}, "198.51.100.1"},
		{"through two proxies", "10.0.0.1", []string{"198.51.100.1, 10.1.2.3"}, "198.51.100.1"},
		{"several header lines", "10.0.0.1", []string{"203.0.113.66", "198.51.100.1, 10.1.2.3"}, "198.51.100.1"},
		{"an IPv6 proxy", "2001:db8:ffff::1", []string{"2001:db8:5::9"}, "2001:db8:5::/64"},
		{"a proxy without the header", "10.0.0.1", nil, "10.0.0.1"},
		{"garbage stops at the last proxy", "10.0.0.1", []string{"198.51.100.1, bogus, 10.1.2.3"}, "10.1.2.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req fasthttp.Request
			for _, f := range tc.forwarded {
				req.Header.Add(fiber.HeaderXForwardedFor, f)
			}
			var fctx fasthttp.RequestCtx
			fctx.Init(&req, &net.TCPAddr{IP: net.ParseIP(tc.peer), Port: 40000}, nil)
			c := app.AcquireCtx(&fctx)
			defer app.ReleaseCtx(c)
			if got := clientAddress(c, proxies); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
