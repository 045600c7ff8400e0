package offers

import (
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/foundation/optional"
)

// EndCustomerOf is the customer's data as the offer stores them, once
// package checkout validated them.
func EndCustomerOf(v endcustomer.ValidEndCustomer) EndCustomer {
	c, u := v.Company, v.User
	return EndCustomer{
		LegalForm:          c.LegalForm,
		Name:               c.Name,
		RegistrationNumber: c.RegistrationNumber,
		VATNumber:          c.VATNumber,
		TaxNumber:          c.TaxNumber,
		BillingAddress:     addressOf(c.BillingAddress),
		CompanyAddress:     addressOf(c.CompanyAddress),
		Language:           v.Language,
		NotVATRegistered:   c.NotVATRegistered,
		FirstName:          u.FirstName,
		LastName:           u.LastName,
		Phone:              Phone(v.Phone),
		PhoneType:          u.PhoneType,
	}
}

// Info is the stored data as package checkout checks them again.
func (e EndCustomer) Info() endcustomer.EndCustomerInfo {
	return endcustomer.EndCustomerInfo{
		Company: endcustomer.Company{
			LegalForm:          e.LegalForm,
			Name:               e.Name,
			RegistrationNumber: e.RegistrationNumber,
			VATNumber:          e.VATNumber,
			TaxNumber:          e.TaxNumber,
			BillingAddress:     checkoutAddress(e.BillingAddress),
			CompanyAddress:     checkoutAddress(e.CompanyAddress),
			Language:           e.Language,
			NotVATRegistered:   e.NotVATRegistered,
		},
		User: endcustomer.User{
			FirstName:           e.FirstName,
			LastName:            e.LastName,
			PhoneCountryCode:    e.Phone.CountryCode,
			PhoneNationalNumber: e.Phone.National,
			PhoneType:           e.PhoneType,
		},
	}
}

// ShippingAddressOf is a validated shipping address as the offer stores it.
func ShippingAddressOf(a endcustomer.ShippingAddress) Address {
	out := *addressOf(&a.Address)
	out.Recipient = optional.NonZero(a.RecipientName)
	return out
}

// Shipping is the stored shipping address as package checkout checks it.
func (a Address) Shipping() endcustomer.ShippingAddress {
	return endcustomer.ShippingAddress{Address: *checkoutAddress(&a), RecipientName: optional.Value(a.Recipient)}
}

func addressOf(a *endcustomer.Address) *Address {
	if a == nil {
		return nil
	}
	return &Address{
		City: a.City, CountryCode: a.CountryCode, Line1: a.Line1, Line2: optional.NonZero(a.Line2),
		PostalCode: a.PostalCode, Region: optional.NonZero(a.Region),
	}
}

func checkoutAddress(a *Address) *endcustomer.Address {
	if a == nil {
		return nil
	}
	return &endcustomer.Address{
		Line1: a.Line1, Line2: optional.Value(a.Line2), PostalCode: a.PostalCode,
		City: a.City, Region: optional.Value(a.Region), CountryCode: a.CountryCode,
	}
}
