package contracts

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Stored is a contract as PostgreSQL holds it, in the shape the Seller API
// shows it (GET /v1/contracts/{id}) and the contract events send it: what
// it rents, on which terms, its schedule, its end-of-term options once the
// notice gave them, and how it ended.
type Stored struct {
	ID                   uuid.UUID `json:"id"`
	OrderID              uuid.UUID `json:"order_id"`
	OfferID              uuid.UUID `json:"offer_id"`
	SellerOfferReference string    `json:"seller_offer_reference"`
	// OrderLine is the position of the contract's line in the order's
	// order_lines, from 0.
	OrderLine int     `json:"order_line"`
	Status    Status  `json:"status"`
	Product   Product `json:"product"`
	// Assets are the units the contract rents: the line's and those of
	// the sublines rented with it, in the order's asset order.
	Assets []Asset `json:"assets"`
	Rental Rental  `json:"rental"`
	// Schedule is null until the term starts.
	Schedule *Schedule `json:"schedule"`
	// EndDate and NoticeDate are those of the current term (the original
	// or the last term extension), null until it starts; month-by-month
	// installments run beyond EndDate.
	EndDate    *civil.Date `json:"end_date"`
	NoticeDate *civil.Date `json:"notice_date"`
	// EndOfTerm is the options the notice offered with their prices, null
	// before the notice and again after a term extension until its notice.
	EndOfTerm  *EndOfTerm       `json:"end_of_term"`
	Extensions []TakenExtension `json:"extensions"`
	Charges    []Charge         `json:"charges"`
	// Outcome is how the contract ended, null while it runs.
	Outcome   *Outcome  `json:"outcome"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`

	// SellerID is the seller the contract belongs to.
	SellerID uuid.UUID `json:"-"`
	// ClockOffset is how far the sandbox moved the contract's clock ahead
	// of real time (advance_contract_clock).
	ClockOffset time.Duration `json:"-"`
}

// Product is the product a contract rents, as its order line names it.
type Product struct {
	ID         *uuid.UUID          `json:"id"`
	Title      string              `json:"title"`
	References []catalog.Reference `json:"seller_product_references"`
	Quantity   int64               `json:"quantity"`
}

// Asset statuses beyond the order's (created, shipped).
const (
	// AssetReturned is an asset the contract's customer gave back.
	AssetReturned = "returned"
)

// Asset is one rented unit: shipped with a serial number, and given back
// at the end of a contract that ends by a return.
type Asset struct {
	ID           uuid.UUID           `json:"id"`
	ProductID    *uuid.UUID          `json:"product_id"`
	Title        string              `json:"title"`
	References   []catalog.Reference `json:"seller_product_references"`
	Status       string              `json:"status"`
	SerialNumber *string             `json:"serial_number"`
	// TrackingURL is the shipment's.
	TrackingURL *string `json:"tracking_url"`
	// Return is null until the asset is back.
	Return *AssetReturn `json:"return"`
}

// AssetReturn is the return of one asset.
type AssetReturn struct {
	ReturnedOn  civil.Date `json:"returned_on"`
	TrackingURL string     `json:"tracking_url"`
	RecordedAt  time.Time  `json:"recorded_at"`
}

// TakenExtension is an extension the contract took, on a day of its clock;
// WithoutChoice marks the month-by-month continuation a contract takes
// when no option was chosen by its end date.
type TakenExtension struct {
	Extension
	On            civil.Date `json:"on"`
	WithoutChoice bool       `json:"without_choice"`
}

// ChargeKind is what a one-off charge of a contract is for.
type ChargeKind string

// The kinds of charges.
const (
	// ChargeBuyOut is the residual value a bought-out contract's customer
	// pays for the assets.
	ChargeBuyOut ChargeKind = "buy_out"
	// ChargeEarlyTermination is an accepted termination quote's total.
	ChargeEarlyTermination ChargeKind = "early_termination"
	// ChargeDunningFee is the flat fee of §288 (5) BGB a contract in
	// arrears owes at the second reminder stage.
	ChargeDunningFee ChargeKind = "dunning_fee"
	// ChargeDefaultInterest is the default interest of §288 (2) BGB a
	// business customer in arrears owes at the second reminder stage.
	ChargeDefaultInterest ChargeKind = "default_interest"
	// ChargeClaim is what a defaulted contract terminated by an operator
	// still owes: its installments not yet due.
	ChargeClaim ChargeKind = "claim"
)

