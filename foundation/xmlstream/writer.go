// Package xmlstream writes an XML document token by token to an io.Writer
// (encoding/xml's Encoder underneath), so a file of any length is written
// in memory that does not grow with it: bank files of a hundred thousand
// collections, e-invoices. A Writer keeps the first error and ignores
// every call after it, so a document is written as straight-line code and
// the error checked once, at Close.
package xmlstream

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// Writer writes one XML document.
type Writer struct {
	enc  *xml.Encoder
	open []xml.Name
	err  error
}

// NewWriter starts a document on w with the XML declaration (version 1.0,
// UTF-8). Output is buffered; Close flushes it.
func NewWriter(w io.Writer) *Writer {
	x := &Writer{enc: xml.NewEncoder(w)}
	x.fail(x.enc.EncodeToken(xml.ProcInst{Target: "xml", Inst: []byte(`version="1.0" encoding="UTF-8"`)}))
	x.fail(x.enc.EncodeToken(xml.CharData("\n")))
	return x
}

// Attr is an attribute by its name as written ("Ccy", "xmlns:ram").
func Attr(name, value string) xml.Attr {
	return xml.Attr{Name: xml.Name{Local: name}, Value: value}
}

// Start opens an element, its name written as given ("Document",
// "ram:ID": prefixes are declared by the caller with xmlns attributes).
func (x *Writer) Start(name string, attrs ...xml.Attr) {
	if x.err != nil {
		return
	}
	n := xml.Name{Local: name}
	x.open = append(x.open, n)
	x.fail(x.enc.EncodeToken(xml.StartElement{Name: n, Attr: attrs}))
}

// End closes the element opened last.
func (x *Writer) End() {
	if x.err != nil {
		return
	}
	if len(x.open) == 0 {
		x.fail(errors.New("xmlstream: End without an open element"))
		return
	}
	n := x.open[len(x.open)-1]
	x.open = x.open[:len(x.open)-1]
	x.fail(x.enc.EncodeToken(xml.EndElement{Name: n}))
}

// Text writes an element holding text (escaped): <name>text</name>.
func (x *Writer) Text(name, text string, attrs ...xml.Attr) {
	x.Start(name, attrs...)
	if x.err == nil {
		x.fail(x.enc.EncodeToken(xml.CharData(text)))
	}
	x.End()
}

// Fail stops the document with the caller's error (a value found invalid
// midway); Close returns it.
func (x *Writer) Fail(err error) { x.fail(err) }

// Err is the first error so far.
func (x *Writer) Err() error { return x.err }

// Close checks that every element is closed and flushes the output; it
// returns the first error of the document.
func (x *Writer) Close() error {
	if x.err == nil && len(x.open) > 0 {
		x.err = fmt.Errorf("xmlstream: %d elements left open, the last %s", len(x.open), x.open[len(x.open)-1].Local)
	}
	if x.err == nil {
		x.fail(x.enc.EncodeToken(xml.CharData("\n")))
	}
	if err := x.enc.Flush(); x.err == nil {
		x.err = err
	}
	return x.err
}

// fail keeps the first error.
func (x *Writer) fail(err error) {
	if x.err == nil && err != nil {
		x.err = err
	}
}
