// Package payouts pays sellers for the equipment Tenure finances (issue
// 24): when an order is completed its seller is owed the financed amount
// (the rented lines' net purchase price) minus the financing fee, booked
// in the completion's transaction; a daily batch pays what is owed by
// SEPA credit transfer, one pain.001 file per contractual entity's
// account, each payout once.
package payouts
