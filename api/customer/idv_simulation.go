package customer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/idv"
)

// Simulation is the sandbox's identity verification provider: a page
// that stands in for a real provider's, with "Verify" and "Fail" buttons.
// It follows the provider contract like any provider: it accepts only
// Tenure's signed session links, posts the chosen result to Tenure's
// callback (at http.public_url) signed with the provider secret, and sends
// the customer back to the link's return URL.
type Simulation struct {
	provider    idv.Provider
	callbackURL string
	client      *http.Client
}

// simulationPage is the provider's page; it loads nothing from elsewhere.
var simulationPage = template.Must(template.New("idv").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} – Tenure sandbox</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
.note { background: #fff4d6; border-left: 4px solid #b07d00; padding: .75rem 1rem; }
form { display: flex; gap: 1rem; flex-wrap: wrap; margin-top: 1.5rem; }
button { font-size: 1rem; padding: .75rem 1.5rem; border-radius: .25rem; border: 2px solid #1a1a1a; cursor: pointer; }
button:focus-visible { outline: 3px solid #005fcc; outline-offset: 2px; }
.verify { background: #0a6b2e; color: #fff; border-color: #0a6b2e; }
.fail { background: #fff; color: #a11; border-color: #a11; }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
{{if .Problem}}<p role="alert">{{.Problem}}</p>{{else}}
<p class="note">This is a simulation of the sandbox: no identity is checked. Choose the result an identity verification provider would report for this customer.</p>
<p>Verification session <code>{{.SessionID}}</code>.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="session_id" value="{{.SessionID}}">
<input type="hidden" name="return_url" value="{{.ReturnURL}}">
<input type="hidden" name="signature" value="{{.Signature}}">
<button type="submit" name="outcome" value="verified" class="verify">Verify</button>
<button type="submit" name="outcome" value="failed" class="fail">Fail</button>
</form>{{end}}
</main>
</body>
</html>
`))

// NewSimulation is the sandbox's provider for provider's sessions,
// posting results to Tenure's callback at callbackURL.
func NewSimulation(provider idv.Provider, callbackURL string) Simulation {
	return Simulation{provider: provider, callbackURL: callbackURL, client: &http.Client{Timeout: 10 * time.Second}}
}

type simulationView struct {
	Title, Problem, Action          string
	SessionID, ReturnURL, Signature string
}

// Show renders the page for a session link.
func (s Simulation) Show(c *fiber.Ctx) error {
	v := simulationView{Title: "Identity verification (simulation)", Action: SimulationPath,
		SessionID: c.Query("session_id"), ReturnURL: c.Query("return_url"), Signature: c.Query("signature")}
	if err := s.provider.VerifyLink(v.SessionID, v.ReturnURL, v.Signature); err != nil {
		return s.refuse(c, err)
	}
	return s.render(c, http.StatusOK, v)
}

// Report records the chosen result through the callback and sends the
// customer back.
func (s Simulation) Report(c *fiber.Ctx) error {
	sessionID, returnURL := c.FormValue("session_id"), c.FormValue("return_url")
	if err := s.provider.VerifyLink(sessionID, returnURL, c.FormValue("signature")); err != nil {
		return s.refuse(c, err)
	}
	outcome := customerapi.IdvResultResult(c.FormValue("outcome"))
	if outcome != customerapi.IdvResultResultVerified && outcome != customerapi.IdvResultResultFailed {
		return s.render(c, http.StatusBadRequest, simulationView{Title: "Identity verification (simulation)",
			Problem: "Choose Verify or Fail."})
	}
	reference := "simulation-" + uuid.NewString()
	body, err := json.Marshal(customerapi.IdvResult{SessionId: sessionID, Result: outcome, ProviderReference: &reference})
	if err != nil {
		return err
	}
	if problem := s.post(c, body); problem != "" {
		return s.render(c, http.StatusBadGateway, simulationView{Title: "Identity verification (simulation)", Problem: problem})
	}
	return c.Redirect(returnURL, http.StatusSeeOther)
}

// post sends the signed callback, as a provider's server does, and says
// what went wrong for the page, or nothing.
func (s Simulation) post(c *fiber.Ctx, body []byte) string {
	req, err := http.NewRequestWithContext(c.UserContext(), http.MethodPost, s.callbackURL, bytes.NewReader(body))
	if err != nil {
		return "The simulated provider cannot address Tenure's callback."
	}
	req.Header.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	req.Header.Set(guard.IDVSignatureHeader, s.provider.SignCallback(body, time.Now()))
	resp, err := s.client.Do(req)
	if err != nil {
		return "The simulated provider could not reach Tenure's callback at " + s.callbackURL + " (http.public_url)."
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Sprintf("Tenure's callback refused the result (HTTP %d).", resp.StatusCode)
	}
	return ""
}

func (s Simulation) refuse(c *fiber.Ctx, err error) error {
	problem := "This verification link is not valid. Start the verification again from the checkout."
	if errors.Is(err, idv.ErrLinkExpired) {
		problem = "This verification link has expired. Start the verification again from the checkout."
	}
	return s.render(c, http.StatusBadRequest, simulationView{Title: "Identity verification (simulation)", Problem: problem})
}

func (s Simulation) render(c *fiber.Ctx, status int, v simulationView) error {
	var page bytes.Buffer
	if err := simulationPage.Execute(&page, v); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	c.Set("Referrer-Policy", "no-referrer")
	c.Set("X-Content-Type-Options", "nosniff")
	return c.Status(status).Send(page.Bytes())
}
