package clustertest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tenurehq/tenure/internal/testing/customerclient"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
)

// journey is one lifecycle under way: the plan it follows and the ids it
// has made so far.
type journey struct {
	plan      *plan
	reference string
	offerID   string
	orderID   string
	// contract is the order's contract once its term started.
	contract sellerclient.Contract
	// took is how long the lifecycle took from its first step to its last.
	took time.Duration
}

// step is one request of a lifecycle (retried until it takes effect),
// sent through whichever API process the driver picks.
type step struct {
	name string
	run  func(ctx context.Context, c *sellerclient.Client, j *journey) error
}

// event is a webhook event a lifecycle causes: its type, whether it is
// about the offer or the order (or the order's contract), and how many
// events of the type it causes when more than one (a contract's
// installments falling due).
type event struct {
	Type    string
	OfOrder bool
	Times   int
}

// plan is one kind of lifecycle: how many to run, their steps, and the
// events they cause, one each.
type plan struct {
	name   string
	count  int
	steps  []step
	events []event
}

// rented is the product every lifecycle's offer rents, two units of it.
var rented = sellerclient.Product{Source: "sku", Reference: "cluster-server", Net: 500000, Currency: "EUR"}

// serials are the serial numbers of a lifecycle's two units.
func (j *journey) serials() []string { return []string{j.reference + "-A", j.reference + "-B"} }

// expiresIn is how long an offer of the expiring plan lives: long enough to
// be created before it expires, short enough not to hold the test up.
const expiresIn = 20 * time.Second

var (
	createOffer = step{"create offer", func(ctx context.Context, c *sellerclient.Client, j *journey) (err error) {
		j.offerID, err = c.CreateOffer(ctx, sellerclient.OfferPayload(j.reference, rented, 2))
		return err
	}}
	createExpiringOffer = step{"create offer expiring in " + expiresIn.String(), func(ctx context.Context, c *sellerclient.Client, j *journey) (err error) {
		j.offerID, err = c.CreateOffer(ctx, sellerclient.OfferPayloadExpiring(j.reference, rented, 2, time.Now().Add(expiresIn)))
		return err
	}}
	review    = simulation("mark_offer_for_review")
	decline   = simulation("mark_offer_declined")
	voidOffer = step{"void offer", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.VoidOffer(ctx, j.offerID)
	}}
	expire = step{"wait for expiry", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.Await(ctx, sellerclient.OfferPath(j.offerID), "expired")
	}}
	findOrder = step{"find order", func(ctx context.Context, c *sellerclient.Client, j *journey) (err error) {
		j.orderID, err = c.FindOrder(ctx, j.reference)
		return err
	}}
	acknowledge = orderAction("acknowledge")
	confirm     = orderAction("accept")
	reject      = orderAction("reject")
	ship        = step{"ship", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.Ship(ctx, j.orderID, rented, j.serials())
	}}
	cancelOrder = step{"cancel order", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.CancelOrder(ctx, j.orderID)
	}}
	findContract = step{"find contract", func(ctx context.Context, c *sellerclient.Client, j *journey) (err error) {
		j.contract, err = c.FindContract(ctx, j.orderID)
		return err
	}}
	// The sandbox's clock runs the contract's 24 months in three moves:
	// a year, to the end of the term (past the notice), and, once every
	// asset is back, a day beyond, when the contract ends as returned.
	aYearOn = step{"advance the contract's clock a year", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.AdvanceContractClock(ctx, j.contract.ID, dayAfter(j.contract.Schedule.Term.StartDate, 0, 12, 0))
	}}
	toTheEnd = step{"advance the contract's clock to its end date", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.AdvanceContractClock(ctx, j.contract.ID, j.contract.EndDate)
	}}
	giveBack = step{"return every asset", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.ReturnContract(ctx, j.contract.ID, j.serials(), "https://tracking.example/back/"+j.reference)
	}}
	pastTheEnd = step{"advance the contract's clock past its end", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		if err := c.AdvanceContractClock(ctx, j.contract.ID, dayAfter(j.contract.EndDate, 0, 0, 1)); err != nil {
			return err
		}
		return c.AwaitContract(ctx, j.contract.ID, "returned")
	}}
)

// dayAfter is the day (YYYY-MM-DD) years, months and days after another;
// a malformed day is passed on for the API to refuse.
func dayAfter(day string, years, months, days int) string {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return d.AddDate(years, months, days).Format(time.DateOnly)
}

