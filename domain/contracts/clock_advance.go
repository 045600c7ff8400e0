package contracts

// MaxClockAdvanceMonths bounds one move of a sandbox contract's clock
// (advance_contract_clock): by months, or to a day at most this many months
// after the contract's today.
const MaxClockAdvanceMonths = 120
