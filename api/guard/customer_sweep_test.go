package guard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// sweepRequest is one request of the sweep: everything a customer
// operation can carry.
type sweepRequest struct {
	method, offerID string
	op              customerOperation
	query           url.Values
	header          map[string]string
	bearer          string
	// body is sent verbatim; nil sends none.
	body []byte
	// unsigned leaves out a signed operation's signature; signature, when
	// set, replaces it.
	unsigned  bool
	signature string
}

// sweepWorld is what the sweep's requests refer to: offers A (the caller's)
// and B (someone else's), their credentials, and real ids to put in bodies.
type sweepWorld struct {
	f                   apitest.OfferFixture
	a, b                apitest.CustomerOffer
	tokenA, sellerToken string
	// expiredA was offer A's bearer token until a moment ago.
	expiredA        string
	lineA, sessionA string
	provider        idv.Provider
}

func (w sweepWorld) send(t *testing.T, r sweepRequest) apitest.Response {
	t.Helper()
	target := r.op.target(r.offerID)
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	var req *http.Request
	if r.body != nil {
		req = httptest.NewRequest(r.op.method, target, strings.NewReader(string(r.body)))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(r.op.method, target, nil)
	}
	if r.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+r.bearer)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	if r.op.signed && !r.unsigned {
		sig := r.signature
		if sig == "" {
			sig = w.provider.SignCallback(r.body, time.Now())
		}
		req.Header.Set("Tenure-Signature", sig)
	}
	return w.f.Harness.Send(t, req)
}

// simulatedProvider is the sandbox's simulated identity verification
// provider, which signs the callbacks the sweep sends.
func simulatedProvider(h *apitest.Harness) idv.Provider {
	return idv.NewProvider("simulation", "", links.DeriveKey(h.Config.Links.SigningKey, "tenure sandbox identity verification"), time.Minute)
}

// idvSession opens an identity verification session of an offer and
// returns its id.
func idvSession(t *testing.T, h *apitest.Harness, o apitest.CustomerOffer, bearer string) string {
	t.Helper()
	resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", bearer, nil)
	var v struct {
		URL string `json:"url"`
	}
	resp.Decode(t, &v)
	link, err := url.Parse(v.URL)
	if err != nil || link.Query().Get("session_id") == "" {
		t.Fatalf("identity verification: %d %s", resp.Status, resp.Body)
	}
	return link.Query().Get("session_id")
}

// base is a request that passes every check of op for offer A.
func (w sweepWorld) base(t *testing.T, op customerOperation) sweepRequest {
	t.Helper()
	r := sweepRequest{op: op, offerID: w.a.ID, query: url.Values{}, header: map[string]string{}}
	switch {
	case op.sharedToken:
		r.query.Set("token", w.a.Token)
	case op.bearer:
		r.bearer = w.tokenA
	}
	for _, p := range op.op.Parameters {
		if p.Value.In == "header" && p.Value.Name == "Accept-Language" {
			r.header["Accept-Language"] = "de"
		}
	}
	if rb := op.op.RequestBody; rb != nil {
		raw, err := json.Marshal(w.example("", rb.Value.Content["application/json"].Schema.Value))
		if err != nil {
			t.Fatal(err)
		}
		r.body = raw
	}
	return r
}

