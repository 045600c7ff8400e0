// Package csvgen writes synthetic CSV catalog import files, deterministic
// for a seed, for load tests and benchmarks of the CSV import: realistic
// office and IT products with a mix of optional columns, about 1 % of rows
// invalid in varied ways. Rows are streamed, so a file of any size takes
// constant memory.
package csvgen

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
)

// Stats counts what a generated file holds.
type Stats struct {
	Rows, Invalid int
	Bytes         int64
}

// kind is a sort of product: its names, price range (whole units) and type.
type kind struct {
	name, plural, category, productType string
	minPrice, maxPrice                  int64
}

var (
	kinds = []kind{
		{"Notebook", "Notebooks", "laptops", "hardware", 499, 2999},
		{"Monitor", "Monitors", "monitors", "hardware", 129, 1299},
		{"Laser Printer", "Printers", "printers", "hardware", 99, 899},
		{"Docking Station", "Docking stations", "docks", "hardware", 89, 349},
		{"Keyboard", "Keyboards", "input", "hardware", 19, 189},
		{"Mouse", "Mice", "input", "hardware", 9, 129},
		{"Headset", "Headsets", "audio", "hardware", 29, 399},
		{"Tablet", "Tablets", "tablets", "hardware", 199, 1499},
		{"Smartphone", "Smartphones", "phones", "hardware", 149, 1599},
		{"Projector", "Projectors", "projectors", "hardware", 299, 2499},
		{"Router", "Routers", "network", "hardware", 49, 899},
		{"Switch", "Switches", "network", "hardware", 39, 4999},
		{"Server", "Servers", "servers", "hardware_built_to_order", 1499, 24999},
		{"Workstation", "Workstations", "desktops", "hardware_built_to_order", 999, 8999},
		{"Office Licence", "Software", "software", "software", 49, 999},
		{"Onsite Support", "Services", "services", "service", 79, 1999},
	}
	brands    = []string{"Dell", "HP", "Lenovo", "Apple", "Samsung", "Logitech", "Canon", "Brother", "Acer", "Asus", "Fujitsu", "Epson", "Kyocera", "Philips", "Cisco", "Ubiquiti", "Microsoft", "Jabra"}
	subtitles = []string{"Business edition", "with 3-year warranty", "refurbished, grade A", "EU plug", "bundle with accessories", "silver", "black", "for education", "16 GB, 512 GB SSD", "27 inch, USB-C"}
	sentences = []string{
		"Built for everyday office work and video calls.",
		"The robust housing survives daily commutes and hot-desking.",
		"Quiet operation keeps open-plan offices calm.",
		"Energy efficient and certified for low power use in standby.",
		"Set up in minutes with the included quick start guide.",
		"Compatible with Windows, macOS and common Linux distributions.",
		"Remote management lets IT teams roll out updates to the whole fleet.",
		"Includes next-business-day replacement in the first year.",
		"Recycled plastics make up a large share of the chassis.",
		"A proven choice for small businesses and growing teams.",
		"Security features protect company data at rest and in transit.",
		"Ships with all cables needed to get started.",
	}
	details     = []string{"warranty=24 months", "warranty=36 months", "colour=black", "colour=silver", "weight=1.2 kg", "memory=16 GB", "storage=512 GB SSD", "screen size=27 inch", "connectivity=USB-C, HDMI", "energy class=A"}
	badBooleans = []string{"maybe", "ja", "2", "on", "WAHR", "x"}
)

// invalidity is a way a row is made invalid on purpose.
type invalidity int

const (
	ambiguousPrice invalidity = iota
	grossBelowNet
	badBoolean
	mismatchedReferences
	badURL
	duplicateReference
	numInvalidities
)

// window is how many recent valid references a duplicate may copy.
const window = 64

// generator makes the rows of one file, one at a time into rec.
type generator struct {
	r      *rand.Rand
	seed   int64
	rec    [catalogcsv.NumColumns]string
	recent [window]string
	valid  int   // valid rows so far; the next slot of recent is valid % window
	net    int64 // the current row's net list price, minor units
}

