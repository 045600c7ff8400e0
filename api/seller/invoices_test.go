package seller_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// invoiceView is the part of an invoice the tests read.
type invoiceView struct {
	ID          string `json:"id"`
	Number      string `json:"number"`
	Kind        string `json:"kind"`
	Status      string `json:"status"`
	OrderID     string `json:"order_id"`
	Gross       int64  `json:"gross"`
	CustomerURL string `json:"customer_url"`
	Lines       []struct {
		ContractID        string `json:"contract_id"`
		InstallmentNumber int    `json:"installment_number"`
	} `json:"lines"`
}

// The invoice of a started contract's first installment is listed with
// the filters, shown, and downloaded as PDF and e-invoice; the event
// carries the customer's link, which opens the PDF without credentials and
// nothing with another token.
func TestInvoiceListShowAndDownloads(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	orderID, contractID, _ := f.InvoicedContract(t, "invoice-1")
	_, otherContract, _ := f.InvoicedContract(t, "invoice-2")

	var page struct {
		Invoices   []invoiceView `json:"invoices"`
		Pagination struct {
			TotalCount int `json:"total_count"`
		} `json:"pagination"`
	}
	resp := f.Harness.Do(t, http.MethodGet, "/v1/invoices?contract_id="+contractID+"&status=issued", f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("list: %d %s", resp.Status, resp.Body)
	}
	resp.Decode(t, &page)
	if len(page.Invoices) != 1 || page.Pagination.TotalCount != 1 {
		t.Fatalf("invoices of the contract: %+v", page)
	}
	inv := page.Invoices[0]
	if inv.OrderID != orderID || inv.Kind != "installments" || inv.Status != "issued" || len(inv.Lines) != 1 ||
		inv.Lines[0].ContractID != contractID || inv.Lines[0].InstallmentNumber != 1 || inv.Gross <= 0 {
		t.Errorf("invoice %+v", inv)
	}
	f.Harness.Do(t, http.MethodGet, "/v1/invoices?order_id="+orderID, f.Token, nil).Decode(t, &page)
	if len(page.Invoices) != 1 || page.Invoices[0].ID != inv.ID {
		t.Errorf("by order: %+v", page.Invoices)
	}
	f.Harness.Do(t, http.MethodGet, "/v1/invoices", f.Token, nil).Decode(t, &page)
	if page.Pagination.TotalCount != 2 {
		t.Errorf("all: %+v (another contract %s)", page, otherContract)
	}
	for _, bad := range []string{"status=paid", "order_id=nope", "limit=0", "contract_id=1"} {
		if resp := f.Harness.Do(t, http.MethodGet, "/v1/invoices?"+bad, f.Token, nil); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", bad, resp.Status, resp.Body)
		}
	}

	var shown invoiceView
	resp = f.Harness.Do(t, http.MethodGet, "/v1/invoices/"+inv.ID, f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("show: %d %s", resp.Status, resp.Body)
	}
	resp.Decode(t, &shown)
	if shown.Number != inv.Number || shown.CustomerURL != "" {
		t.Errorf("shown %+v", shown)
	}
	pdf := f.Harness.Do(t, http.MethodGet, "/v1/invoices/"+inv.ID+"/pdf", f.Token, nil)
	if pdf.Status != http.StatusOK || pdf.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(pdf.Body, []byte("%PDF-")) {
		t.Errorf("pdf: %d %s %.20q", pdf.Status, pdf.Header.Get("Content-Type"), pdf.Body)
	}
	xml := f.Harness.Do(t, http.MethodGet, "/v1/invoices/"+inv.ID+"/xml", f.Token, nil)
	if xml.Status != http.StatusOK || xml.Header.Get("Content-Type") != "application/xml" {
		t.Fatalf("xml: %d %s", xml.Status, xml.Header.Get("Content-Type"))
	}
	xmllint.Validate(t, "../../domain/invoices/testdata/cii/CrossIndustryInvoice_100pD16B.xsd", xml.Body)
	for _, path := range []string{"/v1/invoices/" + apitest.NewID(), "/v1/invoices/" + apitest.NewID() + "/pdf", "/v1/invoices/nope/xml"} {
		if resp := f.Harness.Do(t, http.MethodGet, path, f.Token, nil); resp.Status != http.StatusNotFound {
			t.Errorf("%s: %d", path, resp.Status)
		}
	}
	orders := f.Harness.Token(t, f.Seller, "seller-order:read")
	if resp := f.Harness.Do(t, http.MethodGet, "/v1/invoices/"+inv.ID, orders, nil); resp.Status != http.StatusForbidden {
		t.Errorf("without seller-contract:read: %d", resp.Status)
	}

	resp = f.Harness.Do(t, http.MethodGet, "/v1/events?type=invoice.issued&object_id="+inv.ID, f.Token, nil)
	var events struct {
		Events []struct {
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	resp.Decode(t, &events)
	if len(events.Events) != 1 {
		t.Fatalf("invoice.issued events: %s", resp.Body)
	}
	var announced invoiceView
	if err := json.Unmarshal(events.Events[0].Payload, &announced); err != nil {
		t.Fatal(err)
	}
	link, err := url.Parse(announced.CustomerURL)
	if err != nil || announced.ID != inv.ID || link.Query().Get("token") == "" {
		t.Fatalf("announced %+v (%v)", announced, err)
	}
	opened := f.Harness.Do(t, http.MethodGet, link.RequestURI(), "", nil)
	if opened.Status != http.StatusOK || !bytes.Equal(opened.Body, pdf.Body) {
		t.Errorf("the customer's link: %d", opened.Status)
	}
	forged := f.Harness.Do(t, http.MethodGet, link.Path+"?token=1.AAAA", "", nil)
	if forged.Status != http.StatusForbidden {
		t.Errorf("a forged link: %d %s", forged.Status, forged.Body)
	}
}