// example is a valid value of schema, every property present: real ids
// where a property names one, the smallest values the schema allows
// elsewhere.
func (w sweepWorld) example(name string, s *openapi3.Schema) any {
	if name == "selected_services" && s.Type.Is(openapi3.TypeString) {
		return w.lineA + "-service-replace"
	}
	switch name {
	case "offer_id":
		return w.a.ID
	case "offer_line_id":
		return w.lineA
	case "session_id":
		return w.sessionA
	case "discount_code":
		return "SWEEP"
	case "selected_contract_terms_id":
		return w.lineA + "-rent-24"
	case "last_updated_at":
		return w.updatedAt()
	case "type":
		if slices.Contains(s.Enum, any("sepa_direct_debit")) {
			return "sepa_direct_debit"
		}
		return "de_gmbh"
	case "iban":
		return "DE89 3704 0044 0532 0130 00"
	case "account_holder":
		return "Kunde GmbH"
	case "mandate_accepted":
		return true
	case "country_code", "phone_country_code":
		return "DE"
	case "postal_code":
		return "10115"
	case "vat_number":
		return "DE123456789"
	case "language":
		return "de"
	case "phone_national_number":
		return "030 1234567"
	case "phone_type":
		return "landline"
	case "email":
		return "jane@company.example"
	}
	switch {
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is(openapi3.TypeObject):
		obj := map[string]any{}
		for prop, ref := range s.Properties {
			obj[prop] = w.example(prop, ref.Value)
		}
		return obj
	case s.Type.Is(openapi3.TypeArray):
		return []any{w.example(name, s.Items.Value)}
	case s.Type.Is(openapi3.TypeInteger), s.Type.Is(openapi3.TypeNumber):
		return 1
	case s.Type.Is(openapi3.TypeBoolean):
		return false
	case s.Format == "date-time":
		return time.Now().UTC().Format(time.RFC3339)
	}
	return strings.Repeat("x", max(int(s.MinLength), 2))
}

// updatedAt is offer A's updated_at, which an acceptance must name.
func (w sweepWorld) updatedAt() string {
	var at time.Time
	if err := w.f.Harness.Store.Pool.QueryRow(context.Background(), "SELECT updated_at FROM offers WHERE id = $1", w.a.ID).Scan(&at); err != nil {
		panic(err)
	}
	return at.UTC().Format(time.RFC3339Nano)
}

// variant is a bad request and the statuses that refuse it.
type variant struct {
	name   string
	req    sweepRequest
	expect []int
}

