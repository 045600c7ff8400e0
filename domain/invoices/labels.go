package invoices

import (
	"strings"

	"github.com/tenurehq/tenure/domain/pricing"
)

// labels are an invoice's words in one language.
type labels struct {
	invoice, number, date, buyerReference, servicePeriod, buyerVATID  string
	position, description, quantity, unitPrice, net, rate, tax, gross string
	totalNet, taxOn, totalGross, amountDue, exemption                 string
	vatID, taxNumber, page, of, contact, payment                      string
	// units name UN/ECE units, singular and plural.
	units map[string][2]string
	// preNotification announces the collection: amount, date, IBAN,
	// mandate reference, creditor identifier.
	preNotification string
}

// allLabels are the labels of each language.
var allLabels = map[pricing.Language]labels{
	pricing.English: {
		invoice: "Invoice", number: "Invoice number", date: "Invoice date", buyerReference: "Your order",
		servicePeriod: "Service period", buyerVATID: "Your VAT ID",
		position: "Item", description: "Description", quantity: "Quantity", unitPrice: "Unit price (net)",
		net: "Net", rate: "VAT rate", tax: "VAT", gross: "Gross",
		totalNet: "Total net", taxOn: "VAT %s on %s", totalGross: "Total", amountDue: "Amount due",
		exemption: "VAT exemption",
		vatID:     "VAT ID", taxNumber: "Tax number", page: "Page", of: "of", contact: "Contact", payment: "SEPA direct debit",
		units: map[string][2]string{"MON": {"month", "months"}, "C62": {"piece", "pieces"}, "DAY": {"day", "days"}},
		preNotification: "We will collect the amount due of {amount} by SEPA direct debit from your account {iban} on {date}. " +
			"Mandate reference: {mandate}. Creditor identifier: {creditor}.",
	},
	pricing.German: {
		invoice: "Rechnung", number: "Rechnungsnummer", date: "Rechnungsdatum", buyerReference: "Ihre Bestellung",
		servicePeriod: "Leistungszeitraum", buyerVATID: "Ihre USt-IdNr.",
		position: "Pos.", description: "Beschreibung", quantity: "Menge", unitPrice: "Einzelpreis (netto)",
		net: "Netto", rate: "USt.-Satz", tax: "USt.", gross: "Brutto",
		totalNet: "Summe netto", taxOn: "USt. %s auf %s", totalGross: "Gesamtbetrag", amountDue: "Zahlbetrag",
		exemption: "Steuerbefreiung",
		vatID:     "USt-IdNr.", taxNumber: "Steuernummer", page: "Seite", of: "von", contact: "Kontakt", payment: "SEPA-Lastschrift",
		units: map[string][2]string{"MON": {"Monat", "Monate"}, "C62": {"Stück", "Stück"}, "DAY": {"Tag", "Tage"}},
		preNotification: "Den Zahlbetrag von {amount} ziehen wir am {date} per SEPA-Lastschrift von Ihrem Konto {iban} ein. " +
			"Mandatsreferenz: {mandate}. Gläubiger-Identifikationsnummer: {creditor}.",
	},
	pricing.Dutch: {
		invoice: "Factuur", number: "Factuurnummer", date: "Factuurdatum", buyerReference: "Uw bestelling",
		servicePeriod: "Prestatieperiode", buyerVATID: "Uw btw-id",
		position: "Pos.", description: "Omschrijving", quantity: "Aantal", unitPrice: "Prijs (netto)",
		net: "Netto", rate: "Tarief", tax: "Btw", gross: "Bruto",
		totalNet: "Totaal excl. btw", taxOn: "Btw %s over %s", totalGross: "Totaal incl. btw", amountDue: "Te betalen",
		exemption: "Btw-vrijstelling",
		vatID:     "Btw-id", taxNumber: "Belastingnummer", page: "Pagina", of: "van", contact: "Contact", payment: "SEPA-incasso",
		units: map[string][2]string{"MON": {"maand", "maanden"}, "C62": {"stuk", "stuks"}, "DAY": {"dag", "dagen"}},
		preNotification: "Het te betalen bedrag van {amount} wordt op {date} via SEPA-incasso afgeschreven van uw rekening {iban}. " +
			"Machtigingskenmerk: {mandate}. Incassant-ID: {creditor}.",
	},
}

// unit names a quantity's unit: "1 Monat", "2 months"; an unknown code
// stands for itself.
func (l labels) unit(code string, quantity int64) string {
	names, ok := l.units[code]
	if !ok {
		return code
	}
	if quantity == 1 {
		return names[0]
	}
	return names[1]
}

// preNotification is the note that announces the collection, in the
// invoice's language: the pre-notification the SEPA rulebook asks the
// creditor to give before each collection.
func preNotification(inv Invoice, t Totals) string {
	l, s := allLabels[inv.Language], styles[inv.Language]
	return strings.NewReplacer(
		"{amount}", s.money(t.Gross),
		"{date}", s.date(inv.Payment.CollectionDate),
		"{iban}", inv.Payment.DebtorIBAN.Masked(),
		"{mandate}", string(inv.Payment.Mandate),
		"{creditor}", string(inv.Payment.CreditorID),
	).Replace(l.preNotification)
}
