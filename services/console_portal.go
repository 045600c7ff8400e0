package services

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/refusal"
)

// The merchant portal's sales work: a seller user makes offers for
// customers on the phone or at the counter, and works the seller's orders
// and contracts. Each change goes through the same service as the Seller
// API's operation, for the seller the user works for, and is written to
// the audit log with how it ended.

// ErrNotSellerUser refuses portal work to an account that works for no
// seller (an operator).
var ErrNotSellerUser = errors.New("only a seller's users work in the merchant portal")

// PortalSeller is the seller a portal user works for.
func PortalSeller(u console.User) (uuid.UUID, error) {
	if u.Kind != console.SellerUser || u.SellerID == nil {
		return uuid.Nil, ErrNotSellerUser
	}
	return *u.SellerID, nil
}

// CreatePortalOffer creates an offer for the user's seller as POST
// /v1/offers does (the request built from the contract's payload), with
// the user as its sales agent, and audits it.
func (c *Console) CreatePortalOffer(ctx context.Context, who console.Actor, r offers.Request) (offers.Stored, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return offers.Stored{}, err
	}
	created, err := c.Offers.Create(ctx, sellerID, r, offers.Options{})
	target := "seller_offer_reference " + r.Reference
	if err == nil {
		target = OfferTarget(created.Row.ID)
	}
	return created, c.audited(ctx, who, "portal.offer.create", target, r.SalesChannel+" "+r.Reference, refusalOutcome(err), err)
}

// RefusePortalOffer writes to the audit log an offer the builder refused
// before asking the offer service (its payload broke the Seller API's
// contract), naming the refused fields, so every attempt to create an
// offer is in the log, whoever refused it.
func (c *Console) RefusePortalOffer(ctx context.Context, who console.Actor, channel, reference string, fields []string) error {
	return c.Accounts.Audit(ctx, who.Entry("portal.offer.create", "seller_offer_reference "+reference,
		channel+" "+reference+": "+strings.Join(fields, ", "), console.Refused))
}

// PortalOrderChange is a change a seller user makes to an order.
type PortalOrderChange string

// The changes of an order the portal offers, as the Seller API's
// acknowledge, accept (confirm) and reject.
const (
	AcknowledgeOrder PortalOrderChange = "acknowledge"
	ConfirmOrder     PortalOrderChange = "confirm"
	RejectOrder      PortalOrderChange = "reject"
)

// ChangePortalOrder acknowledges, confirms or rejects an order of the
// user's seller and audits it.
func (c *Console) ChangePortalOrder(ctx context.Context, who console.Actor, orderID uuid.UUID, change PortalOrderChange) error {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return err
	}
	var do func(context.Context, uuid.UUID, uuid.UUID) (orders.Stored, error)
	switch change {
	case AcknowledgeOrder:
		do = c.Orders.Acknowledge
	case ConfirmOrder:
		do = c.Orders.Accept
	case RejectOrder:
		do = c.Orders.Reject
	default:
		return fmt.Errorf("the portal has no order change %q", change)
	}
	_, err = do(ctx, sellerID, orderID)
	return c.auditedOrder(ctx, who, "portal.order."+string(change), orderID, "", err)
}

// ShipPortalOrder records a shipment of an order of the user's seller and
// audits it with its serial numbers.
func (c *Console) ShipPortalOrder(ctx context.Context, who console.Actor, orderID uuid.UUID, s orders.Shipment) error {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return err
	}
	serials := make([]string, len(s.SerialNumbers))
	for i, sn := range s.SerialNumbers {
		serials[i] = sn.SerialNumber
	}
	err = c.Orders.Ship(ctx, sellerID, orderID, s)
	return c.auditedOrder(ctx, who, "portal.order.ship", orderID, strings.Join(serials, ", "), err)
}

// PortalContractChange is an end-of-term action or a return a seller
// user takes on a contract.
type PortalContractChange struct {
	// Action is "return", "buy_out", "extend", "quote_termination" or
	// "terminate".
	Action string
	Return contracts.Return
	Extend contracts.ExtensionMode
	// Quote is the termination quote a "terminate" accepts.
	Quote uuid.UUID
}

// ChangePortalContract takes an action on a contract of the user's seller
// through the contract service, as the Seller API's operation of the same
// name does, and audits it; a termination's quote is returned for the
// seller to accept.
func (c *Console) ChangePortalContract(ctx context.Context, who console.Actor, contractID uuid.UUID, ch PortalContractChange) (*contracts.StoredQuote, error) {
	sellerID, err := PortalSeller(who.User)
	if err != nil {
		return nil, err
	}
	var quote *contracts.StoredQuote
	detail := ""
	switch ch.Action {
	case "return":
		detail = strings.Join(ch.Return.SerialNumbers, ", ")
		_, err = c.Contracts.RecordReturn(ctx, sellerID, contractID, ch.Return)
	case "buy_out":
		_, err = c.Contracts.BuyOut(ctx, sellerID, contractID)
	case "extend":
		detail = string(ch.Extend)
		_, err = c.Contracts.Extend(ctx, sellerID, contractID, ch.Extend)
	case "quote_termination":
		var q contracts.StoredQuote
		if q, err = c.Contracts.QuoteTermination(ctx, sellerID, contractID); err == nil {
			quote = &q
		}
	case "terminate":
		detail = "quote " + ch.Quote.String()
		_, err = c.Contracts.Terminate(ctx, sellerID, contractID, ch.Quote)
	default:
		return nil, fmt.Errorf("the portal has no contract action %q", ch.Action)
	}
	if errors.Is(err, ErrContractNotFound) {
		return nil, err
	}
	return quote, c.audited(ctx, who, "portal.contract."+ch.Action, ContractTarget(contractID), detail, refusalOutcome(err), err)
}

// OrderTarget names an order as the audit log's target.
func OrderTarget(orderID uuid.UUID) string { return "order " + orderID.String() }

// ContractTarget names a contract as the audit log's target.
func ContractTarget(contractID uuid.UUID) string { return "contract " + contractID.String() }

// auditedOrder audits a change of an order, unless there is no such order
// for the seller (nothing was done to anything).
func (c *Console) auditedOrder(ctx context.Context, who console.Actor, action string, orderID uuid.UUID, detail string, err error) error {
	if errors.Is(err, ErrOrderNotFound) {
		return err
	}
	return c.audited(ctx, who, action, OrderTarget(orderID), detail, refusalOutcome(err), err)
}

// refusalOutcome is how a portal action ended: refused by a rule or by
// input the contract refuses, failed on any other error.
func refusalOutcome(err error) console.Outcome {
	var refused *refusal.Error
	var invalid *refusal.Invalid
	return outcomeOf(err, errors.As(err, &refused) || errors.As(err, &invalid))
}
