// Package consolebench measures every list page of the console (make
// bench-console): PostgreSQL is filled with 1,000,000 offers and the
// records that follow from them by SQL, not through workflows, and each
// list page of the route table is requested over HTTP through the real
// console with an operator's or a big seller's admin's session; it
// reports each page's p50 and p99 and the gzip-compressed size of the
// first page's load. TestEveryListPageIsMeasured holds the pages to the
// route table.
package consolebench
