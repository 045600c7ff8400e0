package xmlstream

import (
	"errors"
	"strings"
	"testing"
)

func TestWriterWritesNestedElementsEscaped(t *testing.T) {
	var b strings.Builder
	x := NewWriter(&b)
	x.Start("Document", Attr("xmlns", "urn:example"))
	x.Start("ram:Party")
	x.Text("Nm", `Smith & "Sons" <GmbH>`)
	x.Text("Amt", "12.50", Attr("Ccy", "EUR"))
	x.End()
	x.End()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<Document xmlns="urn:example"><ram:Party><Nm>Smith &amp; &#34;Sons&#34; &lt;GmbH&gt;</Nm><Amt Ccy="EUR">12.50</Amt></ram:Party></Document>` + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriterKeepsTheFirstError(t *testing.T) {
	var b strings.Builder
	x := NewWriter(&b)
	x.Start("A")
	stop := errors.New("an amount is negative")
	x.Fail(stop)
	x.Text("B", "ignored")
	x.End()
	x.Fail(errors.New("later"))
	if err := x.Close(); !errors.Is(err, stop) || x.Err() != stop {
		t.Errorf("Close: %v", err)
	}
	if strings.Contains(b.String(), "ignored") {
		t.Errorf("wrote after the error: %s", b.String())
	}
}

func TestWriterRefusesUnbalancedDocuments(t *testing.T) {
	x := NewWriter(&strings.Builder{})
	x.Start("A")
	if err := x.Close(); err == nil || !strings.Contains(err.Error(), "1 elements left open, the last A") {
		t.Errorf("an open element: %v", err)
	}
	y := NewWriter(&strings.Builder{})
	y.End()
	if err := y.Close(); err == nil || !strings.Contains(err.Error(), "End without an open element") {
		t.Errorf("an end without a start: %v", err)
	}
}

// failingWriter refuses every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterReportsTheOutputsError(t *testing.T) {
	x := NewWriter(failingWriter{})
	x.Text("A", "x")
	if err := x.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close: %v", err)
	}
}
