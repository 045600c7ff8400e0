package sepa

// ibanFormat is a country's IBAN: its length and the structure of the
// national part (BBAN) after the country code and the check digits, in the
// IBAN Registry's notation: runs of n digits ("8n"), a upper-case letters
// ("4a") or c letters or digits ("12c").
type ibanFormat struct {
	length int
	bban   string
}

// sepaCountries are the country codes IBANs of the SEPA schemes carry,
// with their format.
//
// Membership: the EPC's "List of SEPA Scheme Countries" (EPC409-09,
// version 2025): the 27 EU member states; Iceland, Liechtenstein and Norway
// (EEA); Andorra, Monaco, San Marino, Switzerland, the United Kingdom and
// the Vatican; Albania, Moldova, Montenegro and North Macedonia (admitted
// by the EPC between November 2024 and March 2025); Serbia (admitted by the
// EPC in 2025). Territories listed there bank under another code: Åland
// (FI); the French overseas departments, Saint-Barthélemy, Saint-Martin
// and Saint-Pierre-et-Miquelon (FR); the Azores and Madeira (PT); the
// Canaries, Ceuta and Melilla (ES); Guernsey, Jersey and the Isle of Man
// (GB). Gibraltar has its own code.
//
// Formats: SWIFT's IBAN Registry (release 2025), the length and the BBAN
// structure of each country.
var sepaCountries = map[string]ibanFormat{
	"AD": {24, "4n4n12c"},     // Andorra
	"AL": {28, "8n16c"},       // Albania
	"AT": {20, "5n11n"},       // Austria
	"BE": {16, "3n7n2n"},      // Belgium
	"BG": {22, "4a4n2n8c"},    // Bulgaria
	"CH": {21, "5n12c"},       // Switzerland
	"CY": {28, "3n5n16c"},     // Cyprus
	"CZ": {24, "4n6n10n"},     // Czechia
	"DE": {22, "8n10n"},       // Germany
	"DK": {18, "4n9n1n"},      // Denmark
	"EE": {20, "2n2n11n1n"},   // Estonia
	"ES": {24, "4n4n1n1n10n"}, // Spain
	"FI": {18, "3n11n"},       // Finland, Åland
	"FR": {27, "5n5n11c2n"},   // France and its SEPA territories
	"GB": {22, "4a6n8n"},      // United Kingdom, Guernsey, Jersey, Isle of Man
	"GI": {23, "4a15c"},       // Gibraltar
	"GR": {27, "3n4n16c"},     // Greece
	"HR": {21, "7n10n"},       // Croatia
	"HU": {28, "3n4n1n15n1n"}, // Hungary
	"IE": {22, "4a6n8n"},      // Ireland
	"IS": {26, "4n2n6n10n"},   // Iceland
	"IT": {27, "1a5n5n12c"},   // Italy
	"LI": {21, "5n12c"},       // Liechtenstein
	"LT": {20, "5n11n"},       // Lithuania
	"LU": {20, "3n13c"},       // Luxembourg
	"LV": {21, "4a13c"},       // Latvia
	"MC": {27, "5n5n11c2n"},   // Monaco
	"MD": {24, "2c18c"},       // Moldova
	"ME": {22, "3n13n2n"},     // Montenegro
	"MK": {19, "3n10c2n"},     // North Macedonia
	"MT": {31, "4a5n18c"},     // Malta
	"NL": {18, "4a10n"},       // Netherlands
	"NO": {15, "4n6n1n"},      // Norway
	"PL": {28, "8n16n"},       // Poland
	"PT": {25, "4n4n11n2n"},   // Portugal
	"RO": {24, "4a16c"},       // Romania
	"RS": {22, "3n13n2n"},     // Serbia
	"SE": {24, "3n16n1n"},     // Sweden
	"SI": {19, "5n8n2n"},      // Slovenia
	"SK": {24, "4n6n10n"},     // Slovakia
	"SM": {27, "1a5n5n12c"},   // San Marino
	"VA": {22, "3n15n"},       // Vatican City
}
