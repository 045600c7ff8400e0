package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/domain/auth"
)

// internals are fragments of Go, library or database text that must never
// reach a client (the contract sweeps of both APIs check the same; see
// export_test.go).
var internals = []string{
	"json:", "cannot unmarshal", "invalid character", "unexpected EOF", "exceeded max depth", "SQLSTATE", "pgx",
	"runtime", "goroutine", "panic", "Go struct", "Go value", "strconv", "reflect", "interface {}", "map[string]",
	"[]interface", "openapi3", "kin-openapi", "fasthttp", "Schema:", "Value:", "json.Number", "float64", "int64",
	".go:", "*fiber", "sellerapi.", "customerapi.",
}

// guardOnly is every operation of seller.yaml behind its guard, each
// answering 200 once the guard admits the request, with the server's head
// limits: the guard without PostgreSQL or Temporal, for fuzzing.
var guardOnly = sync.OnceValues(func() ([]*operation, *fiber.App) {
	ops, err := loadContract(openapi.Seller)
	if err != nil {
		panic(err)
	}
	var scopes []auth.Scope
	for _, op := range ops {
		scopes = append(scopes, op.scopes...)
	}
	app := fiber.New(fiber.Config{
		ErrorHandler:   ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil))),
		ReadBufferSize: MaxHeadLength,
	})
	app.Use(limitHead, func(c *fiber.Ctx) error {
		c.SetUserContext(withClaims(c.UserContext(), auth.Claims{SellerID: uuid.New(), Scopes: scopes}))
		return c.Next()
	})
	router := newGuardedRouter(app, ops)
	for _, op := range ops {
		router.add(op.method, op.fiberPath, []fiber.Handler{func(c *fiber.Ctx) error { return c.SendString("admitted") }})
	}
	return ops, app
})

// FuzzGuard sends the guard of an operation arbitrary path values, query
// strings and bodies. The guard must answer (never panic), admit or refuse
// with a 4xx whose message shows no internals; and its body decoder must
// agree with encoding/json: what it admits is JSON that decodes to the
// same value, and JSON it refuses breaks one of its stated rules.
func FuzzGuard(f *testing.F) {
	f.Add(uint8(0), "a", "", []byte(`{"pricing_requests":[{"seller_product_reference":{"source":"sku","reference":"a"},"quantity":1}]}`))
	f.Add(uint8(3), "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f", "", []byte(`{"products":[{"title":"x","is_active":true,"seller_product_references":[{"source":"s","reference":"r"}],"price":{"currency":"EUR","net":1,"gross":1}}]}`))
	f.Add(uint8(11), "x", "term=a%00b&limit=1e400", []byte(nil))
	f.Add(uint8(13), "x", "limit=9223372036854775808&page=-1", []byte(`{"filtering_options":[{"property":"title","operation":"=","value":"a\u0000"}]}`))
	f.Add(uint8(20), "a%ffb", "query=%ff", []byte(`{"customer":{"full_name":"\ud800"},"lines":[{"quantity":1e400}]}`))
	f.Add(uint8(25), "ref", "created_at_gt=soon&id_gt=x", []byte(`{"metadata":{"a\u0000":"b"}}`))
	f.Add(uint8(30), "id", "", []byte(`{"serial_numbers":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`))
	f.Add(uint8(33), "x", "", []byte(`{"url":"https://a.example","url":"https://b.example"}`))
	f.Add(uint8(40), "mark_offer_accepted", "", []byte(`{"scenario_input":{"id":"x"}} trailing`))
	f.Fuzz(func(t *testing.T, opIndex uint8, pathValue, query string, body []byte) {
		checkDecoderAgreesWithEncodingJSON(t, body)
		ops, app := guardOnly()
		op := ops[int(opIndex)%len(ops)]
		req := guardRequest(op, pathValue, query, body)
		if req == nil {
			return
		}
		resp, err := app.Test(req, -1)
		if err != nil {
			t.Fatalf("%s %s: %v", req.Method, req.URL, err)
		}
		raw, _ := io.ReadAll(resp.Body)
		switch {
		case resp.StatusCode == http.StatusOK:
		case resp.StatusCode >= 400 && resp.StatusCode < 500:
			for _, leak := range internals {
				if bytes.Contains(raw, []byte(leak)) {
					t.Fatalf("%s %s: the answer shows %q: %s", req.Method, req.URL, leak, raw)
				}
			}
		default:
			t.Fatalf("%s %s: answered %d: %s", req.Method, req.URL, resp.StatusCode, raw)
		}
	})
}

// guardRequest builds a request to an operation, its path parameters set
// to pathValue as sent (escapes included) when that makes a valid URL.
func guardRequest(op *operation, pathValue, query string, body []byte) *http.Request {
	var path strings.Builder
	for _, seg := range strings.Split(op.fiberPath, "/")[1:] {
		path.WriteByte('/')
		if strings.HasPrefix(seg, ":") {
			seg = pathValue
		}
		path.WriteString(seg)
	}
	target := "http://tenure" + path.String()
	if query != "" {
		target += "?" + query
	}
	// A head that does not fit the server's read buffer never reaches a
	// guard (fasthttp refuses it; TestOversizedHeadsAreRefused covers it).
	req, err := http.NewRequest(op.method, target, bytes.NewReader(body))
	if err != nil || strings.ContainsAny(target, " \t\r\n") || len(target) > MaxHeadLength-512 {
		return nil
	}
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// checkDecoderAgreesWithEncodingJSON compares decodeBody with encoding/json
// on one input.
func checkDecoderAgreesWithEncodingJSON(t *testing.T, raw []byte) {
	t.Helper()
	got, err := decodeBody(raw)
	var want any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	stdErr := dec.Decode(&want)
	valid := json.Valid(raw)
	if err == nil {
		if !valid || stdErr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeBody admitted %q as %#v; encoding/json: valid %v, %#v, %v", raw, got, valid, want, stdErr)
		}
		return
	}
	var refused *apierror.Error
	if !errors.As(err, &refused) || refused.Status != http.StatusBadRequest {
		t.Fatalf("decodeBody(%q) failed with %v, not a refusal", raw, err)
	}
	for _, leak := range internals {
		if strings.Contains(refused.Message, leak) {
			t.Fatalf("decodeBody(%q): the message shows %q: %s", raw, leak, refused.Message)
		}
	}
	if valid && utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\u0000`)) && !strings.Contains(refused.Message, "nests") &&
		!strings.Contains(refused.Message, "appears twice") && !strings.Contains(refused.Message, "UTF-8") {
		t.Fatalf("decodeBody refused valid JSON %q: %s", raw, refused.Message)
	}
}
