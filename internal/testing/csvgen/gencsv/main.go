// Command gencsv writes a synthetic CSV catalog import file, for load tests
// of the CSV import:
//
//	go run ./internal/testing/csvgen/gencsv -rows 1000000 -seed 1 -o /tmp/catalog.csv
//
// It prints what the file holds and how long writing it took.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/tenurehq/tenure/internal/testing/csvgen"
)

func main() {
	rows := flag.Int("rows", 1000, "number of data rows")
	seed := flag.Int64("seed", 1, "seed: the same seed writes the same file")
	path := flag.String("o", "-", "output file, - for standard output")
	flag.Parse()
	log.SetFlags(0)

	var w io.Writer = os.Stdout
	if *path != "-" {
		f, err := os.Create(*path)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	began := time.Now()
	stats, err := csvgen.Generate(w, *rows, *seed)
	if err == nil && *path != "-" {
		// Close reports write errors Generate cannot see.
		err = w.(*os.File).Close()
	}
	if err != nil {
		log.Fatal(err)
	}
	elapsed := time.Since(began)
	// Statistics go to standard error so they never mix with a file on
	// standard output.
	fmt.Fprintf(os.Stderr, "rows %d, invalid %d, bytes %d (%.1f per row), %s\n",
		stats.Rows, stats.Invalid, stats.Bytes, float64(stats.Bytes)/float64(max(stats.Rows, 1)), elapsed.Round(time.Millisecond))
}
