package customer

import (
	"context"
	"errors"
	"net/url"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// customerIDV serves identity verification: the requirement, the start of
// a session with the provider, and the provider's callback.
type customerIDV struct {
	offers *services.CustomerOffers
	// provider is nil where the deployment has none.
	provider  *idv.Provider
	publicURL string
}

// SimulationPath is where the sandbox's simulated provider lives.
const SimulationPath = "/simulations/identity-verification"

// Provider is the deployment's provider: the configured one, else in
// the sandbox the simulation (signing with a secret derived from the links
// key), else none.
func Provider(cfg *config.Config) *idv.Provider {
	p := cfg.IDV.Provider
	if p.URL != "" {
		provider := idv.NewProvider(hostOf(p.URL), p.URL, p.Secret, p.SessionTTL)
		return &provider
	}
	if cfg.Environment != config.Sandbox {
		return nil
	}
	provider := idv.NewProvider("simulation", cfg.HTTP.PublicURL+SimulationPath,
		links.DeriveKey(cfg.Links.SigningKey, "tenure sandbox identity verification"), p.SessionTTL)
	return &provider
}

// GetIdvRequirement implements getIdvRequirement.
func (v customerIDV) GetIdvRequirement(ctx context.Context, r customerapi.GetIdvRequirementRequestObject) (customerapi.GetIdvRequirementResponseObject, error) {
	o, err := bearerOffer(ctx, v.offers, r.Id)
	if err != nil {
		return nil, err
	}
	result, err := v.offers.Verification(ctx, o)
	if err != nil {
		return nil, err
	}
	return customerapi.GetIdvRequirement200JSONResponse{Result: customerapi.IdvRequirementResult(result)}, nil
}

// GetIdVerification implements getIdVerification: the offer's open session
// with the provider, or a new one when none is open (idv.Start); the
// customer comes back to the offer's checkout page, whose link here carries
// no shared token (the provider never sees it). Only an open offer's
// customer gets here (bearerOffer).
func (v customerIDV) GetIdVerification(ctx context.Context, r customerapi.GetIdVerificationRequestObject) (customerapi.GetIdVerificationResponseObject, error) {
	o, err := bearerOffer(ctx, v.offers, r.Id)
	if err != nil {
		return nil, err
	}
	if v.provider == nil {
		return nil, apierror.NotImplemented("this deployment has no identity verification provider (idv.provider.url)")
	}
	link, err := v.offers.StartVerification(ctx, o, *v.provider, v.publicURL+"/checkout/offers/"+o.Row.ID.String())
	if err != nil {
		return nil, err
	}
	return customerapi.GetIdVerification200JSONResponse{Url: link}, nil
}

// ReceiveIdvResult implements receiveIdvResult; its signature was checked
// by providerSignature before the body was read.
func (v customerIDV) ReceiveIdvResult(ctx context.Context, r customerapi.ReceiveIdvResultRequestObject) (customerapi.ReceiveIdvResultResponseObject, error) {
	id, err := recordid.Parse(r.Body.SessionId)
	if err != nil {
		return nil, apierror.NotFound("no verification session %s", r.Body.SessionId)
	}
	err = v.offers.DecideVerification(ctx, idv.Verdict{
		SessionID: id, Status: idv.Status(r.Body.Result),
		ProviderReference: optional.Value(r.Body.ProviderReference), Reason: optional.Value(r.Body.Reason),
	})
	switch {
	case errors.Is(err, idv.ErrUnknownSession):
		return nil, apierror.NotFound("no verification session %s", id)
	case errors.Is(err, idv.ErrDecided):
		return nil, apierror.Conflict("verification session %s was already decided with the other result", id)
	case err != nil:
		return nil, err
	}
	return customerapi.ReceiveIdvResult204Response{}, nil
}

// hostOf names a provider by its URL's host.
func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	return u.Host
}