// variants derives the bad requests of an operation from its contract.
func (w sweepWorld) variants(t *testing.T, op customerOperation, served bool) []variant {
	t.Helper()
	base := w.base(t, op)
	var vs []variant
	add := func(name string, expect []int, change func(r *sweepRequest)) {
		r := base
		r.query, r.header = cloneValues(base.query), clone(base.header)
		change(&r)
		vs = append(vs, variant{name: name, req: r, expect: expect})
	}
	bad, notFound, unauthorized := []int{http.StatusBadRequest}, []int{http.StatusNotFound}, []int{http.StatusUnauthorized}
	if strings.Contains(op.path, "{id}") {
		add("path id with other characters", bad, func(r *sweepRequest) { r.offerID = "not!an*id" })
		switch {
		case op.sharedToken && !op.bearer:
			add("unknown offer id", bad, func(r *sweepRequest) { r.offerID = apitest.NewID() })
			add("another offer's id", bad, func(r *sweepRequest) { r.offerID = w.b.ID })
		case op.sharedToken:
			add("unknown offer id with the shared token", bad, func(r *sweepRequest) { r.offerID = apitest.NewID() })
			add("another offer's id with the shared token", bad, func(r *sweepRequest) { r.offerID = w.b.ID })
			add("another offer's id with a bearer token", notFound, func(r *sweepRequest) {
				r.offerID, r.bearer = w.b.ID, w.tokenA
				r.query.Del("token")
			})
		case op.bearer:
			add("unknown offer id", notFound, func(r *sweepRequest) { r.offerID = apitest.NewID() })
			add("another offer's id", notFound, func(r *sweepRequest) { r.offerID = w.b.ID })
		default:
			add("unknown offer id", notFound, func(r *sweepRequest) { r.offerID = apitest.NewID() })
		}
	}
	if op.sharedToken {
		signer := links.NewSigner(w.f.Harness.Config.Links.SigningKey)
		for name, token := range map[string]string{
			"forged shared token":       links.NewSigner(strings.Repeat("f", 40)).Sign(offers.TokenPurpose, w.a.ID, time.Now().Add(time.Hour)),
			"expired shared token":      signer.Sign(offers.TokenPurpose, w.a.ID, time.Now().Add(-time.Minute)),
			"another offer's token":     w.b.Token,
			"over-long shared token":    strings.Repeat("t", 257),
			"shared token of a purpose": signer.Sign("upload", w.a.ID, time.Now().Add(time.Hour)),
		} {
			add(name, bad, func(r *sweepRequest) { r.query.Set("token", token) })
		}
	}
	if op.bearer {
		forged, _, _ := auth.NewOfferTokens(strings.Repeat("f", 40), time.Hour).Issue(uuid.MustParse(w.a.ID), w.f.Seller.Seller.ID, auth.CustomerScopes, time.Now().Add(time.Hour))
		for name, token := range map[string]string{"forged bearer token": forged, "expired bearer token": w.expiredA, "seller's token": w.sellerToken, "garbage bearer token": "a.b.c"} {
			add(name, unauthorized, func(r *sweepRequest) {
				r.bearer = token
				r.query.Del("token")
			})
		}
		if !op.optionalBearer {
			add("no credentials", unauthorized, func(r *sweepRequest) { r.bearer = "" })
		}
	}
	if op.signed {
		add("unsigned callback", unauthorized, func(r *sweepRequest) { r.unsigned = true })
		add("forged signature", unauthorized, func(r *sweepRequest) {
			r.signature = idv.NewProvider("x", "", strings.Repeat("s", 32), time.Minute).SignCallback(r.body, time.Now())
		})
	}
	if _, ok := base.header["Accept-Language"]; ok {
		add("over-long Accept-Language", bad, func(r *sweepRequest) { r.header["Accept-Language"] = strings.Repeat("d", 513) })
	}
	// The head limits and the text checks of the guard both APIs share.
	add("URL over 8 KiB", []int{http.StatusRequestURITooLong}, func(r *sweepRequest) { r.query.Set("pad", strings.Repeat("u", 8<<10)) })
	add("header over 8 KiB", []int{http.StatusRequestHeaderFieldsTooLarge}, func(r *sweepRequest) { r.header["X-Pad"] = strings.Repeat("h", 8<<10) })
	add("control character in a header", bad, func(r *sweepRequest) { r.header["X-Note"] = "a\x01b" })
	if strings.Contains(op.path, "{id}") {
		add("NUL in the path id", bad, func(r *sweepRequest) { r.offerID = w.a.ID[:8] + "%00" })
	}
	if op.sharedToken {
		add("NUL in the shared token", bad, func(r *sweepRequest) { r.query.Set("token", w.a.Token+"\x00") })
		add("invalid UTF-8 in the shared token", bad, func(r *sweepRequest) { r.query.Set("token", "\xff\xfe") })
	}
	if base.body != nil {
		schema := op.op.RequestBody.Value.Content["application/json"].Schema.Value
		add("malformed JSON", bad, func(r *sweepRequest) { r.body = []byte(`{"`) })
		add("JSON of another type", bad, func(r *sweepRequest) { r.body = []byte(`[]`) })
		if op.public {
			add("body over 64 KiB", []int{http.StatusRequestEntityTooLarge}, func(r *sweepRequest) {
				r.body = []byte(`{"pad":"` + strings.Repeat("p", 65<<10) + `"}`)
			})
		}
		var doc any
		if err := json.Unmarshal(base.body, &doc); err != nil {
			t.Fatal(err)
		}
		walkSchema(schema, nil, func(path []string, s *openapi3.Schema, required bool) {
			at := strings.Join(path, ".")
			with := func(value any) func(r *sweepRequest) {
				return func(r *sweepRequest) { r.body = setJSON(t, base.body, path, value) }
			}
			add("wrong type at "+at, bad, with(wrongType(s)))
			switch {
			case s.Type.Is(openapi3.TypeString) && len(s.Enum) == 0:
				add("NUL in "+at, bad, with("a\x00b"))
			case s.Type.Is(openapi3.TypeInteger):
				add("out-of-range number at "+at, bad, with(json.Number("1e400")))
			}
			if s.MaxLength != nil {
				add("over-long "+at, bad, with(strings.Repeat("y", int(*s.MaxLength)+1)))
			}
			if s.MaxItems != nil {
				items := make([]any, int(*s.MaxItems)+1)
				for i := range items {
					items[i] = getJSON(doc, path).([]any)[0]
				}
				add("too many "+at, bad, with(items))
			}
			if required {
				add("missing "+at, bad, func(r *sweepRequest) { r.body = setJSON(t, base.body, path, deleted{}) })
			}
			if served && (path[len(path)-1] == "offer_id" || path[len(path)-1] == "offer_line_id" || path[len(path)-1] == "session_id" || path[len(path)-1] == "discount_code") {
				refused := []int{http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity}
				add("unknown "+at, refused, with(apitest.NewID()))
				if path[len(path)-1] == "offer_id" && op.bearer {
					add("another offer's "+at, refused, with(w.b.ID))
				}
			}
		})
	}
	return vs
}