// Generate writes a CSV import file of rows data rows to w, deterministic
// for a seed: the header (all columns of the spec, in a fixed order) then
// rows with a realistic mix of optional columns filled and about 1 %
// invalid rows. References are unique per row except the deliberate
// duplicates, so a file imported twice updates every row.
func Generate(w io.Writer, rows int, seed int64) (Stats, error) {
	counter := &countingWriter{w: w}
	buffered := bufio.NewWriterSize(counter, 256<<10)
	out := csv.NewWriter(buffered)
	g := generator{r: rand.New(rand.NewPCG(uint64(seed), 0x7e17e)), seed: seed}
	var stats Stats
	err := out.Write(catalogcsv.ColumnNames())
	for n := 0; n < rows && err == nil; n++ {
		invalid := g.row(n)
		if err = out.Write(g.rec[:]); err == nil {
			stats.Rows++
			if invalid {
				stats.Invalid++
			}
		}
	}
	out.Flush()
	if err == nil {
		err = out.Error()
	}
	if err == nil {
		err = buffered.Flush()
	}
	stats.Bytes = counter.n
	return stats, err
}

// row fills g.rec with data row n and reports whether it is invalid.
func (g *generator) row(n int) bool {
	g.validRow(n)
	if g.r.IntN(100) != 0 {
		g.recent[g.valid%window], _, _ = strings.Cut(g.rec[catalogcsv.ColReference], "|")
		g.valid++
		return false
	}
	g.spoil(invalidity(g.r.IntN(int(numInvalidities))))
	return true
}

func (g *generator) validRow(n int) {
	r, rec := g.r, &g.rec
	k := kinds[r.IntN(len(kinds))]
	brand := pick(r, brands)
	model := g.modelCode()
	sku := fmt.Sprintf("SKU-%d-%d", g.seed, n)
	ean := g.ean(n)

	rec[catalogcsv.ColTitle] = brand + " " + k.name + " " + model
	rec[catalogcsv.ColReference], rec[catalogcsv.ColReferenceSource] = sku, "sku"
	if r.IntN(4) == 0 {
		rec[catalogcsv.ColReference], rec[catalogcsv.ColReferenceSource] = sku+"|"+ean, "sku|ean"
	}
	rec[catalogcsv.ColIsActive] = pick(r, []string{"true", "true", "true", "yes", "1", "TRUE", "y", "false", "no", "0"})

	net := (k.minPrice + r.Int64N(k.maxPrice-k.minPrice+1)) * 100
	if r.IntN(2) == 0 {
		net-- // a price ending in .99
	}
	g.net = net
	rate := pick(r, []int64{19, 19, 19, 19, 19, 7, 7, 0})
	gross := (net*(100+rate) + 50) / 100
	rec[catalogcsv.ColPriceGross], rec[catalogcsv.ColPriceNet] = g.amount(gross), g.amount(net)
	rec[catalogcsv.ColCurrency] = g.maybe(30, "EUR")

	rec[catalogcsv.ColManufacturer] = g.maybe(90, brand)
	rec[catalogcsv.ColSubtitle] = g.maybe(50, pick(r, subtitles))
	rec[catalogcsv.ColEAN] = g.maybe(60, ean)
	rec[catalogcsv.ColMPN] = g.maybe(50, strings.ToUpper(brand[:2])+"-"+model)
	rec[catalogcsv.ColCategoryID], rec[catalogcsv.ColCategoryName], rec[catalogcsv.ColCategoryParentID] = "", "", ""
	if r.IntN(100) < 75 {
		rec[catalogcsv.ColCategoryID] = k.category
		rec[catalogcsv.ColCategoryName] = g.maybe(60, k.plural)
		rec[catalogcsv.ColCategoryParentID] = g.maybe(40, pick(r, []string{"it", "office"}))
	}
	rec[catalogcsv.ColDescription] = ""
	if r.IntN(100) < 30 {
		rec[catalogcsv.ColDescription] = g.description()
	}

	rec[catalogcsv.ColBaseRentalGross], rec[catalogcsv.ColBaseRentalNet] = "", ""
	if r.IntN(100) < 20 {
		baseNet := max(net/30, 1)
		baseGross := (baseNet*(100+rate) + 50) / 100
		switch r.IntN(3) {
		case 0:
			rec[catalogcsv.ColBaseRentalNet] = g.amount(baseNet)
		case 1:
			rec[catalogcsv.ColBaseRentalGross] = g.amount(baseGross)
		default:
			rec[catalogcsv.ColBaseRentalGross], rec[catalogcsv.ColBaseRentalNet] = g.amount(baseGross), g.amount(baseNet)
		}
	}
	rec[catalogcsv.ColImageURL] = g.maybe(25, "https://cdn.shop.example/img/"+strings.ToLower(model)+".jpg")
	rec[catalogcsv.ColShopURL] = g.maybe(15, "https://shop.example/p/"+sku)
	rec[catalogcsv.ColType] = g.maybe(85, k.productType)
	rec[catalogcsv.ColDetails] = ""
	if r.IntN(100) < 30 {
		// Neighbouring entries, so a key rarely repeats.
		first := r.IntN(len(details) - 2)
		rec[catalogcsv.ColDetails] = strings.Join(details[first:first+1+r.IntN(3)], "|")
	}
}

