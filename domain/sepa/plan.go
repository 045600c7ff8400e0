package sepa

import (
	"errors"
	"fmt"
	"iter"

	"github.com/tenurehq/tenure/foundation/xmlstream"
)

// A payment file's group header and each payment information block state
// how many transactions follow and their sum (NbOfTxs, CtrlSum) before the
// first of them. A streaming writer cannot know that without reading them
// first, so writing takes two passes over the caller's transactions:
//
//  1. PlanDirectDebits / PlanCreditTransfers read them once, check each,
//     and count and add them up per group in memory that grows with the
//     number of groups (collection dates × sequence types), not of
//     transactions;
//  2. WriteDirectDebits / WriteCreditTransfers read them again and write
//     them, checking as they go that they come as planned, group by group
//     with the planned counts and sums.
//
// The caller's iterator reads its source twice: two queries over data
// that does not change in between (the run's items, fixed once the run is
// planned; or one REPEATABLE READ transaction). A caller that has the
// totals already (a GROUP BY) may build the Plan itself; the writer checks
// it the same way. When the second pass differs from the plan, the writer
// fails with ErrNotAsPlanned and what it wrote must be thrown away: write
// to a temporary file or blob and keep it only when the writer returns
// nil.

// ErrNotAsPlanned refuses transactions that differ, in the second pass,
// from the plan the header was written with.
var ErrNotAsPlanned = errors.New("the transactions differ from the plan")

// Totals are the number of transactions and their sum in cents.
type Totals struct {
	Count int
	Sum   int64
}

// add counts one more transaction.
func (t *Totals) add(amount int64) { t.Count++; t.Sum += amount }

// Group is one payment information block of a file: its key and totals.
type Group[K comparable] struct {
	Key K
	Totals
}

// Plan is what a file will hold: its groups in file order and its totals.
type Plan[K comparable] struct {
	Groups []Group[K]
	Totals
}

// transaction is what a file holds: a collection or a transfer, in its
// group, with its amount, checked alone.
type transaction[K comparable] interface {
	group() K
	amount() int64
	check() error
}

// makePlan is the first pass: each transaction checked, counted and added
// to its group. Transactions of a group must come together; a group that
// comes back after another one is refused, since the file could not
// stream it.
func makePlan[T transaction[K], K comparable](items iter.Seq2[T, error]) (Plan[K], error) {
	var p Plan[K]
	closed := map[K]bool{}
	for item, err := range items {
		if err == nil {
			err = item.check()
		}
		if err != nil {
			return Plan[K]{}, err
		}
		k := item.group()
		if n := len(p.Groups); n == 0 || p.Groups[n-1].Key != k {
			if closed[k] {
				return Plan[K]{}, fmt.Errorf("the transactions of group %v come apart: order them by collection or execution date and sequence type", k)
			}
			if n > 0 {
				closed[p.Groups[n-1].Key] = true
			}
			p.Groups = append(p.Groups, Group[K]{Key: k})
		}
		p.Groups[len(p.Groups)-1].add(item.amount())
		p.add(item.amount())
	}
	if p.Count == 0 {
		return Plan[K]{}, errors.New("a payment file needs at least one transaction")
	}
	return p, nil
}

// writeBlocks is the second pass: each transaction checked and followed
// against the plan, the previous block closed and the next opened at each
// new group, the transaction written. It leaves the last block open.
func writeBlocks[T transaction[K], K comparable](x *xmlstream.Writer, plan Plan[K], items iter.Seq2[T, error], open func(i int, g Group[K]), write func(T)) {
	follow := &follower[K]{plan: plan, group: -1}
	for item, err := range items {
		if err == nil {
			err = item.check()
		}
		var started bool
		if err == nil {
			started, err = follow.next(item.group(), item.amount())
		}
		if err != nil {
			x.Fail(err)
			return
		}
		if started {
			if follow.group > 0 {
				x.End() // the previous block
			}
			open(follow.group, follow.plan.Groups[follow.group])
		}
		write(item)
		if x.Err() != nil {
			return
		}
	}
	x.Fail(follow.finish())
}

// check refuses a plan whose totals do not add up, so a hand-made plan is
// held to the same rules as a computed one.
func (p Plan[K]) check() error {
	var sum Totals
	seen := map[K]bool{}
	for _, g := range p.Groups {
		if g.Count < 1 || g.Sum < int64(g.Count) {
			return fmt.Errorf("%w: group %v has %d transactions for %d cents", ErrNotAsPlanned, g.Key, g.Count, g.Sum)
		}
		if seen[g.Key] {
			return fmt.Errorf("%w: group %v is planned twice", ErrNotAsPlanned, g.Key)
		}
		seen[g.Key] = true
		sum.Count += g.Count
		sum.Sum += g.Sum
	}
	if len(p.Groups) == 0 || sum != p.Totals {
		return fmt.Errorf("%w: the groups add up to %d transactions for %d cents, the plan says %d for %d", ErrNotAsPlanned, sum.Count, sum.Sum, p.Count, p.Sum)
	}
	return nil
}

// follower checks the second pass against the plan.
type follower[K comparable] struct {
	plan  Plan[K]
	group int // index of the current group; -1 before the first
	seen  Totals
}

// next takes one transaction; it reports whether it starts a new group.
func (f *follower[K]) next(key K, amount int64) (bool, error) {
	started := false
	if f.group < 0 || f.plan.Groups[f.group].Key != key {
		if err := f.closeGroup(); err != nil {
			return false, err
		}
		f.group++
		if f.group >= len(f.plan.Groups) || f.plan.Groups[f.group].Key != key {
			return false, fmt.Errorf("%w: a transaction of group %v comes where the plan has none", ErrNotAsPlanned, key)
		}
		f.seen, started = Totals{}, true
	}
	f.seen.add(amount)
	return started, nil
}

// closeGroup checks the current group's totals against the plan.
func (f *follower[K]) closeGroup() error {
	if f.group < 0 {
		return nil
	}
	if g := f.plan.Groups[f.group]; f.seen != g.Totals {
		return fmt.Errorf("%w: group %v has %d transactions for %d cents, the plan %d for %d", ErrNotAsPlanned, g.Key, f.seen.Count, f.seen.Sum, g.Count, g.Sum)
	}
	return nil
}

// finish checks that the last group is complete and none is missing.
func (f *follower[K]) finish() error {
	if err := f.closeGroup(); err != nil {
		return err
	}
	if f.group != len(f.plan.Groups)-1 {
		return fmt.Errorf("%w: %d of %d planned groups came", ErrNotAsPlanned, f.group+1, len(f.plan.Groups))
	}
	return nil
}