// walkSchema visits every property of an object schema, nested objects and
// array items included (their path holds "0").
func walkSchema(s *openapi3.Schema, path []string, visit func(path []string, s *openapi3.Schema, required bool)) {
	switch {
	case s.Type.Is(openapi3.TypeObject):
		for name, ref := range s.Properties {
			p := append(slices.Clone(path), name)
			visit(p, ref.Value, slices.Contains(s.Required, name))
			walkSchema(ref.Value, p, visit)
		}
	case s.Type.Is(openapi3.TypeArray):
		walkSchema(s.Items.Value, append(slices.Clone(path), "0"), visit)
	}
}

func wrongType(s *openapi3.Schema) any {
	if s.Type.Is(openapi3.TypeString) {
		return 12345
	}
	return "not of this type"
}

// deleted marks a property setJSON removes.
type deleted struct{}

func setJSON(t *testing.T, raw []byte, path []string, value any) []byte {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	parent := getJSON(doc, path[:len(path)-1])
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		if _, del := value.(deleted); del {
			delete(p, last)
		} else {
			p[last] = value
		}
	case []any:
		p[0] = value
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func getJSON(doc any, path []string) any {
	for _, p := range path {
		switch d := doc.(type) {
		case map[string]any:
			doc = d[p]
		case []any:
			doc = d[0]
		}
	}
	return doc
}

func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}

// checkRefusal checks that a refusal has the contract's shape and says
// nothing of Tenure's internals.
func checkRefusal(t *testing.T, what string, resp apitest.Response) {
	t.Helper()
	for _, word := range guard.Internals {
		if strings.Contains(string(resp.Body), word) {
			t.Errorf("%s: the answer shows internals (%q): %s", what, word, resp.Body)
		}
	}
	switch ct := resp.Header.Get("Content-Type"); {
	case resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden:
		var msg string
		if json.Unmarshal(resp.Body, &msg) != nil || msg == "" {
			t.Errorf("%s: %d is a JSON string, got %s", what, resp.Status, resp.Body)
		}
	case ct == "application/vnd.goa.error":
		var e map[string]any
		if json.Unmarshal(resp.Body, &e) != nil || e["name"] == "" || e["message"] == "" || e["id"] == "" {
			t.Errorf("%s: error object %s", what, resp.Body)
		}
	case strings.HasPrefix(ct, "application/json") && resp.Status == http.StatusUnprocessableEntity:
		var e map[string]any
		if json.Unmarshal(resp.Body, &e) != nil || e["name"] == nil || e["message"] == nil {
			t.Errorf("%s: named 422 %s", what, resp.Body)
		}
	default:
		t.Errorf("%s: %d answered as %q: %s", what, resp.Status, ct, resp.Body)
	}
}

// sweepState is everything a customer operation could change.
func sweepState(t *testing.T, w sweepWorld) string {
	t.Helper()
	var state []string
	for _, q := range []string{
		"SELECT count(*) FROM leads",
		"SELECT count(*) FROM accessory_feedback",
		"SELECT count(*) || ':' || string_agg(status, ',' ORDER BY id) FROM idv_sessions",
		"SELECT count(*) FROM discount_redemptions",
		"SELECT string_agg(code || times_used || active, ',' ORDER BY id) FROM discount_codes",
		"SELECT string_agg(id || status || updated_at::text || md5(document::text), ',' ORDER BY id) FROM offers",
		"SELECT string_agg(id || updated_at::text, ',' ORDER BY id) FROM sellers",
		"SELECT string_agg(id || updated_at::text || iban_masked || account_holder, ',' ORDER BY id) FROM mandates",
	} {
		var v *string
		if err := w.f.Harness.Store.Pool.QueryRow(t.Context(), q).Scan(&v); err != nil {
			t.Fatal(err)
		}
		state = append(state, fmt.Sprint(apitest.Deref(v)))
	}
	return strings.Join(state, "\n")
}

