package guard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"regexp"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// The headers of safe retries (docs/calling-the-api.md, "Retries").
const (
	idempotencyKeyHeader = "Idempotency-Key"
	// replayedHeader marks an answer that repeats a key's first outcome.
	replayedHeader = "Idempotent-Replayed"
)

// idempotencyKeyFormat is what a key may look like: Stripe's limit of 255
// characters, printable ASCII (a UUID, a hash or an order reference fits).
var idempotencyKeyFormat = regexp.MustCompile(`^[\x20-\x7E]{1,255}$`)

// keyCaller names whose keys a request uses: keys are scoped to the
// authenticated caller. false leaves the request's key unhonoured.
type keyCaller func(c *fiber.Ctx) (string, bool)

// sellerCaller scopes keys to the seller of the access token.
func sellerCaller(c *fiber.Ctx) (string, bool) {
	claims, ok := claimsFrom(c.UserContext())
	if !ok {
		return "", false
	}
	return "seller/" + claims.SellerID.String(), true
}

// customerCaller scopes the Customer-Facing API's keys to the offer of the
// customer's bearer token or, on the operations anyone may call, to the
// client's address: nobody else can replay or block them.
func customerCaller(proxies []netip.Prefix) keyCaller {
	return func(c *fiber.Ctx) (string, bool) {
		if claims, ok := OfferClaims(c.UserContext()); ok {
			return "offer/" + claims.OfferID.String(), true
		}
		return "address/" + clientAddress(c, proxies), true
	}
}

// idempotentRequests makes a route honour Idempotency-Key: the first
// request with a key runs, and its outcome is recorded; a retry with the
// same key and request gets that outcome again, a request still in flight
// answers 409, and a key first used for another request answers 422.
type idempotentRequests struct {
	ledger *idempotency.Ledger
	caller keyCaller
	logger *slog.Logger
	// holdBeforeRecord is the crash tests' fault injection point (config
	// idempotency.test_hold_before_record).
	holdBeforeRecord bool
}

// handle is the middleware; routes put it after their guard, so a request
// the contract refuses never claims a key.
func (m *idempotentRequests) handle(c *fiber.Ctx) error {
	keys := c.Request().Header.PeekAll(idempotencyKeyHeader)
	if len(keys) == 0 {
		return c.Next()
	}
	if len(keys) > 1 {
		return apierror.BadRequest("send one %s header, not %d", idempotencyKeyHeader, len(keys))
	}
	if !idempotencyKeyFormat.Match(keys[0]) {
		return apierror.BadRequest("header %s must be 1 to 255 printable ASCII characters", idempotencyKeyHeader)
	}
	caller, ok := m.caller(c)
	if !ok {
		return c.Next()
	}
	req := idempotency.Request{
		Caller: caller, Key: string(keys[0]), Method: c.Method(), Path: c.Path(),
		Fingerprint: fingerprint(c.Method(), c.OriginalURL(), c.Body()),
	}
	claim, err := m.ledger.Claim(c.UserContext(), req)
	if err != nil {
		return err
	}
	switch {
	case claim.Attempt != nil:
		return m.run(c, claim.Attempt)
	case claim.Reused(req):
		return keyReused(req, claim)
	case claim.Completed():
		return m.replay(c, claim)
	}
	e := apierror.New(http.StatusConflict, "idempotency_key_in_use",
		"a request with %s %q is still in progress; retry it once that one has completed", idempotencyKeyHeader, req.Key)
	e.Temporary, e.EveryOperation = true, true
	return e
}

// run serves the request under its key and settles the key by its
// answer. The effect happens before the outcome is recorded; a process
// that dies in between leaves the key in flight until its lease runs out,
// and the retry that takes it over repeats the effect under the same
// reservation, which makes it the same effect (idempotency.Reservation).
func (m *idempotentRequests) run(c *fiber.Ctx, a *idempotency.Attempt) error {
	ctx := context.WithoutCancel(c.UserContext())
	c.SetUserContext(idempotency.With(c.UserContext(), a.Reservation()))
	stop := a.KeepAlive(ctx, m.logger)
	answered := false
	defer func() {
		if !answered {
			// A panic: the next retry resumes the request.
			m.settle(ctx, c, a, stop, outcomeLater)
		}
	}()
	if err := c.Next(); err != nil {
		// Render the error now: the outcome to record is the answer.
		if herr := c.App().ErrorHandler(c, err); herr != nil {
			_ = c.SendStatus(http.StatusInternalServerError)
		}
	}
	answered = true
	fate := fateOf(c.Response().StatusCode())
	if fate == outcomeKept && m.holdBeforeRecord {
		stop()
		m.logger.Warn("holding an idempotent request between its effect and its record (idempotency.test_hold_before_record)",
			"request_id", requestID(c), "key", a.Key())
		<-c.Context().Done()
		return nil
	}
	m.settle(ctx, c, a, stop, fate)
	return nil
}

