package guard_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// idForms are spellings of one record id that name the same record
// (package recordid): as Tenure writes it, in upper case and mixed; and
// "unknown", an id of no record.
func idForms(id string) map[string]string {
	mixed := []byte(id)
	for i := range mixed {
		if i%2 == 0 {
			mixed[i] = bytes.ToUpper(mixed[i : i+1])[0]
		}
	}
	return map[string]string{"lower": id, "upper": strings.ToUpper(id), "mixed": string(mixed), "unknown": apitest.NewID()}
}

// idAnswer is an answer of a probe, its body as JSON with the error
// object's request id left out (every request has its own).
type idAnswer struct {
	status int
	body   string
}

func newIDAnswer(r apitest.Response) idAnswer {
	var v any
	if json.Unmarshal(r.Body, &v) != nil {
		return idAnswer{status: r.Status, body: string(r.Body)}
	}
	if e, ok := v.(map[string]any); ok && e["name"] != nil && e["message"] != nil {
		delete(e, "id")
	}
	out, _ := json.Marshal(v)
	return idAnswer{status: r.Status, body: string(out)}
}

// idProbe sends one request naming a record by one spelling of its id.
type idProbe struct {
	name string
	send func(t *testing.T, form string) apitest.Response
	// fresh: the request changes its record for good (a deletion), so each
	// spelling names a record of its own, made alike; the lower-case one
	// must succeed and the others answer its status.
	fresh bool
}

// check sends the probe with each spelling of the id and wants the same
// answer. The request is first sent once as Tenure writes the id, so that
// a request that changes its record (void, accept) meets the state it
// leaves behind each time after; the lower-case request must then be
// answered otherwise than one naming no record (else the probe proves
// nothing), and the upper-case and mixed requests must get its status,
// and its body too when the operation answers alike twice.
func (p idProbe) check(t *testing.T) {
	t.Helper()
	if p.fresh {
		lower := p.send(t, "lower")
		if unknown := p.send(t, "unknown"); lower.Status >= 300 || unknown.Status == lower.Status {
			t.Errorf("%s: the lower-case id answers %d %s, an unknown one %d %s", p.name, lower.Status, lower.Body, unknown.Status, unknown.Body)
		}
		for _, form := range []string{"upper", "mixed"} {
			if got := p.send(t, form); got.Status != lower.Status {
				t.Errorf("%s, %s id: %d %s; the lower-case id: %d %s", p.name, form, got.Status, got.Body, lower.Status, lower.Body)
			}
		}
		return
	}
	first := newIDAnswer(p.send(t, "lower"))
	lower := newIDAnswer(p.send(t, "lower"))
	if unknown := newIDAnswer(p.send(t, "unknown")); unknown == lower {
		t.Errorf("%s: the lower-case id answers as an unknown one, %d %s: the probe proves nothing", p.name, lower.status, lower.body)
		return
	}
	deterministic := first == lower
	for _, form := range []string{"upper", "mixed"} {
		got := newIDAnswer(p.send(t, form))
		if got.status != lower.status || deterministic && got.body != lower.body {
			t.Errorf("%s, %s id: %d %s\nthe lower-case id: %d %s", p.name, form, got.status, got.body, lower.status, lower.body)
		}
	}
}