// customerChecksOut is the end customer's checkout through the
// Customer-Facing API of the step's process: token exchange, a 24-month
// term with every service, the company's data, a shipping address and the
// acceptance, which submits the offer for review. A checkout cut short
// (a process stopping under it, a 429 or 5xx) is tried again from the
// start until the offer is under review; a refusal ends the lifecycle.
var customerChecksOut = step{"customer checks out", func(ctx context.Context, c *sellerclient.Client, j *journey) error {
	var o struct {
		Status      string `json:"status"`
		CheckoutURL string `json:"checkout_redirect_url"`
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		status, body, err := c.Do(ctx, http.MethodGet, sellerclient.OfferPath(j.offerID), nil, &o)
		if err == nil && status == http.StatusOK && o.Status != "created" {
			return nil
		}
		if err == nil && status == http.StatusOK {
			customer, openErr := customerclient.Open(c.HTTP, c.BaseURL, o.CheckoutURL)
			if openErr != nil {
				return openErr
			}
			_, err = customer.Checkout(ctx, customerclient.Choice{Months: 24, Services: true})
			var refused *customerclient.Refused
			if err == nil || (errors.As(err, &refused) && refused.Status < 500 && refused.Status != http.StatusTooManyRequests) {
				return err
			}
		} else if err == nil {
			err = fmt.Errorf("reading the offer answered %d: %s", status, body)
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(time.Second)
	}
}}

func simulation(scenario string) step {
	return step{scenario, func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.Simulate(ctx, scenario, j.offerID)
	}}
}

func orderAction(action string) step {
	return step{"order " + action, func(ctx context.Context, c *sellerclient.Client, j *journey) error {
		return c.OrderAction(ctx, j.orderID, action)
	}}
}

var (
	reviewed = event{Type: "offer.pending_review"}
	accepted = event{Type: "offer.accepted"}
	ordered  = event{Type: "order.created", OfOrder: true}
	// The sandbox's mark_offer_accepted stands for the review's verdict.
	toTheOrder = []step{createOffer, customerChecksOut, simulation("mark_offer_accepted"), findOrder}
)

// planSet is the plans of a run.
type planSet []*plan

// steps is the number of steps of every lifecycle of the plans.
func (plans planSet) steps() int64 {
	var n int64
	for _, p := range plans {
		n += int64(p.count * len(p.steps))
	}
	return n
}

// plans are the lifecycles the test drives, forty-two in all: most run to
// a completed order; two of them on to a returned contract; the others
// end in every other final status a seller or the sandbox can bring
// about.
var plans = planSet{
	// The shipment starts the contract of the rented line, whose first
	// installment falls due on the shipment's day, invoiced under the
	// mandate the customer gave at checkout.
	{name: "completed", count: 28, steps: slices.Concat(toTheOrder, []step{acknowledge, confirm, ship}),
		events: []event{reviewed, accepted, ordered, {Type: "order.completed", OfOrder: true},
			{Type: "contract.started", OfOrder: true}, {Type: "contract.installment_due", OfOrder: true}, {Type: "invoice.issued", OfOrder: true}}},
	// The sandbox's clock runs two of those contracts to their end: 24
	// installments due, each month's invoiced, the notice, the return of
	// both units.
	{name: "returned", count: 2, steps: slices.Concat(toTheOrder, []step{acknowledge, confirm, ship, findContract, aYearOn, toTheEnd, giveBack, pastTheEnd}),
		events: []event{reviewed, accepted, ordered, {Type: "order.completed", OfOrder: true}, {Type: "contract.started", OfOrder: true},
			{Type: "contract.installment_due", OfOrder: true, Times: 24}, {Type: "invoice.issued", OfOrder: true, Times: 24},
			{Type: "contract.ending", OfOrder: true}, {Type: "contract.ended", OfOrder: true}}},
	{name: "declined", count: 3, steps: []step{createOffer, review, decline},
		events: []event{reviewed, {Type: "offer.declined"}}},
	{name: "voided", count: 3, steps: []step{createOffer, voidOffer},
		events: []event{{Type: "offer.voided"}}},
	{name: "expired", count: 2, steps: []step{createExpiringOffer, expire},
		events: []event{{Type: "offer.expired"}}},
	{name: "canceled", count: 2, steps: slices.Concat(toTheOrder, []step{cancelOrder}),
		events: []event{reviewed, accepted, ordered, {Type: "order.canceled", OfOrder: true}}},
	// A rejected order has no event of its own.
	{name: "rejected", count: 2, steps: slices.Concat(toTheOrder, []step{acknowledge, reject}),
		events: []event{reviewed, accepted, ordered}},
}

// driver runs every plan's lifecycles at once, spreading their steps over
// the API processes: step n of lifecycle i goes to API (i+n) mod len(apis),
// so each lifecycle moves from one process to the other at every step.
type driver struct {
	apis []*sellerclient.Client
	// Done counts the steps that have taken effect.
	Done atomic.Int64
}

// run drives every lifecycle to its end and returns them with the first
// error of each (nil when it ended as planned).
func (d *driver) run(ctx context.Context, plans planSet) ([]*journey, []error) {
	var journeys []*journey
	for _, p := range plans {
		for n := range p.count {
			journeys = append(journeys, &journey{plan: p, reference: fmt.Sprintf("cluster-%s-%02d", p.name, n)})
		}
	}
	errs := make([]error, len(journeys))
	var wg sync.WaitGroup
	for i, j := range journeys {
		wg.Go(func() {
			began := time.Now()
			defer func() { j.took = time.Since(began) }()
			for n, s := range j.plan.steps {
				if err := s.run(ctx, d.apis[(i+n)%len(d.apis)], j); err != nil {
					errs[i] = fmt.Errorf("%s, step %q: %w", j.reference, s.name, err)
					return
				}
				d.Done.Add(1)
			}
		})
	}
	wg.Wait()
	return journeys, errs
}
