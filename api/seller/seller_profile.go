package seller

import (
	"context"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/domain/terms"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// sellerProfiles serves the Tenure extension through which a seller reads
// and changes its profile.
type sellerProfiles struct {
	sellers *services.Sellers
	cfg     *config.Config
}

// GetSellerProfile implements getSellerProfile.
func (h sellerProfiles) GetSellerProfile(ctx context.Context, _ sellerapi.GetSellerProfileRequestObject) (sellerapi.GetSellerProfileResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	p, err := h.sellers.Profile(ctx, claims.SellerID)
	if err != nil {
		return nil, err
	}
	return sellerapi.GetSellerProfile200JSONResponse(renderProfile(p, h.cfg.Sellers)), nil
}

// UpdateSellerProfile implements updateSellerProfile: the fields present
// change, the operator's fields and document replacements stay.
func (h sellerProfiles) UpdateSellerProfile(ctx context.Context, r sellerapi.UpdateSellerProfileRequestObject) (sellerapi.UpdateSellerProfileResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	b := r.Body
	p, err := h.sellers.UpdateProfile(ctx, claims.SellerID, func(p *sellers.Profile) error {
		setIf(&p.PrettyName, b.PrettyName)
		setIf(&p.LogoURL, b.LogoUrl)
		setIf(&p.Email, b.Email)
		setIf(&p.ProductReferenceSource, b.ProductReferenceSource)
		if a := b.Address; a != nil {
			p.Address = sellers.Address{
				Line1: optional.Value(a.Line1), Line2: optional.Value(a.Line2), PostalCode: optional.Value(a.PostalCode),
				City: optional.Value(a.City), Region: optional.Value(a.Region), CountryCode: optional.Value(a.CountryCode),
			}
		}
		if b.TermsAndConditions != nil {
			docs, err := h.sellerDocuments(p.TermsDocuments, *b.TermsAndConditions)
			if err != nil {
				return err
			}
			p.TermsDocuments = docs
		}
		if err := p.Refused(h.cfg.Sellers.ContractualEntities, h.cfg.FollowedURLs()); err != nil {
			return apierror.BadRequest("%s", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sellerapi.UpdateSellerProfile200JSONResponse(renderProfile(p, h.cfg.Sellers)), nil
}

// sellerDocuments replaces a seller's own documents by sent, keeping the
// operator's replacements of the deployment's documents; a seller may not
// send a document of a type the deployment has.
func (h sellerProfiles) sellerDocuments(current []sellers.TermsDocument, sent []sellerapi.SellerTermsDocument) ([]sellers.TermsDocument, error) {
	var docs []sellers.TermsDocument
	for _, d := range current {
		if terms.Deployment(h.cfg.Terms, d.Type) {
			docs = append(docs, d)
		}
	}
	for i, d := range sent {
		if terms.Deployment(h.cfg.Terms, d.Type) {
			return nil, apierror.BadRequest("field terms_and_conditions[%d].type: %s is a document of the deployment; the operator replaces those", i, d.Type)
		}
		docs = append(docs, sellers.TermsDocument{Type: d.Type, Language: string(d.Language), URL: d.Url})
	}
	return docs, nil
}

func setIf(field *string, value *string) {
	if value != nil {
		*field = *value
	}
}

// renderProfile is a profile as the Seller API shows it.
func renderProfile(p sellers.Profile, cfg config.SellersConfig) sellerapi.SellerProfile {
	entity, countries, _ := cfg.ContractualEntity(p.ContractualEntity)
	if countries == nil {
		countries = []string{}
	}
	docs := make([]sellerapi.SellerTermsDocument, len(p.TermsDocuments))
	for i, d := range p.TermsDocuments {
		docs[i] = sellerapi.SellerTermsDocument{Type: d.Type, Language: sellerapi.SellerTermsDocumentLanguage(d.Language), Url: d.URL}
	}
	a := p.Address
	parent := ""
	if p.ParentSellerID != nil {
		parent = p.ParentSellerID.String()
	}
	c := p.Capabilities
	return sellerapi.SellerProfile{
		Id: p.ID.String(), Name: p.Name, PrettyName: p.PrettyName, LogoUrl: p.LogoURL, Email: p.Email, Currency: p.Currency,
		Address: sellerapi.SellerAddress{
			Line1: &a.Line1, Line2: &a.Line2, PostalCode: &a.PostalCode, City: &a.City, Region: &a.Region, CountryCode: &a.CountryCode,
		},
		ProductReferenceSource: p.ProductReferenceSource, ContractualEntity: entity, BillingCountries: countries,
		TermsAndConditions: docs, ParentSellerId: &parent, PdfReaderAssistantId: &p.PDFReaderAssistantID,
		CapabilityAddCustomProducts: c.AddCustomProducts, CapabilityAnonymizedPricing: c.AnonymizedPricing,
		CapabilityAnonymousEcomOfferCreation: c.AnonymousEcomOfferCreation, CapabilityBundles: c.Bundles,
		CapabilityChatbotId: c.ChatbotID, CapabilityDualPricing: c.DualPricing, CapabilityHideBuyNow: c.HideBuyNow,
		CapabilityInternationalShipment: c.InternationalShipment, UpdatedAt: p.UpdatedAt,
	}
}
