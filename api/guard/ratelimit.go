package guard

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/config"
)

// The headers of the IETF draft "RateLimit header fields for HTTP", as most
// APIs send them: the bucket's size, the requests left in it, and the
// seconds until it is full again.
const (
	HeaderRateLimitLimit     = "RateLimit-Limit"
	HeaderRateLimitRemaining = "RateLimit-Remaining"
	HeaderRateLimitReset     = "RateLimit-Reset"
)

// rateLimits are the request budgets of one API process: per seller on the
// Seller API, per client address on the routes callable without a token,
// and on the Customer-Facing API per offer and per shared token (see
// customerBudget). They are counted in the process, so N API processes
// behind a balancer admit up to N times the configured rates.
type rateLimits struct {
	sellers      *bucketTable
	addresses    *bucketTable
	offers       *bucketTable
	sharedTokens *bucketTable
	proxies      []netip.Prefix
}

func newRateLimits(cfg *config.Config, now func() time.Time) (*rateLimits, error) {
	proxies, err := cfg.HTTP.Proxies()
	if err != nil {
		return nil, err
	}
	table := func(b config.BucketConfig) *bucketTable {
		return newBucketTable(refillInterval(b), b.Burst, maxBuckets, now)
	}
	r := cfg.RateLimit
	return &rateLimits{
		sellers:      table(r.Seller),
		addresses:    table(r.Address),
		offers:       table(r.Offer),
		sharedTokens: table(r.SharedToken),
		proxies:      proxies,
	}, nil
}

// refillInterval is the time one request of a configured bucket takes to
// come back.
func refillInterval(b config.BucketConfig) time.Duration {
	return time.Duration(float64(time.Second) / b.PerSecond)
}

// reportedQuotaKey is where admit keeps the quota it reported.
const reportedQuotaKey = "tenure.quota"

// perSeller limits each seller's requests; it runs behind bearerAuth.
func (l *rateLimits) perSeller(c *fiber.Ctx) error {
	claims, err := SellerClaims(c.UserContext())
	if err != nil {
		return err
	}
	if q := l.sellers.take(claims.SellerID.String()); !admit(c, q) {
		return overLimit("this seller", q)
	}
	return c.Next()
}

// perAddress limits each client address on a route anyone may call;
// refuse answers a request over the limit in the route's own error form.
func (l *rateLimits) perAddress(refuse func(c *fiber.Ctx, q quota) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if q := l.addresses.take(clientAddress(c, l.proxies)); !admit(c, q) {
			return refuse(c, q)
		}
		return c.Next()
	}
}

// admit tells the client where its bucket stands, and when to come back if
// the request is refused; it reports whether the request may go on. A
// request counted against several budgets reports the one it was refused
// by, else the one with the fewest requests left.
func admit(c *fiber.Ctx, q quota) bool {
	if reported, ok := c.Locals(reportedQuotaKey).(quota); ok && q.allowed && reported.remaining <= q.remaining {
		return true
	}
	c.Locals(reportedQuotaKey, q)
	c.Set(HeaderRateLimitLimit, strconv.Itoa(q.limit))
	c.Set(HeaderRateLimitRemaining, strconv.Itoa(q.remaining))
	c.Set(HeaderRateLimitReset, strconv.Itoa(Seconds(q.reset)))
	if !q.allowed {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(Seconds(q.retryAfter)))
	}
	return q.allowed
}

// refuseWithError answers an address over its limit with the contract's
// error object.
func refuseWithError(_ *fiber.Ctx, q quota) error {
	return overLimit("this address", q)
}

func overLimit(who string, q quota) error {
	return apierror.TooManyRequests("%s has used up its %d requests; retry after %d seconds", who, q.limit, Seconds(q.retryAfter))
}

// Seconds rounds d up to whole seconds, as Retry-After and RateLimit-Reset
// count: a client that waits that long finds the request allowed.
func Seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}
