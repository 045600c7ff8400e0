// Package sepa is SEPA direct debits and credit transfers in the banks'
// own terms and formats: IBANs (validated, masked wherever they could
// leak), BICs, creditor identifiers, mandate references and end-to-end
// ids, the TARGET2 business-day calendar and the earliest collection date
// of a run, the pain.008 (direct debit) and pain.001 (credit transfer)
// files a creditor sends its bank, and the camt.054 notifications of
// returned and booked collections the bank sends back.
//
// It is pure: no database, no clock, no configuration. The collection run
// and the returns import (issue 24's workflows) call it.
//
// # Versions
//
// Files follow the EPC's current Customer-to-PSP implementation
// guidelines (2023 rulebooks onwards): pain.008.001.08 for SDD Core and
// B2B, pain.001.001.09 for SCT. Bank notifications are read as
// camt.054.001.08 (the version the German DFÜ-Abkommen names). Each
// format's official ISO 20022 XSD is vendored under testdata/ (see the
// README there), and every file the tests write is validated against it.
package sepa
