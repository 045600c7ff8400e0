package invoices

import (
	"io"
	"strconv"
	"strings"

	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/xmlstream"
)

// The namespaces of UN/CEFACT's Cross Industry Invoice (D16B), the syntax
// of XRechnung's and ZUGFeRD's CII flavour.
const (
	nsRSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
	nsRAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
	nsUDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
	nsQDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
)

// Identifiers of the e-invoice (BT-23, BT-24).
const (
	// BusinessProcess is the Peppol billing process XRechnung names.
	BusinessProcess = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"
	// Specification is XRechnung 3.0, a CIUS of EN 16931: an invoice that
	// conforms to it conforms to EN 16931.
	Specification = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
)

// UNTDID codes the invoice uses.
const (
	commercialInvoice = "380" // UNTDID 1001
	sepaDirectDebit   = "59"  // UNTDID 4461
	standardRate      = "S"   // UNTDID 5305
	exempt            = "E"
)

// WriteCII writes the invoice as an EN 16931 e-invoice in CII syntax
// (CrossIndustryInvoice D16B) with XRechnung 3.0's specification
// identifier: the parties with their addresses, VAT ids and the seller's
// contact, each line with its quantity, unit net price, service period and
// tax rate, the VAT breakdown, the totals, and SEPA direct debit as the
// payment means (code 59) with the mandate reference, the creditor
// identifier, the masked debtor account and the collection date as the due
// date. It refuses an invoice Validate finds problems in.
//
// The debtor's IBAN is masked (BT-91): the file is served through the
// Seller API, where no IBAN may appear. XRechnung's BR-DE-20 asks for a
// complete IBAN as a warning, not an error.
func WriteCII(w io.Writer, inv Invoice) error {
	if err := errorOf(inv.Validate()); err != nil {
		return err
	}
	t := inv.Totals()
	x := xmlstream.NewWriter(w)
	x.Start("rsm:CrossIndustryInvoice",
		xmlstream.Attr("xmlns:rsm", nsRSM), xmlstream.Attr("xmlns:ram", nsRAM),
		xmlstream.Attr("xmlns:qdt", nsQDT), xmlstream.Attr("xmlns:udt", nsUDT))

	x.Start("rsm:ExchangedDocumentContext")
	x.Start("ram:BusinessProcessSpecifiedDocumentContextParameter")
	x.Text("ram:ID", BusinessProcess)
	x.End()
	x.Start("ram:GuidelineSpecifiedDocumentContextParameter")
	x.Text("ram:ID", Specification)
	x.End()
	x.End()

	x.Start("rsm:ExchangedDocument")
	x.Text("ram:ID", inv.Number)
	x.Text("ram:TypeCode", commercialInvoice)
	writeDateTime(x, "ram:IssueDateTime", inv.IssueDate)
	if len(inv.Seller.LegalInfo) > 0 {
		x.Start("ram:IncludedNote")
		x.Text("ram:Content", strings.Join(inv.Seller.LegalInfo, "\n"))
		x.Text("ram:SubjectCode", "REG") // UNTDID 4451: regulatory information
		x.End()
	}
	x.End()

	x.Start("rsm:SupplyChainTradeTransaction")
	for i, l := range inv.Lines {
		writeLine(x, i, l)
	}
	x.Start("ram:ApplicableHeaderTradeAgreement")
	x.Text("ram:BuyerReference", inv.BuyerReference)
	writeTradeParty(x, "ram:SellerTradeParty", inv.Seller, true)
	writeTradeParty(x, "ram:BuyerTradeParty", inv.Buyer, false)
	x.End()
	x.Start("ram:ApplicableHeaderTradeDelivery")
	x.End()
	writeSettlement(x, inv, t)
	x.End() // SupplyChainTradeTransaction
	x.End() // CrossIndustryInvoice
	return x.Close()
}

// writeDateTime writes a date in format 102 (YYYYMMDD).
func writeDateTime(x *xmlstream.Writer, element string, d civil.Date) {
	x.Start(element)
	x.Text("udt:DateTimeString", strings.ReplaceAll(d.String(), "-", ""), xmlstream.Attr("format", "102"))
	x.End()
}

// writePeriod writes a service period (BG-14, BG-26).
func writePeriod(x *xmlstream.Writer, p civil.Period) {
	x.Start("ram:BillingSpecifiedPeriod")
	writeDateTime(x, "ram:StartDateTime", p.From)
	writeDateTime(x, "ram:EndDateTime", p.To)
	x.End()
}

// categoryOf is a rate's VAT category: standard, or exempt at 0 %.
func categoryOf(rate int64) string {
	if rate == 0 {
		return exempt
	}
	return standardRate
}

