// Package catalogcsv reads a seller's CSV catalog import file: the header
// row, then each data row into a catalog.ProductInput. It checks every cell
// against the contract's column rules so that a rejected row can be reported
// with the column at fault; what needs the rest of the catalog (references
// already used, the seller's currency, duplicates inside the file) is left to
// catalog.Validate and to the importer.
package catalogcsv

import (
	"fmt"
	"slices"
	"strings"
)

// Column is a column of the contract, whatever its position in a file.
type Column int

// The contract's columns, in the contract's order. The required ones come
// first: numRequired relies on it.
const (
	ColTitle Column = iota
	ColReference
	ColReferenceSource
	ColIsActive
	ColPriceGross
	ColPriceNet
	ColCurrency
	ColManufacturer
	ColSubtitle
	ColEAN
	ColMPN
	ColCategoryID
	ColCategoryName
	ColCategoryParentID
	ColDescription
	ColBaseRentalGross
	ColBaseRentalNet
	ColImageURL
	ColShopURL
	ColType
	ColDetails
	NumColumns
)

// numRequired is the number of required columns, which lead the list.
const numRequired = ColCurrency

// columnNames are the names the contract gives the columns.
var columnNames = [NumColumns]string{
	"title", "reference", "reference_source", "is_active", "price_gross", "price_net",
	"currency", "manufacturer", "subtitle", "ean", "mpn",
	"seller_category_id", "seller_category_name", "seller_category_parent_id",
	"description", "base_rental_price_gross", "base_rental_price_net",
	"image_url", "shop_product_description_url", "seller_product_type", "extra_details",
}

// ColumnNames are the names of every column of the contract, required
// ones first, in the contract's order.
func ColumnNames() []string { return slices.Clone(columnNames[:]) }

// columnsByName finds a column from its normalised header name.
var columnsByName = func() map[string]Column {
	m := make(map[string]Column, NumColumns)
	for c, name := range columnNames {
		m[name] = Column(c)
	}
	return m
}()

// bom is the byte order mark spreadsheet programs put before "UTF-8 CSV".
const bom = "\uFEFF"

// Header is the column layout of a CSV import file.
type Header struct {
	// index is the position of each column in a record, -1 when the file
	// lacks it.
	index [NumColumns]int
	width int
}

// ParseHeader reads the first record. Column names are case-insensitive,
// surrounding spaces ignored, a UTF-8 BOM at the start of the first cell
// ignored, unknown columns skipped. It returns an error whose message names
// every missing required column (title, reference, reference_source,
// is_active, price_gross, price_net), or a known column that appears twice.
func ParseHeader(record []string) (Header, error) {
	h := Header{width: len(record)}
	for c := range h.index {
		h.index[c] = -1
	}
	for i, name := range record {
		if i == 0 {
			name = strings.TrimPrefix(name, bom)
		}
		c, known := columnsByName[strings.ToLower(strings.TrimSpace(name))]
		if !known {
			continue
		}
		if h.index[c] >= 0 {
			// Either copy could be the one the seller meant.
			return Header{}, fmt.Errorf("the header names the column %s twice (columns %d and %d)", columnNames[c], h.index[c]+1, i+1)
		}
		h.index[c] = i
	}
	var missing []string
	for c := range numRequired {
		if h.index[c] < 0 {
			missing = append(missing, columnNames[c])
		}
	}
	switch len(missing) {
	case 0:
		return h, nil
	case 1:
		return Header{}, fmt.Errorf("the header lacks the required column %s", missing[0])
	default:
		return Header{}, fmt.Errorf("the header lacks the required columns %s", strings.Join(missing, ", "))
	}
}

// Width is the number of columns of the header.
func (h Header) Width() int { return h.width }

// Reference is the raw reference cell of a record, for error reports (""
// when the record is too short).
func (h Header) Reference(record []string) string { return h.cell(record, ColReference) }

// cell is the raw cell of a column, "" when the file lacks the column or the
// record is too short (a zero Header must not index out of range).
func (h Header) cell(record []string, c Column) string {
	i := h.index[c]
	if i < 0 || i >= len(record) {
		return ""
	}
	return record[i]
}