// settle ends the attempt: the key is forgotten, keeps the outcome, or
// stays with its request for the next retry. A failure is logged: the
// client still gets its answer, and the key is freed or resumed once its
// lease runs out.
func (m *idempotentRequests) settle(ctx context.Context, c *fiber.Ctx, a *idempotency.Attempt, stop func(), fate outcomeFate) {
	stop()
	var err error
	switch fate {
	case outcomeForgotten:
		err = a.Forget(ctx)
	case outcomeKept:
		err = a.Complete(ctx, idempotency.Outcome{
			Status: c.Response().StatusCode(), ContentType: string(c.Response().Header.ContentType()), Body: bytes.Clone(c.Response().Body()),
		})
	case outcomeLater:
		err = a.Yield(ctx)
	}
	if err != nil {
		m.logger.Error("settling an idempotency key failed", "request_id", requestID(c), "key", a.Key(), "error", err)
	}
}

// replay answers a key's recorded outcome.
func (m *idempotentRequests) replay(c *fiber.Ctx, claim idempotency.Claim) error {
	out, err := m.ledger.Outcome(claim)
	if err != nil {
		return err
	}
	c.Status(out.Status)
	c.Set(replayedHeader, "true")
	if out.ContentType != "" {
		c.Set(fiber.HeaderContentType, out.ContentType)
	}
	return c.Send(out.Body)
}

// keyReused refuses a key sent with another request than its first.
func keyReused(req idempotency.Request, claim idempotency.Claim) *apierror.Error {
	first := "this operation with another body or query"
	if method, path := claim.First(); method != req.Method || path != req.Path {
		first = method + " " + path
	}
	e := apierror.New(http.StatusUnprocessableEntity, "idempotency_key_reused",
		"%s %q was first used for %s; send a new key with a new request", idempotencyKeyHeader, req.Key, first)
	e.EveryOperation = true
	return e
}

// outcomeFate is what becomes of a key once its request is answered.
type outcomeFate int

const (
	// outcomeKept: the answer is recorded and every retry gets it.
	outcomeKept outcomeFate = iota
	// outcomeForgotten: the request was refused as sent (400, 401, 403),
	// which changed nothing; the key is free again, as if never sent.
	outcomeForgotten
	// outcomeLater: the answer says "later" (408, 409, 429, 5xx); the key
	// stays with its request, and the next retry of it resumes it under
	// the same reservation, so a change that happened meanwhile is not
	// made twice.
	outcomeLater
)

func fateOf(status int) outcomeFate {
	switch {
	case status == http.StatusBadRequest, status == http.StatusUnauthorized, status == http.StatusForbidden:
		return outcomeForgotten
	case status == http.StatusRequestTimeout, status == http.StatusConflict, status == http.StatusTooManyRequests,
		status >= http.StatusInternalServerError:
		return outcomeLater
	}
	return outcomeKept
}

// fingerprint identifies a request: its method, path and query as sent,
// and its body, JSON compared by value (key order and spacing do not
// matter).
func fingerprint(method, url string, body []byte) []byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", method, url)
	h.Write(canonicalJSON(body))
	return h.Sum(nil)
}

// canonicalJSON re-encodes a JSON body with sorted keys and no spacing;
// other bodies are compared as they are.
func canonicalJSON(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return body
	}
	canonical, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return canonical
}

// idempotentRouter gives every POST route the idempotency middleware,
// after the route's guard.
type idempotentRouter struct {
	*guardedRouter
	requests *idempotentRequests
}

// Post registers a guarded POST route that honours Idempotency-Key.
func (r idempotentRouter) Post(path string, h ...fiber.Handler) fiber.Router {
	return r.guardedRouter.Post(path, append([]fiber.Handler{r.requests.handle}, h...)...)
}

// purgeKeysWhileServing purges the ledger's expired keys while app serves:
// when it starts listening, then regularly until it shuts down
// (idempotency.Ledger.PurgeLoop).
func purgeKeysWhileServing(app *fiber.App, ledger *idempotency.Ledger, logger *slog.Logger) {
	stop := func() {}
	app.Hooks().OnListen(func(fiber.ListenData) error {
		stop = ledger.PurgeLoop(logger)
		return nil
	})
	app.Hooks().OnShutdown(func() error {
		stop()
		return nil
	})
}
