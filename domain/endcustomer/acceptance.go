package endcustomer

// MissingForAcceptance lists what keeps an offer from being accepted for
// want of customer data, as field errors under the API's paths: every
// problem of the end customer info (each required field when none was
// given) and of the shipping address (shipping_address when there is
// none). Data stored earlier is checked again, as the allowed countries
// may have changed since. Nothing missing: an empty list.
func MissingForAcceptance(info *EndCustomerInfo, shipping *ShippingAddress, allowedBillingCountries, allowedShippingCountries []string) []FieldError {
	var given EndCustomerInfo
	if info != nil {
		given = *info
	}
	_, problems := ValidateEndCustomer(given, allowedBillingCountries)
	if shipping == nil {
		return append(problems, FieldError{Code: CodeRequired, Field: "shipping_address", Message: "is required"})
	}
	_, shippingProblems := ValidateShippingAddress("shipping_address", *shipping, allowedShippingCountries)
	return append(problems, shippingProblems...)
}