// Every path of both contracts that names a record by id, every id a body
// or query names and the token exchange's audience answer alike whether the id is written in lower case, upper case or
// mixed: one rule (package recordid) reads them all.
func TestIDsMatchInEveryCase(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	sw := sweep{h: h}
	ids := sw.fixtures(t)
	a := sw.a
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	ids.byPath["/v1/events/{id}"] = quietEvent(t, a, rcv)
	ids.byField["events"] = "order.created"

	// Records a deletion takes away, made alike for each spelling.
	fresh := map[string]func() string{
		"/v1/webhook-endpoints/{id}": func() string {
			var ep struct{ ID string }
			h.Do(t, http.MethodPost, "/v1/webhook-endpoints", a.Token, map[string]any{"url": rcv.URL}).Decode(t, &ep)
			return ep.ID
		},
		"/v1/catalog/imports/{id}": func() string {
			id, _ := h.CreateCSVImport(t, a.Token, "ids.csv")
			return id
		},
	}

	var probes []idProbe
	seller, err := openapi3.NewLoader().LoadFromData(openapi.Seller)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range seller.Paths.InMatchingOrder() {
		for method, operation := range seller.Paths.Value(path).Operations() {
			name := idParam(operation)
			if name == "" {
				continue
			}
			op, err := newSweepOp(method, path, operation, ids)
			if err != nil {
				t.Fatal(err)
			}
			prefix := path[:strings.Index(path, "{"+name+"}")+len(name)+2]
			probe := idProbe{name: method + " " + path, fresh: method == http.MethodDelete}
			maker := fresh[prefix]
			if probe.fresh && maker == nil {
				t.Fatalf("%s: add a maker of the records it deletes to fresh", probe.name)
			}
			probe.send = func(t *testing.T, form string) apitest.Response {
				id := op.pathParams[name]
				if probe.fresh {
					id = maker()
				}
				target := strings.ReplaceAll(op.path, "{"+name+"}", idForms(id)[form])
				for param, v := range op.pathParams {
					target = strings.ReplaceAll(target, "{"+param+"}", v)
				}
				var body any
				if op.body != nil {
					body = string(mustJSON(op.body))
				}
				return h.Do(t, strings.ToUpper(method), target, a.Token, body)
			}
			probes = append(probes, probe)
		}
	}

	// The customer's side: offer o, read and changed with its shared
	// token, a bearer token, or nothing.
	o := a.NewCustomerOffer(t, "ids-customer")
	token := h.CustomerToken(t, o, "")
	line := o.View.Lines[0].ID
	bodyIDs := exampleIDs{byField: maps.Clone(ids.byField)}
	bodyIDs.byField["offer_id"], bodyIDs.byField["*.offer_line_id"] = o.ID, line
	var accept []idProbe
	for _, op := range customerOperations(t) {
		if !strings.Contains(op.path, "{id}") {
			continue
		}
		var body any
		if rb := op.op.RequestBody; rb != nil {
			body = string(mustJSON(example(rb.Value.Content["application/json"].Schema.Value, "", bodyIDs)))
		}
		probe := idProbe{name: op.String(), send: func(t *testing.T, form string) apitest.Response {
			target := strings.ReplaceAll(op.path, "{id}", idForms(o.ID)[form])
			bearer := ""
			switch {
			case op.sharedToken:
				target += "?token=" + url.QueryEscape(o.Token)
			case op.bearer:
				bearer = token
			}
			return h.Customer(t, strings.ToUpper(op.method), target, bearer, body)
		}}
		if op.id == "acceptOffer" {
			// Last: an acceptance that went through would close the offer.
			accept = append(accept, probe)
			continue
		}
		probes = append(probes, probe)
	}
	probes = append(probes, bodyIDProbes(t, sw, o, token)...)
	probes = append(probes, accept...)

	for _, p := range probes {
		t.Run(p.name, p.check)
	}
	if len(probes) < 40 {
		t.Errorf("%d probes; the contracts name ids in more places", len(probes))
	}
}

// idParam is the name of the path parameter of an operation that names a
// record (id, or a name ending in _id), "" when it has none.
func idParam(op *openapi3.Operation) string {
	for _, p := range op.Parameters {
		if v := p.Value; v.In == openapi3.ParameterInPath && (v.Name == "id" || strings.HasSuffix(v.Name, "_id")) {
			return v.Name
		}
	}
	return ""
}