// spoil makes the valid row in g.rec invalid in one way.
func (g *generator) spoil(how invalidity) {
	r, rec := g.r, &g.rec
	if how == duplicateReference && g.valid == 0 {
		how = badBoolean // nothing to duplicate yet
	}
	switch how {
	case ambiguousPrice:
		// One separator followed by exactly three digits.
		v := fmt.Sprintf("%d%c%03d", 1+r.IntN(9), pick(r, []rune{',', '.'}), r.IntN(1000))
		if r.IntN(2) == 0 {
			rec[catalogcsv.ColPriceGross] = v
		} else {
			rec[catalogcsv.ColPriceNet] = v
		}
	case grossBelowNet:
		rec[catalogcsv.ColPriceGross] = g.amount(g.net - 1 - r.Int64N(g.net/2))
	case badBoolean:
		rec[catalogcsv.ColIsActive] = pick(r, badBooleans)
	case mismatchedReferences:
		if strings.Contains(rec[catalogcsv.ColReference], "|") {
			rec[catalogcsv.ColReferenceSource] = "sku"
		} else {
			rec[catalogcsv.ColReferenceSource] = "sku|ean"
		}
	case badURL:
		rec[catalogcsv.ColImageURL] = pick(r, []string{"www.shop.example/img/a.jpg", "ftp://shop.example/img/a.jpg", "https:/shop.example/img/a.jpg", "cdn.shop.example"})
	case duplicateReference:
		rec[catalogcsv.ColReference], rec[catalogcsv.ColReferenceSource] = g.recent[r.IntN(min(g.valid, window))], "sku"
	}
}

// amount writes minor units the ways sellers' spreadsheets do, never
// ambiguously: thousands separators only with decimals.
func (g *generator) amount(minor int64) string {
	units, cents := minor/100, minor%100
	switch g.r.IntN(5) {
	case 0:
		return fmt.Sprintf("%d,%02d", units, cents)
	case 1:
		if units >= 1000 {
			return fmt.Sprintf("%d.%03d,%02d", units/1000, units%1000, cents)
		}
	case 2:
		if units >= 1000 {
			return fmt.Sprintf("%d,%03d.%02d", units/1000, units%1000, cents)
		}
	case 3:
		if cents == 0 {
			return fmt.Sprintf("%d", units)
		}
	}
	return fmt.Sprintf("%d.%02d", units, cents)
}

// ean is a valid EAN-13 unique to row n of the file's seed.
func (g *generator) ean(n int) string {
	digits := fmt.Sprintf("4%02d%09d", uint64(g.seed)%100, n%1_000_000_000)
	sum := 0
	for i, d := range digits {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += int(d-'0') * w
	}
	return fmt.Sprintf("%s%d", digits, (10-sum%10)%10)
}

// modelCode is a model number such as "QX-4821".
func (g *generator) modelCode() string {
	const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
	var b [7]byte
	b[0], b[1], b[2] = letters[g.r.IntN(len(letters))], letters[g.r.IntN(len(letters))], '-'
	for i := 3; i < len(b); i++ {
		b[i] = byte('0' + g.r.IntN(10))
	}
	return string(b[:])
}

// description is a few sentences, 150 to 450 characters.
func (g *generator) description() string {
	var b strings.Builder
	target := 150 + g.r.IntN(300)
	b.Grow(target + 80)
	for b.Len() < target {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pick(g.r, sentences))
	}
	return b.String()
}

// maybe is s in percent of the calls, "" otherwise.
func (g *generator) maybe(percent int, s string) string {
	if g.r.IntN(100) < percent {
		return s
	}
	return ""
}

func pick[T any](r *rand.Rand, from []T) T { return from[r.IntN(len(from))] }

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