// writeLine writes an invoice line (BG-25).
func writeLine(x *xmlstream.Writer, i int, l Line) {
	x.Start("ram:IncludedSupplyChainTradeLineItem")
	x.Start("ram:AssociatedDocumentLineDocument")
	x.Text("ram:LineID", strconv.Itoa(i+1))
	x.End()
	x.Start("ram:SpecifiedTradeProduct")
	x.Text("ram:Name", l.Description)
	x.End()
	x.Start("ram:SpecifiedLineTradeAgreement")
	x.Start("ram:NetPriceProductTradePrice")
	x.Text("ram:ChargeAmount", twoDecimals(l.Price.Net))
	x.End()
	x.End()
	x.Start("ram:SpecifiedLineTradeDelivery")
	x.Text("ram:BilledQuantity", strconv.FormatInt(l.Quantity, 10), xmlstream.Attr("unitCode", l.Unit))
	x.End()
	x.Start("ram:SpecifiedLineTradeSettlement")
	x.Start("ram:ApplicableTradeTax")
	x.Text("ram:TypeCode", "VAT")
	x.Text("ram:CategoryCode", categoryOf(l.Price.TaxRate))
	x.Text("ram:RateApplicablePercent", twoDecimals(l.Price.TaxRate))
	x.End()
	writePeriod(x, l.Period)
	x.Start("ram:SpecifiedTradeSettlementLineMonetarySummation")
	x.Text("ram:LineTotalAmount", twoDecimals(l.Amount().Net))
	x.End()
	x.End()
	x.End()
}

// writeTradeParty writes the seller (with its contact and tax
// registrations) or the buyer.
func writeTradeParty(x *xmlstream.Writer, element string, p Party, seller bool) {
	x.Start(element)
	x.Text("ram:Name", p.Name)
	if c := p.Contact; seller || c != (Contact{}) {
		x.Start("ram:DefinedTradeContact")
		if c.Name != "" {
			x.Text("ram:PersonName", c.Name)
		}
		if c.Phone != "" {
			x.Start("ram:TelephoneUniversalCommunication")
			x.Text("ram:CompleteNumber", c.Phone)
			x.End()
		}
		if c.Email != "" {
			x.Start("ram:EmailURIUniversalCommunication")
			x.Text("ram:URIID", c.Email)
			x.End()
		}
		x.End()
	}
	a := p.Address
	x.Start("ram:PostalTradeAddress")
	x.Text("ram:PostcodeCode", a.PostalCode)
	x.Text("ram:LineOne", a.Street)
	if a.Street2 != "" {
		x.Text("ram:LineTwo", a.Street2)
	}
	x.Text("ram:CityName", a.City)
	x.Text("ram:CountryID", a.Country)
	x.End()
	if p.Email != "" {
		x.Start("ram:URIUniversalCommunication")
		x.Text("ram:URIID", p.Email, xmlstream.Attr("schemeID", "EM"))
		x.End()
	}
	if p.VATID != "" {
		x.Start("ram:SpecifiedTaxRegistration")
		x.Text("ram:ID", p.VATID, xmlstream.Attr("schemeID", "VA"))
		x.End()
	}
	if seller && p.TaxNumber != "" {
		x.Start("ram:SpecifiedTaxRegistration")
		x.Text("ram:ID", p.TaxNumber, xmlstream.Attr("schemeID", "FC"))
		x.End()
	}
	x.End()
}

// writeSettlement writes the payment, the VAT breakdown and the totals.
func writeSettlement(x *xmlstream.Writer, inv Invoice, t Totals) {
	d := inv.Payment
	x.Start("ram:ApplicableHeaderTradeSettlement")
	x.Text("ram:CreditorReferenceID", string(d.CreditorID))
	x.Text("ram:PaymentReference", inv.Number)
	x.Text("ram:InvoiceCurrencyCode", inv.Currency)
	x.Start("ram:SpecifiedTradeSettlementPaymentMeans")
	x.Text("ram:TypeCode", sepaDirectDebit)
	x.Start("ram:PayerPartyDebtorFinancialAccount")
	x.Text("ram:IBANID", d.DebtorIBAN.Masked())
	x.End()
	x.End()
	for _, r := range t.Rates {
		x.Start("ram:ApplicableTradeTax")
		x.Text("ram:CalculatedAmount", twoDecimals(r.Tax))
		x.Text("ram:TypeCode", "VAT")
		if r.Rate == 0 {
			x.Text("ram:ExemptionReason", inv.ExemptionReason)
		}
		x.Text("ram:BasisAmount", twoDecimals(r.Net))
		x.Text("ram:CategoryCode", categoryOf(r.Rate))
		x.Text("ram:RateApplicablePercent", twoDecimals(r.Rate))
		x.End()
	}
	writePeriod(x, inv.ServicePeriod())
	x.Start("ram:SpecifiedTradePaymentTerms")
	x.Text("ram:Description", preNotification(inv, t))
	writeDateTime(x, "ram:DueDateDateTime", d.CollectionDate)
	x.Text("ram:DirectDebitMandateID", string(d.Mandate))
	x.End()
	x.Start("ram:SpecifiedTradeSettlementHeaderMonetarySummation")
	x.Text("ram:LineTotalAmount", twoDecimals(t.Net))
	x.Text("ram:TaxBasisTotalAmount", twoDecimals(t.Net))
	x.Text("ram:TaxTotalAmount", twoDecimals(t.Tax), xmlstream.Attr("currencyID", inv.Currency))
	x.Text("ram:GrandTotalAmount", twoDecimals(t.Gross))
	x.Text("ram:DuePayableAmount", twoDecimals(t.Gross))
	x.End()
	x.End()
}
