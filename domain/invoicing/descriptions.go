package invoicing

import (
	"strconv"
	"strings"

	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/pricing"
)

// wording is what an invoice's lines say in one language.
type wording struct {
	// installment describes a month's rent: {item}, {number}.
	installment string
	// charges describe the charges by kind: {item}; fee the kinds not
	// named (the collection fees).
	charges map[contracts.ChargeKind]string
	fee     string
	// untaxed is the note of a line without tax: the charges Tenure
	// invoices at 0 % are damages (the flat fee and default interest of
	// §288 BGB), which are not subject to VAT.
	untaxed string
}

// wordings are the lines' words in each language of the invoices.
var wordings = map[pricing.Language]wording{
	pricing.English: {
		installment: "Monthly rent {item}, installment {number}",
		charges: map[contracts.ChargeKind]string{
			contracts.ChargeBuyOut:           "Purchase price at the end of the rental: {item}",
			contracts.ChargeEarlyTermination: "Early termination of the rental: {item}",
		},
		fee:     "Fee: {item}",
		untaxed: "Not subject to VAT: compensation for damages (§288 BGB)",
	},
	pricing.German: {
		installment: "Monatsmiete {item}, Rate {number}",
		charges: map[contracts.ChargeKind]string{
			contracts.ChargeBuyOut:           "Kaufpreis zum Mietende: {item}",
			contracts.ChargeEarlyTermination: "Vorzeitige Beendigung des Mietvertrags: {item}",
		},
		fee:     "Gebühr: {item}",
		untaxed: "Nicht steuerbarer Schadensersatz (§ 288 BGB)",
	},
	pricing.Dutch: {
		installment: "Maandhuur {item}, termijn {number}",
		charges: map[contracts.ChargeKind]string{
			contracts.ChargeBuyOut:           "Koopprijs aan het einde van de huur: {item}",
			contracts.ChargeEarlyTermination: "Vroegtijdige beëindiging van de huur: {item}",
		},
		fee:     "Kosten: {item}",
		untaxed: "Niet onderworpen aan btw: schadevergoeding (§ 288 BGB)",
	},
}

// item names what a contract rents: its line's title, with the quantity
// when it rents more than one.
func item(title string, quantity int64) string {
	if quantity > 1 {
		return strconv.FormatInt(quantity, 10) + " × " + title
	}
	return title
}

// installmentLine describes an installment.
func (w wording) installmentLine(item string, number int) string {
	return strings.NewReplacer("{item}", item, "{number}", strconv.Itoa(number)).Replace(w.installment)
}

// chargeLine describes a charge of a kind.
func (w wording) chargeLine(item string, kind contracts.ChargeKind) string {
	text, ok := w.charges[kind]
	if !ok {
		text = w.fee
	}
	return strings.ReplaceAll(text, "{item}", item)
}
