// Package contractbench holds the contract benchmarks (make
// bench-contracts), on the dev stack in one process (the Temporal dev
// server, the worker, PostgreSQL):
//
//   - the due-date storm: TENURE_BENCH_CONTRACTS running contracts (10,000
//     by default) whose next installments fall due at the same instant,
//     all due with their events written, as a rate against the raw rate
//     of as many bare workflows that wake from a timer at one instant and
//     run one local activity, on the same server in the same run;
//   - the worker's resident memory before and after those contracts sleep;
//   - the longest history of any run of a 36-month contract with a
//     12-month extension, driven month by month through its life.
package contractbench
