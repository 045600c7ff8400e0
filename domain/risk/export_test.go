package risk

// What the benchmarks of package risk_test (which need PostgreSQL) share
// with those of package risk.
var (
	FiftyRules    = fiftyRules
	BenchSnapshot = benchSnapshot
)
