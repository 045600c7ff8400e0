package mandates

import (
	"strings"
	"unicode/utf8"

	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/domain/sepa"
)

// maxHolder is the longest account holder's name: a SEPA debtor's name has
// at most 70 characters.
const maxHolder = 70

// PaymentMethod is what the customer sends to give a mandate.
type PaymentMethod struct {
	IBAN            string
	AccountHolder   string
	MandateAccepted bool
}

// Debtor is a payment method that passed Check.
type Debtor struct {
	IBAN          sepa.IBAN
	AccountHolder string
}

// Check reads a payment method, naming every bad field: an IBAN that is
// not one of a SEPA country with its length and check digits, an empty
// or too long holder, a mandate not agreed to. The messages never repeat
// the IBAN.
func Check(p PaymentMethod) (Debtor, []endcustomer.FieldError) {
	var problems []endcustomer.FieldError
	iban, err := sepa.ParseIBAN(p.IBAN)
	if err != nil {
		code := endcustomer.CodeInvalidFormat
		if strings.TrimSpace(p.IBAN) == "" {
			code = endcustomer.CodeRequired
		}
		problems = append(problems, endcustomer.FieldError{Code: code, Field: "iban", Message: strings.TrimPrefix(err.Error(), sepa.ErrInvalidIBAN.Error()+": ")})
	}
	holder := strings.Join(strings.Fields(p.AccountHolder), " ")
	switch {
	case holder == "":
		problems = append(problems, endcustomer.FieldError{Code: endcustomer.CodeRequired, Field: "account_holder", Message: "the account holder's name is required"})
	case utf8.RuneCountInString(holder) > maxHolder:
		problems = append(problems, endcustomer.FieldError{Code: endcustomer.CodeTooLong, Field: "account_holder", Message: "the account holder's name has at most 70 characters"})
	}
	if !p.MandateAccepted {
		problems = append(problems, endcustomer.FieldError{Code: endcustomer.CodeRequired, Field: "mandate_accepted",
			Message: "the customer must agree to the SEPA direct debit mandate (mandate_accepted: true)"})
	}
	if len(problems) > 0 {
		return Debtor{}, problems
	}
	return Debtor{IBAN: iban, AccountHolder: holder}, nil
}