// Charge is a one-off amount a contract's customer owes beside the
// installments, due on a day.
type Charge struct {
	ID        uuid.UUID     `json:"id"`
	Kind      ChargeKind    `json:"kind"`
	Amount    pricing.Money `json:"amount"`
	DueDate   civil.Date    `json:"due_date"`
	CreatedAt time.Time     `json:"created_at"`
}

// Outcome is how a contract ended: its final status, the day of its clock
// it ended on, and the final charge if it has one.
type Outcome struct {
	Status  Status     `json:"status"`
	EndedOn civil.Date `json:"ended_on"`
	Charge  *Charge    `json:"charge"`
}

// record is a contract's row with its order's document.
type record struct {
	row      dbgen.RentalContract
	document []byte
}

// decode reads contracts with their installments, assets, returns and
// charges, four queries for the lot.
func decode(ctx context.Context, q *dbgen.Queries, records []record) ([]Stored, error) {
	ids := make([]uuid.UUID, len(records))
	for i, r := range records {
		ids[i] = r.row.ID
	}
	installments, err := q.ListContractInstallments(ctx, ids)
	if err != nil {
		return nil, err
	}
	assets, err := q.ListContractAssets(ctx, ids)
	if err != nil {
		return nil, err
	}
	returns, err := q.ListContractReturns(ctx, ids)
	if err != nil {
		return nil, err
	}
	charges, err := q.ListContractCharges(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Stored, len(records))
	for i, r := range records {
		s, err := decodeOne(r, parts{
			installments: byContract(installments, func(i dbgen.ContractInstallment) uuid.UUID { return i.ContractID }, r.row.ID),
			assets:       byContract(assets, func(a dbgen.OrderAsset) uuid.UUID { return *a.ContractID }, r.row.ID),
			returns:      byContract(returns, func(x dbgen.ContractReturn) uuid.UUID { return x.ContractID }, r.row.ID),
			charges:      byContract(charges, func(c dbgen.ContractCharge) uuid.UUID { return c.ContractID }, r.row.ID),
		})
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// parts are the rows of one contract beside its own.
type parts struct {
	installments []dbgen.ContractInstallment
	assets       []dbgen.OrderAsset
	returns      []dbgen.ContractReturn
	charges      []dbgen.ContractCharge
}

// byContract are the rows of one contract.
func byContract[T any](rows []T, contractOf func(T) uuid.UUID, id uuid.UUID) []T {
	var out []T
	for _, r := range rows {
		if contractOf(r) == id {
			out = append(out, r)
		}
	}
	return out
}

func decodeOne(r record, p parts) (Stored, error) {
	row := r.row
	var doc orders.Document
	if err := json.Unmarshal(r.document, &doc); err != nil {
		return Stored{}, fmt.Errorf("contract %s: its order has an unreadable document: %w", row.ID, err)
	}
	if int(row.LinePosition) >= len(doc.Lines) {
		return Stored{}, fmt.Errorf("contract %s: its order has no line %d", row.ID, row.LinePosition)
	}
	line := doc.Lines[row.LinePosition]
	s := Stored{
		ID: row.ID, OrderID: row.OrderID, OfferID: row.OfferID, SellerOfferReference: row.SellerOfferReference,
		OrderLine: int(row.LinePosition), Status: Status(row.Status),
		Product: Product{ID: line.ProductID, Title: line.Title, References: line.References, Quantity: line.Quantity},
		Rental:  RentalOfRow(row),
		EndDate: optionalDate(row.EndDate), NoticeDate: optionalDate(row.NoticeDate),
		Extensions: []TakenExtension{}, Charges: make([]Charge, len(p.charges)),
		CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
		SellerID: row.SellerID, ClockOffset: time.Duration(row.ClockOffsetSeconds) * time.Second,
	}
	if s.Product.References == nil {
		s.Product.References = []catalog.Reference{}
	}
	if err := json.Unmarshal(row.Extensions, &s.Extensions); err != nil {
		return Stored{}, fmt.Errorf("contract %s has unreadable extensions: %w", row.ID, err)
	}
	if row.EndOfTerm != nil {
		s.EndOfTerm = &EndOfTerm{}
		if err := json.Unmarshal(row.EndOfTerm, s.EndOfTerm); err != nil {
			return Stored{}, fmt.Errorf("contract %s has unreadable end-of-term options: %w", row.ID, err)
		}
	}
	var err error
	if s.Schedule, err = scheduleOf(row, p.installments); err != nil {
		return Stored{}, err
	}
	if s.Assets, err = assetsOf(p.assets, p.returns); err != nil {
		return Stored{}, fmt.Errorf("contract %s: %w", row.ID, err)
	}
	for i, c := range p.charges {
		s.Charges[i] = Charge{
			ID: c.ID, Kind: ChargeKind(c.Kind), DueDate: civil.DateOf(c.DueDate), CreatedAt: c.CreatedAt,
			Amount: pricing.Money{Currency: c.Currency, Net: c.Net, Gross: c.Gross, TaxRate: c.TaxRate},
		}
	}
	if s.Status.Final() && row.EndedOn != nil {
		s.Outcome = &Outcome{Status: s.Status, EndedOn: civil.DateOf(*row.EndedOn), Charge: s.finalCharge()}
	}
	return s, nil
}

// RentalOfRow is the rental a contract's row stores.
func RentalOfRow(row dbgen.RentalContract) Rental {
	return Rental{
		Months:      int(row.DurationMonths),
		Monthly:     pricing.Money{Currency: row.Currency, Net: row.MonthlyNet, Gross: row.MonthlyGross, TaxRate: row.TaxRate},
		PurchaseNet: row.PurchaseNet,
	}
}

// finalCharge is the charge that ended the contract, if its status has one.
func (s Stored) finalCharge() *Charge {
	kind := map[Status]ChargeKind{BoughtOut: ChargeBuyOut, Terminated: ChargeEarlyTermination}[s.Status]
	for i := range s.Charges {
		if s.Charges[i].Kind == kind {
			return &s.Charges[i]
		}
	}
	return nil
}

// scheduleOf is the schedule of a started contract, checked; nil before
// its term starts.
func scheduleOf(row dbgen.RentalContract, rows []dbgen.ContractInstallment) (*Schedule, error) {
	if row.StartDate == nil {
		return nil, nil
	}
	s := Schedule{Term: Term{Start: civil.DateOf(*row.StartDate), Months: len(rows)}, Installments: make([]Installment, len(rows))}
	for i, r := range rows {
		s.Installments[i] = Installment{
			Number:  int(r.Number),
			Period:  civil.Period{From: civil.DateOf(r.PeriodFrom), To: civil.DateOf(r.PeriodTo)},
			DueDate: civil.DateOf(r.DueDate),
			Amount:  pricing.Money{Currency: r.Currency, Net: r.Net, Gross: r.Gross, TaxRate: r.TaxRate},
			Status:  InstallmentStatus(r.Status),
		}
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("contract %s has a broken schedule: %w", row.ID, err)
	}
	return &s, nil
}

// assetsOf reads a contract's assets with their returns.
func assetsOf(rows []dbgen.OrderAsset, returns []dbgen.ContractReturn) ([]Asset, error) {
	plain, err := orders.AssetsOf(rows)
	if err != nil {
		return nil, err
	}
	out := make([]Asset, len(plain))
	for i, a := range plain {
		out[i] = Asset{
			ID: a.ID, ProductID: a.ProductID, Title: a.Title, References: a.References, Status: a.Status,
			SerialNumber: a.SerialNumber, TrackingURL: a.TrackingURL,
		}
		if out[i].References == nil {
			out[i].References = []catalog.Reference{}
		}
		for _, r := range returns {
			if r.AssetID == a.ID {
				out[i].Status = AssetReturned
				out[i].Return = &AssetReturn{ReturnedOn: civil.DateOf(r.ReturnedOn), TrackingURL: r.TrackingUrl, RecordedAt: r.RecordedAt}
			}
		}
	}
	return out, nil
}

// optionalDate reads a nullable date column.
func optionalDate(t *time.Time) *civil.Date {
	if t == nil {
		return nil
	}
	d := civil.DateOf(*t)
	return &d
}
