package invoices

import (
	"bytes"
	"encoding/xml"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// ciiSchema is the vendored CII D16B schema.
var ciiSchema = filepath.Join("testdata", "cii", "CrossIndustryInvoice_100pD16B.xsd")

// valueWithAttr is an element's text and one attribute.
type valueWithAttr struct {
	Value  string `xml:",chardata"`
	Unit   string `xml:"unitCode,attr"`
	Scheme string `xml:"schemeID,attr"`
	Ccy    string `xml:"currencyID,attr"`
}

// ciiParty is what the tests read of a trade party.
type ciiParty struct {
	Name         string          `xml:"Name"`
	ContactName  string          `xml:"DefinedTradeContact>PersonName"`
	ContactPhone string          `xml:"DefinedTradeContact>TelephoneUniversalCommunication>CompleteNumber"`
	ContactEmail string          `xml:"DefinedTradeContact>EmailURIUniversalCommunication>URIID"`
	PostalCode   string          `xml:"PostalTradeAddress>PostcodeCode"`
	Street       string          `xml:"PostalTradeAddress>LineOne"`
	City         string          `xml:"PostalTradeAddress>CityName"`
	Country      string          `xml:"PostalTradeAddress>CountryID"`
	Email        valueWithAttr   `xml:"URIUniversalCommunication>URIID"`
	Tax          []valueWithAttr `xml:"SpecifiedTaxRegistration>ID"`
}

// ciiDocument is what the tests read back from an e-invoice.
type ciiDocument struct {
	XMLName         xml.Name `xml:"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100 CrossIndustryInvoice"`
	BusinessProcess string   `xml:"ExchangedDocumentContext>BusinessProcessSpecifiedDocumentContextParameter>ID"`
	Guideline       string   `xml:"ExchangedDocumentContext>GuidelineSpecifiedDocumentContextParameter>ID"`
	Number          string   `xml:"ExchangedDocument>ID"`
	TypeCode        string   `xml:"ExchangedDocument>TypeCode"`
	IssueDate       string   `xml:"ExchangedDocument>IssueDateTime>DateTimeString"`
	Note            string   `xml:"ExchangedDocument>IncludedNote>Content"`
	Lines           []struct {
		ID       string        `xml:"AssociatedDocumentLineDocument>LineID"`
		Name     string        `xml:"SpecifiedTradeProduct>Name"`
		NetPrice string        `xml:"SpecifiedLineTradeAgreement>NetPriceProductTradePrice>ChargeAmount"`
		Quantity valueWithAttr `xml:"SpecifiedLineTradeDelivery>BilledQuantity"`
		Category string        `xml:"SpecifiedLineTradeSettlement>ApplicableTradeTax>CategoryCode"`
		Rate     string        `xml:"SpecifiedLineTradeSettlement>ApplicableTradeTax>RateApplicablePercent"`
		Start    string        `xml:"SpecifiedLineTradeSettlement>BillingSpecifiedPeriod>StartDateTime>DateTimeString"`
		End      string        `xml:"SpecifiedLineTradeSettlement>BillingSpecifiedPeriod>EndDateTime>DateTimeString"`
		Total    string        `xml:"SpecifiedLineTradeSettlement>SpecifiedTradeSettlementLineMonetarySummation>LineTotalAmount"`
	} `xml:"SupplyChainTradeTransaction>IncludedSupplyChainTradeLineItem"`
	BuyerReference string   `xml:"SupplyChainTradeTransaction>ApplicableHeaderTradeAgreement>BuyerReference"`
	Seller         ciiParty `xml:"SupplyChainTradeTransaction>ApplicableHeaderTradeAgreement>SellerTradeParty"`
	Buyer          ciiParty `xml:"SupplyChainTradeTransaction>ApplicableHeaderTradeAgreement>BuyerTradeParty"`
	Settlement     struct {
		CreditorID       string `xml:"CreditorReferenceID"`
		PaymentReference string `xml:"PaymentReference"`
		Currency         string `xml:"InvoiceCurrencyCode"`
		MeansCode        string `xml:"SpecifiedTradeSettlementPaymentMeans>TypeCode"`
		DebtorIBAN       string `xml:"SpecifiedTradeSettlementPaymentMeans>PayerPartyDebtorFinancialAccount>IBANID"`
		Taxes            []struct {
			Calculated string `xml:"CalculatedAmount"`
			TypeCode   string `xml:"TypeCode"`
			Exemption  string `xml:"ExemptionReason"`
			Basis      string `xml:"BasisAmount"`
			Category   string `xml:"CategoryCode"`
			Rate       string `xml:"RateApplicablePercent"`
		} `xml:"ApplicableTradeTax"`
		Start      string        `xml:"BillingSpecifiedPeriod>StartDateTime>DateTimeString"`
		End        string        `xml:"BillingSpecifiedPeriod>EndDateTime>DateTimeString"`
		Terms      string        `xml:"SpecifiedTradePaymentTerms>Description"`
		DueDate    string        `xml:"SpecifiedTradePaymentTerms>DueDateDateTime>DateTimeString"`
		Mandate    string        `xml:"SpecifiedTradePaymentTerms>DirectDebitMandateID"`
		LineTotal  string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>LineTotalAmount"`
		Charges    string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>ChargeTotalAmount"`
		Allowances string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>AllowanceTotalAmount"`
		TaxBasis   string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>TaxBasisTotalAmount"`
		TaxTotal   valueWithAttr `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>TaxTotalAmount"`
		Rounding   string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>RoundingAmount"`
		GrandTotal string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>GrandTotalAmount"`
		Prepaid    string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>TotalPrepaidAmount"`
		DuePayable string        `xml:"SpecifiedTradeSettlementHeaderMonetarySummation>DuePayableAmount"`
	} `xml:"SupplyChainTradeTransaction>ApplicableHeaderTradeSettlement"`
}

// hundredths reads a decimal with at most two decimals into hundredths;
// "" is 0 (an optional amount left out).
func hundredths(t testing.TB, s string) int64 {
	t.Helper()
	if s == "" {
		return 0
	}
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 2 {
		t.Fatalf("%q has more than two decimals", s)
	}
	frac += strings.Repeat("0", 2-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("%q is not a decimal", s)
	}
	if strings.HasPrefix(whole, "-") {
		return w*100 - f
	}
	return w*100 + f
}

// writeCII writes and reads back an e-invoice, valid against the schema.
func writeCII(t *testing.T, inv Invoice) (ciiDocument, []byte) {
	t.Helper()
	var out bytes.Buffer
	if err := WriteCII(&out, inv); err != nil {
		t.Fatal(err)
	}
	xmllint.Validate(t, ciiSchema, out.Bytes())
	var doc ciiDocument
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc, out.Bytes()
}

// checkTotalsRules checks EN 16931's totals rules on an e-invoice as read
// back, from its own figures: BR-CO-10 to BR-CO-17 and BR-S-08 / BR-E-08.
func checkTotalsRules(t *testing.T, doc ciiDocument) {
	t.Helper()
	s := doc.Settlement
	var lines int64
	byCategory := map[string]int64{}
	for _, l := range doc.Lines {
		lines += hundredths(t, l.Total)
		byCategory[l.Category+" "+l.Rate] += hundredths(t, l.Total)
	}
	lineTotal, allowances, charges := hundredths(t, s.LineTotal), hundredths(t, s.Allowances), hundredths(t, s.Charges)
	taxBasis, taxTotal, grand := hundredths(t, s.TaxBasis), hundredths(t, s.TaxTotal.Value), hundredths(t, s.GrandTotal)
	if lineTotal != lines {
		t.Errorf("BR-CO-10: the sum of line amounts is %d, the lines add up to %d", lineTotal, lines)
	}
	if allowances != 0 || charges != 0 {
		t.Errorf("BR-CO-11/12: document allowances %d and charges %d, the invoice has none", allowances, charges)
	}
	if taxBasis != lineTotal-allowances+charges {
		t.Errorf("BR-CO-13: the total without VAT is %d, want %d", taxBasis, lineTotal-allowances+charges)
	}
	var taxes int64
	for _, tax := range s.Taxes {
		calculated, basis, rate := hundredths(t, tax.Calculated), hundredths(t, tax.Basis), hundredths(t, tax.Rate)
		taxes += calculated
		exact := pricing.FromNet("", basis, rate)
		if d := calculated - (exact.Gross - exact.Net); d > 100 || d < -100 {
			t.Errorf("BR-CO-17: %s %% of %d is %d, the invoice says %d", tax.Rate, basis, exact.Gross-exact.Net, calculated)
		}
		if basis != byCategory[tax.Category+" "+tax.Rate] {
			t.Errorf("BR-%s-08: the taxable amount at %s %% is %d, its lines add up to %d", tax.Category, tax.Rate, basis, byCategory[tax.Category+" "+tax.Rate])
		}
		if tax.TypeCode != "VAT" || (tax.Category == "E") != (rate == 0) || (tax.Category == "E") != (tax.Exemption != "") {
			t.Errorf("the VAT breakdown at %s %%: %+v", tax.Rate, tax)
		}
		delete(byCategory, tax.Category+" "+tax.Rate)
	}
	if len(byCategory) > 0 {
		t.Errorf("BR-CO-18: lines of %v have no VAT breakdown", byCategory)
	}
	if taxTotal != taxes || s.TaxTotal.Ccy != s.Currency {
		t.Errorf("BR-CO-14: the VAT total is %d %s, the breakdown adds up to %d", taxTotal, s.TaxTotal.Ccy, taxes)
	}
	if grand != taxBasis+taxTotal {
		t.Errorf("BR-CO-15: the total with VAT is %d, want %d", grand, taxBasis+taxTotal)
	}
	if due := hundredths(t, s.DuePayable); due != grand-hundredths(t, s.Prepaid)+hundredths(t, s.Rounding) {
		t.Errorf("BR-CO-16: the amount due is %d, want %d", due, grand)
	}
}

func TestCIIInvoiceIsValidXRechnungAndAddsUp(t *testing.T) {
	for _, lang := range []pricing.Language{pricing.German, pricing.English, pricing.Dutch} {
		inv := testInvoice(t, lang)
		doc, data := writeCII(t, inv)
		checkTotalsRules(t, doc)

		if doc.BusinessProcess != BusinessProcess || doc.Guideline != "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0" {
			t.Errorf("%s: context %q %q", lang, doc.BusinessProcess, doc.Guideline)
		}
		if doc.Number != "2026-000017" || doc.TypeCode != "380" || doc.IssueDate != "20261125" || !strings.Contains(doc.Note, "HRB 123456 B") {
			t.Errorf("%s: document %s %s %s %q", lang, doc.Number, doc.TypeCode, doc.IssueDate, doc.Note)
		}
		if len(doc.Lines) != len(inv.Lines) {
			t.Fatalf("%s: %d lines, want %d", lang, len(doc.Lines), len(inv.Lines))
		}
		for i, l := range doc.Lines {
			want := inv.Lines[i]
			if l.ID != strconv.Itoa(i+1) || l.Name != want.Description || hundredths(t, l.NetPrice) != want.Price.Net ||
				l.Quantity.Value != strconv.FormatInt(want.Quantity, 10) || l.Quantity.Unit != want.Unit ||
				hundredths(t, l.Rate) != want.Price.TaxRate || l.Category != "S" || hundredths(t, l.Total) != want.Amount().Net ||
				l.Start != strings.ReplaceAll(want.Period.From.String(), "-", "") || l.End != strings.ReplaceAll(want.Period.To.String(), "-", "") {
				t.Errorf("%s: line %d: %+v", lang, i+1, l)
			}
		}
		if doc.BuyerReference != "ORD-2026-4711" {
			t.Errorf("%s: buyer reference %q", lang, doc.BuyerReference)
		}
		seller, buyer := doc.Seller, doc.Buyer
		if seller.Name != "Tenure Finanz GmbH" || seller.ContactName != "Forderungsmanagement" || seller.ContactPhone != "+49 30 1234567" ||
			seller.ContactEmail != "finanzen@tenure.example" || seller.Street != "Friedrichstraße 123" || seller.PostalCode != "10117" ||
			seller.City != "Berlin" || seller.Country != "DE" || seller.Email.Value != "rechnung@tenure.example" || seller.Email.Scheme != "EM" ||
			len(seller.Tax) != 2 || seller.Tax[0] != (valueWithAttr{Value: "DE123456789", Scheme: "VA"}) || seller.Tax[1] != (valueWithAttr{Value: "37/123/45678", Scheme: "FC"}) {
			t.Errorf("%s: seller %+v", lang, seller)
		}
		if buyer.Name != "Müller & Söhne Fahrradwerkstatt GmbH" || buyer.City != "Düsseldorf" || buyer.PostalCode != "40212" ||
			len(buyer.Tax) != 1 || buyer.Tax[0] != (valueWithAttr{Value: "DE987654321", Scheme: "VA"}) || buyer.ContactName != "" {
			t.Errorf("%s: buyer %+v", lang, buyer)
		}
		s := doc.Settlement
		if s.MeansCode != "59" || s.CreditorID != "DE98ZZZ09999999999" || s.Mandate != "TNR0190F3A27B1C7DEF8A123456789ABCDE" ||
			s.DueDate != "20261201" || s.DebtorIBAN != "DE89 **** **** **** **** 00" || s.Currency != "EUR" || s.PaymentReference != "2026-000017" ||
			s.Start != "20261201" || s.End != "20270114" {
			t.Errorf("%s: settlement %+v", lang, s)
		}
		if !strings.Contains(s.Terms, "336") || !strings.Contains(s.Terms, "TNR0190F3A27B1C7DEF8A123456789ABCDE") || !strings.Contains(s.Terms, "DE98ZZZ09999999999") {
			t.Errorf("%s: the payment terms do not pre-notify the collection: %q", lang, s.Terms)
		}
		if bytes.Contains(data, []byte("370400440532013000")) {
			t.Errorf("%s: the e-invoice carries the unmasked IBAN", lang)
		}
		if got := hundredths(t, s.GrandTotal); got != 33683 {
			t.Errorf("%s: grand total %d", lang, got)
		}
	}
}

func TestCIIInvoiceWithAnExemptLine(t *testing.T) {
	inv := testInvoice(t, pricing.German)
	inv.Lines = append(inv.Lines, Line{Description: "Sachverständigengutachten", Quantity: 1, Unit: "C62",
		Price: pricing.FromNet("EUR", 5000, 0), Period: month(t, "2026-12")})
	inv.ExemptionReason = "Steuerfrei nach § 4 Nr. 8 UStG"
	doc, _ := writeCII(t, inv)
	checkTotalsRules(t, doc)
	if len(doc.Settlement.Taxes) != 3 || doc.Settlement.Taxes[0].Category != "E" || doc.Settlement.Taxes[0].Exemption != inv.ExemptionReason {
		t.Errorf("the breakdown %+v", doc.Settlement.Taxes)
	}
}

func TestWriteCIIRefusesAnInvalidInvoice(t *testing.T) {
	inv := testInvoice(t, pricing.German)
	inv.Seller.VATID, inv.Seller.TaxNumber = "", ""
	var out bytes.Buffer
	err := WriteCII(&out, inv)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "seller.vat_id") || out.Len() != 0 {
		t.Errorf("%v, %d bytes", err, out.Len())
	}
}
