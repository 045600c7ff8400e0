package seller_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// csvJob is a CSV import job as GET returns it.
type csvJob struct {
	ID        string  `json:"id"`
	Filename  string  `json:"filename"`
	Status    string  `json:"status"`
	Processed int64   `json:"processed"`
	Succeeded int64   `json:"succeeded"`
	Failed    int64   `json:"failed"`
	Error     *string `json:"error"`
	ErrorsURL *string `json:"errors_url"`
	Category  struct {
		Done      bool  `json:"done"`
		Total     int64 `json:"total"`
		Supported int64 `json:"supported"`
		Pending   int64 `json:"pending"`
	} `json:"categorization"`
}

// upload PUTs a file to an upload link with the given headers.
func upload(t *testing.T, h *apitest.Harness, link string, body []byte, header map[string]string) apitest.Response {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPut, u.RequestURI(), bytes.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return h.Send(t, req)
}

// download GETs a signed link of the API, such as an error report.
func download(t *testing.T, h *apitest.Harness, link string) apitest.Response {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return h.Send(t, httptest.NewRequest(http.MethodGet, u.RequestURI(), nil))
}

var csvHeaders = map[string]string{"Content-Type": "text/csv", "x-storage-content-length-range": "0,262144000"}

// awaitCSVImport polls a job until it reaches one of the statuses.
func awaitCSVImport(t *testing.T, h *apitest.Harness, token, id string, statuses ...string) csvJob {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp := h.Do(t, http.MethodGet, "/v1/catalog/imports/"+id, token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("get import: %d %s", resp.Status, resp.Body)
		}
		var job csvJob
		resp.Decode(t, &job)
		for _, s := range statuses {
			if job.Status == s {
				return job
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("import still %+v, want %v", job, statuses)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// importCSV runs a whole import of body and returns the finished job.
func importCSV(t *testing.T, h *apitest.Harness, token string, body []byte) csvJob {
	t.Helper()
	id, link := h.CreateCSVImport(t, token, "catalog.csv")
	if resp := upload(t, h, link, body, csvHeaders); resp.Status != http.StatusOK {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	return awaitCSVImport(t, h, token, id, "completed", "failed")
}

func TestCSVImportOfTheExampleFile(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit seller-catalog:read")
	example, err := os.ReadFile("../../examples/catalog.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows := int64(strings.Count(strings.TrimSpace(string(example)), "\n"))

	id, link := h.CreateCSVImport(t, token, "catalog.csv")
	if job := awaitCSVImport(t, h, token, id, "pending"); job.Filename != "catalog.csv" || job.ErrorsURL != nil {
		t.Errorf("new job %+v", job)
	}
	if resp := upload(t, h, link, example, csvHeaders); resp.Status != http.StatusOK {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	job := awaitCSVImport(t, h, token, id, "completed", "failed")
	if job.Status != "completed" || job.Processed != rows || job.Failed != 2 || job.Succeeded != rows-2 || job.Error != nil {
		t.Fatalf("finished job %+v, want %d rows of which 2 failed", job, rows)
	}
	if !job.Category.Done || job.Category.Total != rows-2 || job.Category.Supported != rows-2 || job.Category.Pending != 0 {
		t.Errorf("categorization %+v", job.Category)
	}

	// The link works once.
	if resp := upload(t, h, link, example, csvHeaders); resp.Status != http.StatusForbidden {
		t.Errorf("second upload: %d %s", resp.Status, resp.Body)
	}

	// The error report lists the two failed rows with their columns.
	if job.ErrorsURL == nil {
		t.Fatal("no errors_url")
	}
	resp := download(t, h, *job.ErrorsURL)
	if resp.Status != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("error report: %d %s", resp.Status, resp.Body)
	}
	report, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	if err != nil || len(report) != 3 || strings.Join(report[0], ",") != "line,reference,column,reason" {
		t.Fatalf("error report %q (%v)", report, err)
	}
	for _, row := range report[1:] {
		if row[0] == "" || row[1] == "" || row[2] == "" || row[3] == "" {
			t.Errorf("incomplete error row %q", row)
		}
	}
	if resp := download(t, h, strings.Replace(*job.ErrorsURL, "token=", "token=x", 1)); resp.Status != http.StatusForbidden {
		t.Errorf("forged report link: %d", resp.Status)
	}

	// The products are in the catalog.
	resp = h.Do(t, http.MethodGet, "/v1/catalog/products_paginated?term=thinkpad", token, nil)
	if resp.Status != http.StatusOK || !strings.Contains(string(resp.Body), `"totalRows":1`) {
		t.Errorf("search after import: %d %s", resp.Status, resp.Body)
	}
}

func TestCSVReimportUpdatesAndKeepsEmptyOptionalCells(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit seller-catalog:read")
	first := "title,reference,reference_source,is_active,price_gross,price_net,manufacturer,subtitle\n" +
		"Desk Lamp,LAMP-1,sku,true,119.00,100.00,Lumen,Warm white\n"
	if job := importCSV(t, h, token, []byte(first)); job.Succeeded != 1 {
		t.Fatalf("first import %+v", job)
	}
	second := "title,reference,reference_source,is_active,price_gross,price_net,manufacturer,subtitle\n" +
		"Desk Lamp Pro,LAMP-1,sku,yes,238.00,200.00,,Daylight\n" +
		"Desk Lamp Pro,LAMP-1,sku,yes,238.00,200.00,,Daylight\n"
	job := importCSV(t, h, token, []byte(second))
	if job.Succeeded != 1 || job.Failed != 1 {
		t.Fatalf("second import %+v: the repeated reference must fail its row", job)
	}
	resp := h.Do(t, http.MethodGet, "/v1/catalog/products_paginated?term=lamp", token, nil)
	body := string(resp.Body)
	if !strings.Contains(body, `"totalRows":1`) || !strings.Contains(body, "Desk Lamp Pro") ||
		!strings.Contains(body, "Lumen") || !strings.Contains(body, "Daylight") {
		t.Errorf("updated product: %s", body)
	}
}

func TestCSVFilesRefusedAsAWhole(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit seller-catalog:read")
	for name, tc := range map[string]struct {
		body  string
		error string
	}{
		"empty":          {"", "empty"},
		"binary":         {"\x00\x01\x02PK\x03\x04 not text at all", "not CSV text"},
		"missing column": {"title,reference,reference_source,is_active,price_gross\nA,1,sku,true,10\n", "price_net"},
		"not csv header": {"title,\"reference\n", "not valid CSV"},
	} {
		t.Run(name, func(t *testing.T) {
			job := importCSV(t, h, token, []byte(tc.body))
			if job.Status != "failed" || job.Error == nil || !strings.Contains(*job.Error, tc.error) ||
				job.Processed != 0 || job.ErrorsURL != nil {
				t.Errorf("job %+v (error %v), want failed naming %q", job, apitest.Deref(job.Error), tc.error)
			}
		})
	}
}

func TestCSVRowsInAwkwardShapes(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit seller-catalog:read")
	header := "title,reference,reference_source,is_active,price_gross,price_net,description\r\n"
	for name, tc := range map[string]struct {
		body              string
		succeeded, failed int64
	}{
		"header only":     {header, 0, 0},
		"bom and crlf":    {"\ufeff" + header + "A,A-1,sku,y,\"1.190,00\",\"1.000,00\",x\r\nB,B-1,sku,n,11.90,10.00,\r\n", 2, 0},
		"quoted newlines": {header + "\"Two\nlines\",Q-1,sku,true,11.90,10.00,\"a, b\nc\"\n", 1, 0},
		"ambiguous price": {header + "A,A-2,sku,true,\"1,234\",1000,x\n", 0, 1},
		"wrong width":     {header + "A,A-3,sku,true,11.90\n", 0, 1},
		"unterminated":    {header + "A,A-4,sku,true,11.90,10.00,ok\nB,\"B-4,sku,true,11.90,10.00,x\n", 1, 1},
		"huge cell":       {header + "A,A-5,sku,true,11.90,10.00," + strings.Repeat("d", 5<<20) + "\n", 0, 1},
		"many columns":    {strings.TrimSuffix(header, "\r\n") + strings.Repeat(",x", 10000) + "\nA,A-6,sku,true,11.90,10.00,d" + strings.Repeat(",", 10000) + "\n", 1, 0},
		// Past the first 512 bytes (which must look like text), a NUL or
		// invalid UTF-8 fails its row, and the error report still records
		// the row's reference.
		"NUL in a reference":           {header + "A,A-7,sku,true,11.90,10.00," + strings.Repeat("d", 600) + "\nB,B\x00-7,sku,true,11.90,10.00,x\n", 1, 1},
		"invalid UTF-8 in a reference": {header + "A,A-8,sku,true,11.90,10.00," + strings.Repeat("d", 600) + "\nB,B\xff-8,sku,true,11.90,10.00,x\n", 1, 1},
		"NUL in a description":         {header + "A,A-9,sku,true,11.90,10.00," + strings.Repeat("d", 600) + "\nB,B-9,sku,true,11.90,10.00,x\x00y\n", 1, 1},
		"NUL in the first bytes":       {header + "A,A\x00-10,sku,true,11.90,10.00,x\n", 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			job := importCSV(t, h, token, []byte(tc.body))
			if name == "NUL in the first bytes" {
				if job.Status != "failed" || job.Error == nil || !strings.Contains(*job.Error, "not CSV text") {
					t.Errorf("job %+v, want failed as not CSV text", job)
				}
				return
			}
			if job.Status != "completed" || job.Succeeded != tc.succeeded || job.Failed != tc.failed || job.Error != nil {
				t.Errorf("job %+v, want completed with %d stored and %d failed", job, tc.succeeded, tc.failed)
			}
			if tc.failed > 0 {
				if resp := download(t, h, apitest.Deref(job.ErrorsURL)); resp.Status != http.StatusOK || !utf8.Valid(resp.Body) || bytes.IndexByte(resp.Body, 0) >= 0 {
					t.Errorf("error report: %d %q", resp.Status, resp.Body)
				}
			}
		})
	}
}

func TestCSVUploadsRefused(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit")
	id, link := h.CreateCSVImport(t, token, "catalog.csv")
	body := []byte("title,reference,reference_source,is_active,price_gross,price_net\n")
	for name, tc := range map[string]struct {
		header map[string]string
		status int
	}{
		"wrong content type": {map[string]string{"Content-Type": "application/json", "x-storage-content-length-range": "0,262144000"}, 400},
		"no range header":    {map[string]string{"Content-Type": "text/csv"}, 400},
		"range beyond 250MB": {map[string]string{"Content-Type": "text/csv", "x-goog-content-length-range": "0,262144001"}, 400},
		"body beyond range":  {map[string]string{"Content-Type": "text/csv", "x-storage-content-length-range": "0,10"}, 413},
		// Text that reaches the upload's handler is not stored, and its
		// refusals quote it escaped.
		"invalid UTF-8 content type": {map[string]string{"Content-Type": "text/\xffcsv", "x-storage-content-length-range": "0,262144000"}, 400},
		"invalid UTF-8 range":        {map[string]string{"Content-Type": "text/csv", "x-storage-content-length-range": "0,\xff"}, 400},
	} {
		t.Run(name, func(t *testing.T) {
			if resp := upload(t, h, link, body, tc.header); resp.Status != tc.status {
				t.Errorf("got %d %s, want %d", resp.Status, resp.Body, tc.status)
			}
		})
	}
	if job := awaitCSVImport(t, h, token, id, "pending"); job.Processed != 0 {
		t.Errorf("refused uploads changed the job: %+v", job)
	}

	signer := links.NewSigner(h.Config.Links.SigningKey)
	expired := "/uploads/catalog-imports/" + id + "?token=" + url.QueryEscape(signer.Sign("csv-import-upload", id, time.Now().Add(-time.Minute)))
	other := "/uploads/catalog-imports/" + uuid.NewString() + "?" + strings.SplitN(link, "?", 2)[1]
	nul := "/uploads/catalog-imports/" + id + "?token=a%00b"
	badID := "/uploads/catalog-imports/a%00b?" + strings.SplitN(link, "?", 2)[1]
	for name, target := range map[string]string{"expired": expired, "another job's token": other, "NUL in the token": nul, "NUL in the id": badID} {
		if resp := upload(t, h, "http://x"+target, body, csvHeaders); resp.Status != http.StatusForbidden {
			t.Errorf("%s: got %d %s", name, resp.Status, resp.Body)
		}
	}
	// After the refusals the link still works.
	if resp := upload(t, h, link, body, csvHeaders); resp.Status != http.StatusOK {
		t.Errorf("valid upload after refusals: %d %s", resp.Status, resp.Body)
	}
}

func TestCSVUploadOverTheLimitOnARealConnection(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.HTTP.BodyLimit = 1024 })
	h.Worker(t)
	base := h.Serve(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit")
	_, link := h.CreateCSVImport(t, token, "catalog.csv")
	u, _ := url.Parse(link)
	// Larger than the JSON body limit, within the upload's range: the
	// upload streams past the limit the other routes keep.
	body := "title,reference,reference_source,is_active,price_gross,price_net\n" +
		strings.Repeat("Lamp,L-0,sku,true,11.90,10.00\n", 200)
	req, _ := http.NewRequest(http.MethodPut, base+u.RequestURI(), strings.NewReader(body))
	req.Header.Set("Content-Type", "text/csv")
	req.Header.Set("x-storage-content-length-range", "0,262144000")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("upload over the JSON body limit: %d", resp.StatusCode)
	}
}

func TestCSVImportLimitAndCancel(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "seller-catalog:edit")
	var ids []string
	for range 5 {
		id, _ := h.CreateCSVImport(t, token, "catalog.csv")
		ids = append(ids, id)
	}
	resp := h.Do(t, http.MethodPost, "/v1/catalog/imports", token, map[string]any{"filename": "sixth.csv"})
	if resp.Status != http.StatusTooManyRequests || resp.APIError(t)["name"] != "TooManyRequests" {
		t.Fatalf("sixth import: %d %s", resp.Status, resp.Body)
	}
	if resp := h.Do(t, http.MethodDelete, "/v1/catalog/imports/"+ids[0], token, nil); resp.Status != http.StatusOK {
		t.Fatalf("cancel: %d %s", resp.Status, resp.Body)
	}
	if job := awaitCSVImport(t, h, token, ids[0], "cancelled"); job.Processed != 0 {
		t.Errorf("cancelled job %+v", job)
	}
	resp = h.Do(t, http.MethodDelete, "/v1/catalog/imports/"+ids[0], token, nil)
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), "cancelled") {
		t.Errorf("cancelling again: %d %s", resp.Status, resp.Body)
	}
	if id, _ := h.CreateCSVImport(t, token, "sixth.csv"); id == "" {
		t.Error("no import after a cancellation freed a place")
	}
	other := h.Token(t, h.Seller(t), "seller-catalog:edit")
	if resp := h.Do(t, http.MethodGet, "/v1/catalog/imports/"+ids[1], other, nil); resp.Status != http.StatusNotFound {
		t.Errorf("another seller's import: %d", resp.Status)
	}
}
