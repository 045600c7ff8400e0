// Package invoicing issues Tenure's invoices from what the database holds
// (issue 24): one invoice per order and month for the order's installments
// due that month, one per contract charge. An invoice is numbered from its
// contractual entity's counter, rendered as a PDF and a CII e-invoice
// (package invoices) and stored with its documents, all in the transaction
// of the change that caused it (an installment falling due, a charge
// added), so an invoice and its number exist together or not at all.
package invoicing