// quietEvent is an event of seller a whose deliveries have ended and whose
// endpoint is gone, so that reading or redelivering it answers the same
// every time.
func quietEvent(t *testing.T, a apitest.OfferFixture, rcv *testenv.Receiver) string {
	t.Helper()
	h := a.Harness
	var ep, ev struct{ ID string }
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints", a.Token, map[string]any{"url": rcv.URL}).Decode(t, &ep)
	h.Do(t, http.MethodPost, "/v1/webhook-endpoints/"+ep.ID+"/test", a.Token, nil).Decode(t, &ev)
	rcv.WaitDelivered(t, 1, 30*time.Second)
	if resp := h.Do(t, http.MethodDelete, "/v1/webhook-endpoints/"+ep.ID, a.Token, nil); resp.Status != http.StatusNoContent {
		t.Fatalf("deleting the endpoint: %d %s", resp.Status, resp.Body)
	}
	for range 100 {
		var pending int
		if err := h.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM webhook_deliveries WHERE event_id = $1 AND status = 'pending'", ev.ID).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			return ev.ID
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("event %s still has a pending delivery", ev.ID)
	return ""
}

// bodyIDProbes name records by ids in bodies and queries, and in the token
// exchange's audience.
func bodyIDProbes(t *testing.T, sw sweep, o apitest.CustomerOffer, token string) []idProbe {
	t.Helper()
	h, a := sw.h, sw.a
	line := o.View.Lines[0].ID
	code := "IDS-" + strings.ToUpper(o.ID[:8])
	a.CreateDiscountCode(t, map[string]any{"code": code, "percent_off": 500})
	replacement := a.CreateOffer(t, apitest.OfferPayload("ids-replacement")).ID
	resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", token, nil)
	var started struct {
		URL string `json:"url"`
	}
	resp.Decode(t, &started)
	link, err := url.Parse(started.URL)
	if err != nil || link.Query().Get("session_id") == "" {
		t.Fatalf("identity verification: %d %s", resp.Status, resp.Body)
	}
	session := link.Query().Get("session_id")
	provider := idv.NewProvider("simulation", "", links.DeriveKey(h.Config.Links.SigningKey, "tenure sandbox identity verification"), time.Minute)
	order := sw.a.AcceptedOrder(t, "ids-order")

	return []idProbe{
		{name: "validateDiscount offer_id", send: func(t *testing.T, form string) apitest.Response {
			return h.Customer(t, http.MethodPost, "/discount/validate", token, map[string]any{"offer_id": idForms(o.ID)[form], "discount_code": code})
		}},
		{name: "addAccessoryFeedback offer_id and offer_line_id", send: func(t *testing.T, form string) apitest.Response {
			resp := h.Customer(t, http.MethodPost, "/feedback/accessory_feedback", "", map[string]any{
				"offer_id": idForms(o.ID)[form], "offer_line_id": idForms(line)[form], "customer_feedback": "Fine.",
			})
			var fb struct {
				OfferID     string `json:"offer_id"`
				OfferLineID string `json:"offer_line_id"`
			}
			if form == "unknown" {
				return resp
			}
			if resp.Decode(t, &fb); fb.OfferID != o.ID || fb.OfferLineID != line {
				t.Errorf("feedback stored for %s line %s, want %s line %s as Tenure writes them", fb.OfferID, fb.OfferLineID, o.ID, line)
			}
			return resp
		}},
		{name: "receiveIdvResult session_id", send: func(t *testing.T, form string) apitest.Response {
			body := mustJSON(map[string]any{"session_id": idForms(session)[form], "result": "verified"})
			req := httptest.NewRequest(http.MethodPost, "/customer/idv/callback", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Tenure-Signature", provider.SignCallback(body, time.Now()))
			return h.Send(t, req)
		}},
		{name: "token exchange audience", send: func(t *testing.T, form string) apitest.Response {
			f := apitest.ExchangeForm(o, "offer:read")
			f.Set("audience", idForms(o.ID)[form])
			resp := h.Exchange(t, f)
			if form == "unknown" {
				return resp
			}
			// The token is new each time; its offer is what must match.
			var tok struct {
				AccessToken string `json:"access_token"`
			}
			resp.Decode(t, &tok)
			if read := h.Customer(t, http.MethodGet, "/offers/"+o.ID, tok.AccessToken, nil); read.Status != http.StatusOK {
				t.Errorf("the token of audience %s reads its offer: %d %s", idForms(o.ID)[form], read.Status, read.Body)
			}
			return resp
		}},
		{name: "listEvents object_id", send: func(t *testing.T, form string) apitest.Response {
			return h.Do(t, http.MethodGet, "/v1/events?object_id="+idForms(order)[form], a.Token, nil)
		}},
		{name: "createShipment order_id", send: func(t *testing.T, form string) apitest.Response {
			return h.Do(t, http.MethodPost, "/v1/shipment", a.Token, map[string]any{
				"order_id":       idForms(order)[form],
				"serial_numbers": []map[string]any{{"seller_product_reference": map[string]any{"source": "sku", "reference": "laptop"}, "serial_number": "SN-1"}},
			})
		}},
		{name: "voidOffer superseded_by_id", fresh: true, send: func(t *testing.T, form string) apitest.Response {
			voided := a.CreateOffer(t, apitest.OfferPayload("ids-void-"+form)).ID
			return h.Do(t, http.MethodPost, "/v1/offers/"+voided+"/void", a.Token, map[string]any{"superseded_by_id": idForms(replacement)[form]})
		}},
		{name: "runScenarioSimulation scenario_input.id", fresh: true, send: func(t *testing.T, form string) apitest.Response {
			offer := a.CreateOffer(t, apitest.OfferPayload("ids-simulated-"+form)).ID
			return h.Do(t, http.MethodPost, "/v1/scenario_simulations/mark_offer_voided", a.Token, map[string]any{"scenario_input": map[string]any{"id": idForms(offer)[form]}})
		}},
	}
}
