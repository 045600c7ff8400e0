package pricing

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
)

// AllowedDurations are the rent term lengths, in months, the Seller API can
// express: its rent term enum (RentalTermMonths) has exactly these values,
// so merchant clients generated from the contract reject any other.
var AllowedDurations = []int{6, 12, 24, 36}

// DefaultDurations are the terms offered when nothing else is configured.
var DefaultDurations = []int{12, 24, 36}

// Config is everything the engine needs, passed in by the caller.
type Config struct {
	// Durations are the offered term lengths in months.
	Durations []int
	// DefaultDuration is the term recommended first; one of Durations.
	DefaultDuration int
	// MinRentBasis is the smallest basis (net minor units) offered for rent;
	// cheaper products are offered for paying now only.
	MinRentBasis int64
	// Rates maps a pricing category to the monthly rate of each duration,
	// in basis points of the basis (350 is 3.50 % per month).
	Rates map[string]map[int]int64
	// DefaultCategory prices products whose category has no rates.
	DefaultCategory string
	// Services are the first-party services offered with lines, by pricing
	// category and service type; a category without services offers none
	// (there is no fallback to DefaultCategory).
	Services map[string]map[string]ServiceTerms
}

// Problem is one thing wrong with a Config; Key is relative to the
// configuration section, e.g. "rates.hardware.36".
type Problem struct {
	Key     string
	Message string
}

// Problems lists everything wrong with the configuration, in a stable order.
func (c Config) Problems() []Problem {
	var ps []Problem
	bad := func(key, format string, args ...any) {
		ps = append(ps, Problem{Key: key, Message: fmt.Sprintf(format, args...)})
	}
	if len(c.Durations) == 0 {
		bad("durations", "must list at least one term length out of %v", AllowedDurations)
	}
	seen := map[int]bool{}
	for _, d := range c.Durations {
		switch {
		case !slices.Contains(AllowedDurations, d):
			bad("durations", "%d months is not allowed: the Seller API contract's rent term enum (RentalTermMonths) "+
				"only has %v, and merchant clients generated from it would reject any other term", d, AllowedDurations)
		case seen[d]:
			bad("durations", "lists %d twice", d)
		}
		seen[d] = true
	}
	if !seen[c.DefaultDuration] {
		bad("default_duration", "must be one of the offered durations %v, got %d", c.Durations, c.DefaultDuration)
	}
	if c.MinRentBasis < 0 {
		bad("min_rent_basis", "must not be negative, got %d", c.MinRentBasis)
	}
	if _, ok := c.Rates[c.DefaultCategory]; !ok {
		bad("default_category", "must be a category with rates, got %q", c.DefaultCategory)
	}
	durations := sortedDurations(c.Durations)
	for _, category := range sortedKeys(c.Rates) {
		ps = append(ps, rateProblems(category, c.Rates[category], durations)...)
	}
	return append(ps, serviceProblems(c.Services, c.Rates)...)
}

// rateProblems checks one category: a rate for every duration, each in
// (0, 10000], never higher for a longer term.
func rateProblems(category string, rates map[int]int64, durations []int) []Problem {
	var ps []Problem
	key := func(d int) string { return "rates." + category + "." + strconv.Itoa(d) }
	previous, previousDuration := int64(0), 0
	for _, d := range durations {
		if !slices.Contains(AllowedDurations, d) {
			continue
		}
		r, ok := rates[d]
		switch {
		case !ok:
			ps = append(ps, Problem{key(d), fmt.Sprintf("is missing: every category needs a rate for each of the durations %v", durations)})
			continue
		case r <= 0 || r > taxScale:
			ps = append(ps, Problem{key(d), fmt.Sprintf("must be between 1 and %d basis points of the basis per month, got %d", taxScale, r)})
		case previousDuration != 0 && r > previous:
			ps = append(ps, Problem{key(d), fmt.Sprintf("(%d) must not exceed %s (%d): a longer term never costs more per month", r, key(previousDuration), previous)})
		}
		previous, previousDuration = r, d
	}
	return ps
}

func sortedDurations(ds []int) []int {
	out := slices.Clone(ds)
	slices.Sort(out)
	return slices.Compact(out)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
