package guard

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/auth"
)

// A contract small enough to read, exercising what the guard checks.
const testContract = `
openapi: 3.0.3
info: {title: test, version: "1"}
paths:
  /v1/things/{id}:
    post:
      operationId: updateThing
      security: [{oauth: [thing:edit]}]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, x-tenure-max-length: 128}}
        - {name: page, in: query, schema: {type: integer, format: int64}}
        - {name: order, in: query, schema: {type: string, enum: [asc, desc]}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, lines]
              properties:
                name: {type: string, x-tenure-max-length: 20}
                channel: {type: string, enum: [telesales, ecommerce]}
                email: {type: string, format: email, x-tenure-max-length: 100}
                link: {type: string, format: uri, x-tenure-max-length: 100}
                at: {type: string, format: date-time, x-tenure-max-length: 64}
                lines:
                  type: array
                  x-tenure-max-items: 3
                  items:
                    type: object
                    required: [quantity]
                    properties:
                      quantity: {type: integer}
      responses:
        '200': {description: ok}
components:
  securitySchemes:
    oauth:
      type: oauth2
      flows: {clientCredentials: {tokenUrl: /token, scopes: {thing:edit: edit}}}
`

func guardedApp(t *testing.T, scopes ...auth.Scope) *fiber.App {
	t.Helper()
	ops, err := loadContract([]byte(testContract))
	if err != nil {
		t.Fatal(err)
	}
	app := fiber.New(fiber.Config{ErrorHandler: ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	app.Use(func(c *fiber.Ctx) error {
		c.SetUserContext(withClaims(c.UserContext(), auth.Claims{SellerID: uuid.New(), Scopes: scopes}))
		return c.Next()
	})
	router := newGuardedRouter(app, ops)
	router.Post("/v1/things/:id", func(c *fiber.Ctx) error { return c.SendString("handled") })
	router.Get("/v1/unknown", func(c *fiber.Ctx) error { return nil })
	if len(router.unguarded) != 1 || router.unguarded[0] != "GET /v1/unknown" {
		t.Fatalf("a route outside the contract is reported, got %v", router.unguarded)
	}
	return app
}

func call(t *testing.T, app *fiber.App, target, contentType, body string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := app.Test(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

func TestGuardAdmitsValidRequests(t *testing.T) {
	app := guardedApp(t, "thing:edit")
	status, body := call(t, app, "/v1/things/abc-123?page=2&order=desc", "application/json",
		`{"name":"x","channel":"ecommerce","lines":[{"quantity":1}]}`)
	if status != 200 || body != "handled" {
		t.Fatalf("got %d %s", status, body)
	}
}

func TestGuardRefusesMissingScope(t *testing.T) {
	app := guardedApp(t, "other:scope")
	status, body := call(t, app, "/v1/things/abc", "application/json", `{"name":"x","lines":[]}`)
	if status != 403 {
		t.Fatalf("got %d %s", status, body)
	}
	var msg string
	if err := json.Unmarshal([]byte(body), &msg); err != nil || !strings.Contains(msg, "InvalidScopes") || !strings.Contains(msg, "thing:edit") {
		t.Errorf("403 body is a JSON string naming the missing scope, got %s", body)
	}
}

func TestGuardNamesTheProblem(t *testing.T) {
	app := guardedApp(t, "thing:edit")
	cases := []struct {
		name, target, contentType, body, want string
	}{
		{"path id with a dot", "/v1/things/a.b", "application/json", `{"name":"x","lines":[]}`, "path parameter id must be 1 to 128 letters, digits or hyphens"},
		{"path id with an encoded slash", "/v1/things/a%2Fb", "application/json", `{"name":"x","lines":[]}`, "path parameter id"},
		{"over-long path id", "/v1/things/" + strings.Repeat("a", 129), "application/json", `{"name":"x","lines":[]}`, "path parameter id"},
		{"malformed JSON", "/v1/things/a", "application/json", `{"name":`, "the request body is not valid JSON: it ends before the JSON value is complete"},
		{"not JSON", "/v1/things/a", "application/json", `{"name": Nope}`, "the request body is not valid JSON: unexpected character 'N' at byte 10"},
		{"trailing data", "/v1/things/a", "application/json", `{"name":"x","lines":[]} {}`, "unexpected data after the JSON value at byte 25"},
		{"too deep", "/v1/things/a", "application/json", `{"name":"x","lines":[]` + strings.Repeat(`,"a":[`, 1) + strings.Repeat("[", 40) + strings.Repeat("]", 41) + "}", "nests objects and arrays more than 32 levels deep"},
		{"repeated field", "/v1/things/a", "application/json", `{"name":"x","name":"y","lines":[]}`, "field name appears twice"},
		{"NUL in a field", "/v1/things/a", "application/json", `{"name":"a\u0000b","lines":[]}`, "field name must not contain NUL characters"},
		{"NUL in a key", "/v1/things/a", "application/json", `{"name":"x","lines":[{"quantity":1,"a\u0000":1}]}`, "a key of field lines[0] must not contain NUL characters"},
		{"invalid UTF-8", "/v1/things/a", "application/json", "{\"name\":\"\xff\",\"lines\":[]}", "field name must be valid UTF-8 text"},
		{"over-long field", "/v1/things/a", "application/json", `{"name":"` + strings.Repeat("ü", 21) + `","lines":[]}`, "field name must be at most 20 characters, got 21"},
		{"too many items", "/v1/things/a", "application/json", `{"name":"x","lines":[{"quantity":1},{"quantity":1},{"quantity":1},{"quantity":1}]}`, "field lines must list at most 3 items, got 4"},
		{"huge integer", "/v1/things/a", "application/json", `{"name":"x","lines":[{"quantity":1e400}]}`, "field lines[0].quantity must be an integer"},
		{"integer beyond int64", "/v1/things/a", "application/json", `{"name":"x","lines":[{"quantity":9223372036854775808}]}`, "field lines[0].quantity must be an integer between -9223372036854775808 and 9223372036854775807"},
		{"fraction", "/v1/things/a", "application/json", `{"name":"x","lines":[{"quantity":1.5}]}`, "field lines[0].quantity must be an integer"},
		{"missing body", "/v1/things/a", "application/json", ``, "request body is required"},
		{"wrong content type", "/v1/things/a", "text/plain", `{"name":"x","lines":[]}`, "Content-Type: application/json"},
		{"missing field", "/v1/things/a", "application/json", `{"lines":[]}`, "field name is required"},
		{"wrong type", "/v1/things/a", "application/json", `{"name":5,"lines":[]}`, "field name must be a string"},
		{"body not an object", "/v1/things/a", "application/json", `[]`, "the request body must be an object"},
		{"nested wrong type", "/v1/things/a", "application/json", `{"name":"x","lines":[{"quantity":"one"}]}`, "field lines[0].quantity must be an integer"},
		{"nested missing field", "/v1/things/a", "application/json", `{"name":"x","lines":[{}]}`, "field lines[0].quantity is required"},
		{"unknown enum value", "/v1/things/a", "application/json", `{"name":"x","channel":"fax","lines":[]}`, "field channel must be one of telesales, ecommerce"},
		{"query not an integer", "/v1/things/a?page=two", "application/json", `{"name":"x","lines":[]}`, "query parameter page must be an integer"},
		{"query beyond int64", "/v1/things/a?page=99999999999999999999", "application/json", `{"name":"x","lines":[]}`, "query parameter page must be an integer between"},
		{"query given twice", "/v1/things/a?page=1&page=2", "application/json", `{"name":"x","lines":[]}`, "query parameter page must be given once"},
		{"query with NUL", "/v1/things/a?order=%00", "application/json", `{"name":"x","lines":[]}`, "query parameter order must not contain NUL characters"},
		{"query not UTF-8", "/v1/things/a?order=%ff", "application/json", `{"name":"x","lines":[]}`, "query parameter order must be valid UTF-8 text"},
		{"query badly escaped", "/v1/things/a?order=%zz", "application/json", `{"name":"x","lines":[]}`, "the query string must be name=value pairs"},
		{"query enum", "/v1/things/a?order=sideways", "application/json", `{"name":"x","lines":[]}`, "query parameter order must be one of asc, desc"},
		{"not an e-mail address", "/v1/things/a", "application/json", `{"name":"x","lines":[],"email":"nobody"}`, "field email must be an e-mail address"},
		{"relative URI", "/v1/things/a", "application/json", `{"name":"x","lines":[],"link":"/page"}`, "field link must be an absolute URI"},
		{"not a date-time", "/v1/things/a", "application/json", `{"name":"x","lines":[],"at":"tomorrow"}`, "field at must be an RFC 3339 date and time"},
		{"path id with NUL", "/v1/things/a%00b", "application/json", `{"name":"x","lines":[]}`, "path parameter id must not contain NUL characters"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := call(t, app, tc.target, tc.contentType, tc.body)
			if status != 400 {
				t.Fatalf("got %d %s", status, body)
			}
			var e sellerapi.Error
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("body is not the contract's error object: %s", body)
			}
			if e.Name != "bad_request" || !strings.Contains(e.Message, tc.want) {
				t.Errorf("want %q in the message, got %+v", tc.want, e)
			}
			for _, leak := range []string{"strconv", "Go struct", "Schema:", "Value:", "goroutine", "json:", "invalid character", "EOF", "exceeded max depth"} {
				if strings.Contains(e.Message, leak) {
					t.Errorf("the message leaks %q: %s", leak, e.Message)
				}
			}
		})
	}
}

func TestFiberPath(t *testing.T) {
	for in, want := range map[string]string{
		"/v1/offers":           "/v1/offers",
		"/v1/offers/{id}/void": "/v1/offers/:id/void",
		"/v1/offers/ref/{seller_offer_reference}": "/v1/offers/ref/:seller_offer_reference",
	} {
		if got := fiberPath(in); got != want {
			t.Errorf("fiberPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFieldPath(t *testing.T) {
	if got := fieldPath([]string{"lines", "0", "sub_lines", "12", "price"}); got != "lines[0].sub_lines[12].price" {
		t.Errorf("got %s", got)
	}
}

func TestSellerContractLoads(t *testing.T) {
	ops, err := loadContract(openapi.Seller)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) < 33 {
		t.Errorf("the Seller API has at least 33 operations, loaded %d", len(ops))
	}
	for _, op := range ops {
		if len(op.scopes) == 0 {
			t.Errorf("%s %s demands no scope", op.method, op.fiberPath)
		}
	}
}
