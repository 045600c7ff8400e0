// Package invoices is an invoice as German law and the EN 16931 e-invoice
// standard want it: the Invoice value, its totals, the checks of what
// §14 (4) UStG requires of every invoice (and what the XRechnung CIUS of
// EN 16931 adds), and two renderings of one invoice: the e-invoice in
// UN/CEFACT Cross Industry Invoice syntax (CII D16B, the syntax of
// XRechnung and ZUGFeRD) and a PDF in the customer's language (English,
// German or Dutch).
//
// It is pure: no database, no numbering, no clock. The invoicing workflow
// (issue 24) numbers an invoice in the same transaction that stores it,
// then renders it.
//
// # Amounts
//
// Amounts are integer cents. A line's price is pricing.Money per unit, its
// gross the net taxed once at the line's rate (an installment's amount as
// the contract's schedule has it); the line's amount is that times the
// quantity, never re-rounded. The tax of a rate is the sum of its lines'
// taxes, so the invoice's gross is the sum of what its installments owe,
// to the cent, and the amount collected. EN 16931 computes a rate's tax
// from its taxable amount (BR-CO-17) and accepts a rounding difference of
// up to one currency unit from line-wise taxes; Validate refuses an
// invoice whose difference would exceed it (some hundreds of lines of one
// rate).
package invoices
