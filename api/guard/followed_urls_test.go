package guard_test

import (
	"bytes"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
)

// unfollowable are URLs no field a customer or Tenure follows may hold, in
// any environment.
var unfollowable = []string{
	"https:javascript:alert(1)", "https:///x", "//evil.example/x", "javascript:alert(1)", "/checkout/done",
	"http://shop.example/done", "http://192.0.2.10/done", "https://user:pw@shop.example/x", "https://shop.example@evil.example/",
	"ftp://shop.example/x", "https://bücher.example/", "https://127.1/", "https://shop.example/a b",
}

// Every request field seller.yaml marks x-tenure-followed-url, on every
// operation that takes it, refuses each unfollowable URL with a status the
// operation's contract lists (the client checks it), naming the field and
// changing nothing; an https URL passes the rule.
func TestFollowedURLsAreRefused(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	sw := sweep{h: h, base: h.Serve(t), client: &http.Client{Transport: contractcheck.Transport(t, nil), Timeout: time.Minute}}
	ids := sw.fixtures(t)
	doc, err := openapi3.NewLoader().LoadFromData(openapi.Seller)
	if err != nil {
		t.Fatal(err)
	}
	fields := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, operation := range doc.Paths.Value(path).Operations() {
			if operation.RequestBody == nil {
				continue
			}
			op, err := newSweepOp(method, path, operation, ids)
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range followedFields(op.bodySchema, op.body, nil) {
				fields++
				field := fieldName(at)
				t.Run(method+" "+path+" "+field, func(t *testing.T) {
					before := sw.checksum(t)
					for _, u := range unfollowable {
						status, body := sw.exchange(t, op, mutation{path: at, value: u}.apply(op.body))
						if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity || !bytes.Contains(body, []byte(field)) {
							t.Errorf("%q: %d %s, want a refusal naming %s", u, status, body, field)
						}
					}
					if after := sw.checksum(t); !maps.Equal(before, after) {
						t.Errorf("refused URLs changed the database: %s", changedTables(before, after))
					}
					status, body := sw.exchange(t, op, mutation{path: at, value: "https://shop.example/" + strings.ReplaceAll(field, ".", "/")}.apply(op.body))
					if bytes.Contains(body, []byte("field "+field)) {
						t.Errorf("an https URL is refused: %d %s", status, body)
					}
				})
			}
		}
	}
	// Offers (create, edit, partner, validate: two redirects each), the
	// shipment, webhook endpoints (create, update), the seller's logo and
	// documents.
	if fields < 13 {
		t.Errorf("%d followed URL fields in seller.yaml's requests, want at least 13", fields)
	}
}

// followedFields are the paths of the example body's values whose schema
// marks them as followed URLs.
func followedFields(s *openapi3.Schema, v any, path []any) [][]any {
	var out [][]any
	switch v := v.(type) {
	case string:
		if followed, _ := s.Extensions["x-tenure-followed-url"].(bool); followed {
			out = append(out, slices.Clone(path))
		}
	case []any:
		for i, item := range v {
			out = append(out, followedFields(s.Items.Value, item, append(slices.Clip(path), i))...)
		}
	case map[string]any:
		for _, key := range slices.Sorted(maps.Keys(v)) {
			if p, ok := s.Properties[key]; ok {
				out = append(out, followedFields(p.Value, v[key], append(slices.Clip(path), key))...)
			}
		}
	}
	return out
}

// exchange sends an operation's request with body as the fixtures' owner
// and returns the answer.
func (sw *sweep) exchange(t *testing.T, op sweepOp, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), strings.ToUpper(op.method), sw.base+op.concretePath(nil), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+sw.a.Token)
	resp, err := sw.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// The sandbox's exception: http and https to localhost and 127.0.0.1 are
// redirects there, and refused in production, which takes https elsewhere.
func TestRedirectsToThisMachineInTheSandboxOnly(t *testing.T) {
	for _, env := range []config.Environment{config.Sandbox, config.Production} {
		t.Run(string(env), func(t *testing.T) {
			f := apitest.NewOfferFixture(t, func(c *config.Config) { c.Environment = env })
			for _, u := range []string{"http://localhost:3000/done", "https://127.0.0.1/done", "https://shop.example/done"} {
				payload := apitest.OfferPayload("local-"+string(env), apitest.WithField("success_redirect", u), apitest.WithField("exit_redirect", u))
				resp := f.Harness.Do(t, http.MethodPost, "/v1/offers/validate", f.Token, payload)
				refused := resp.Status == http.StatusUnprocessableEntity && strings.Contains(string(resp.Body), `"InvalidRedirect"`)
				if want := env == config.Production && !strings.Contains(u, "shop.example"); refused != want {
					t.Errorf("%s: %d %s, want refused %v", u, resp.Status, resp.Body, want)
				}
			}
		})
	}
}
