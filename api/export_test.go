package api

// What the external tests share with the package: the text no answer may
// show, and how the contract's limits are read.
var (
	Internals = internals
	MaxLength = maxLength
	MaxItems  = maxItems
	ExtLimit  = extLimit
)