// Every customer operation refuses bad input with a clear 4xx and changes
// nothing: requests derived from customer.yaml (malformed and mistyped
// bodies, over-long values, missing fields, unknown and other offers' ids,
// forged and expired credentials), every answer no-store (h.send's check,
// internal/testing/contractcheck). Operations this version answers with 501 get
// every check the contract's guard makes; the checks of ids inside
// bodies join when they are served. The sweep's hundreds of requests for
// one offer from one address would use up the Customer-Facing API's
// budgets, which TestCustomerFloods tests: they are lifted here.
func TestCustomerBadInputSweep(t *testing.T) {
	f := apitest.NewOfferFixture(t, withoutCustomerLimits)
	h := f.Harness
	w := sweepWorld{f: f, a: f.NewCustomerOffer(t, "sweep-a", apitest.WithoutSublines), b: f.NewCustomerOffer(t, "sweep-b"), sellerToken: f.Token}
	w.lineA = w.a.View.Lines[0].ID
	w.tokenA = h.CustomerToken(t, w.a, "")
	w.expiredA, _, _ = auth.NewOfferTokens(h.Config.Auth.SigningKey, time.Hour).Issue(uuid.MustParse(w.a.ID), f.Seller.Seller.ID, auth.CustomerScopes, time.Now().Add(time.Second))
	w.provider = simulatedProvider(h)
	f.CreateDiscountCode(t, map[string]any{"code": "SWEEP", "percent_off": 500})
	w.sessionA = idvSession(t, h, w.a, w.tokenA)
	// Offer A has a payment method, which getPaymentMethod shows.
	if resp := h.Customer(t, http.MethodPut, "/offers/"+w.a.ID+"/payment-method", w.tokenA, map[string]any{
		"type": "sepa_direct_debit", "iban": "DE89370400440532013000", "account_holder": "Kunde GmbH", "mandate_accepted": true,
	}); resp.Status != http.StatusOK {
		t.Fatalf("payment method: %d %s", resp.Status, resp.Body)
	}

	ops := customerOperations(t)
	served := map[string]bool{}
	var accept customerOperation
	for _, op := range ops {
		if op.id == "acceptOffer" {
			// Its valid request goes last, after the bad ones: it closes
			// offer A, whose bad acceptances must meet an open offer to
			// reach the checks of what they send.
			accept, served[op.id] = op, true
			continue
		}
		resp := w.send(t, w.base(t, op))
		switch {
		case resp.Status == http.StatusNotImplemented:
		case resp.Status >= 200 && resp.Status < 300:
			served[op.id] = true
		default:
			t.Errorf("%s: the sweep's valid request is refused: %d %s", op, resp.Status, resp.Body)
		}
	}
	time.Sleep(1100 * time.Millisecond) // until expiredA has expired
	before := sweepState(t, w)
	count := 0
	for _, op := range ops {
		for _, v := range w.variants(t, op, served[op.id]) {
			count++
			resp := w.send(t, v.req)
			what := fmt.Sprintf("%s, %s", op, v.name)
			if !slices.Contains(v.expect, resp.Status) {
				t.Errorf("%s: want %v, got %d %s", what, v.expect, resp.Status, resp.Body)
				continue
			}
			checkRefusal(t, what, resp)
		}
	}
	if after := sweepState(t, w); after != before {
		t.Errorf("bad requests changed state:\nbefore %s\nafter  %s", before, after)
	}
	if resp := w.send(t, w.base(t, accept)); resp.Status < 200 || resp.Status >= 300 {
		t.Errorf("%s: the sweep's valid request is refused: %d %s", accept, resp.Status, resp.Body)
	}
	if count < 300 {
		t.Errorf("the sweep sent %d requests; the contract should give more", count)
	}
	t.Logf("%d bad requests; operations served by this version: %d of %d", count, len(served), len(ops))
}
