// Package consolebench measures the console's operator list pages (make
// bench-console): PostgreSQL is filled with 1,000,000 offers by SQL, not
// through workflows, and each list page is requested over HTTP through
// the real console with a signed-in operator's session; it reports each
// page's p99 and the gzip-compressed size of the first page's load.
package consolebench
