package console

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
)

// builderView is the offer builder's own data.
type builderView struct {
	Customer, Agent []fieldView
	Channels        []option
	ValidDays       []option
	ChannelProblem  string
	ValidProblem    string
	Reference       fieldView
	Search          catalogResults
	Lines           []lineInput
	LinesProblem    string
	// Terms are the monthly prices of the basket, one per term the
	// customer may choose; InsteadOf is the price of buying it.
	Terms     []termView
	InsteadOf string
	Priced    bool
}

// fieldView is one input of the form with its value and its problem.
type fieldView struct {
	Name, Label, Type, Value, Problem, Autocomplete string
	Required                                        bool
}

// lineInput is one line of the basket as the form shows it.
type lineInput struct {
	formLine
	Index                                      int
	QuantityProblem, PriceProblem, LineProblem string
}

// termView is the basket's monthly price over one term.
type termView struct {
	Months     int
	Net, Gross string
}

// renderBuilder writes the builder with the form as filled, its basket
// priced, a search's results, and the problems beside their fields.
func (s *server) renderBuilder(c *fiber.Ctx, status int, f offerForm, problems fieldProblems) error {
	_, sellerID, err := portalSeller(c)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "portal_offer.title")
	priced, err := s.priceOffer(c, v, sellerID, f, problems)
	if err != nil {
		return s.failed(c, err)
	}
	data := builderView{ChannelProblem: problems["channel"], ValidProblem: problems["valid_days"], LinesProblem: problems["lines"]}
	if data.Search, err = s.searchCatalog(c, v, sellerID, f.Values["q"]); err != nil {
		return s.failed(c, err)
	}
	for _, fd := range customerFields {
		fv := fieldView{Name: fd.name, Label: v.T("portal_offer.field." + fd.name), Type: fd.kind, Value: f.Values[fd.name],
			Problem: problems[fd.name], Autocomplete: fd.autocomplete, Required: fd.required}
		switch fd.name {
		case "reference":
			data.Reference = fv
		case "agent_name", "agent_phone":
			data.Agent = append(data.Agent, fv)
		default:
			data.Customer = append(data.Customer, fv)
		}
	}
	for _, ch := range portalChannels {
		data.Channels = append(data.Channels, option{Value: ch, Label: v.T("portal_offer.channel." + ch), Selected: f.Values["channel"] == ch})
	}
	for _, d := range validDays {
		value := strconv.Itoa(d)
		data.ValidDays = append(data.ValidDays, option{Value: value, Label: v.Tf("portal_offer.days", d), Selected: f.Values["valid_days"] == value})
	}
	for i, l := range f.Lines {
		data.Lines = append(data.Lines, lineInput{formLine: l, Index: i, QuantityProblem: problems[lineField("quantity", i)],
			PriceProblem: problems[lineField("price", i)], LineProblem: problems["line_"+strconv.Itoa(i)]})
	}
	if priced != nil {
		data.Priced, data.Terms, data.InsteadOf = true, monthlyTerms(v, *priced), net(v, priced.InsteadOf)
	}
	v.Problem = problems[""]
	if status >= 400 && v.Problem == "" {
		v.Problem = v.T("portal_offer.fix_fields")
	}
	v.Data = data
	return s.pages.render(c, status, "portal_offer_new.html", v)
}

// monthlyTerms are the basket's monthly prices as the checkout offers
// them: for each term every line can be rented over, the sum of the
// lines' monthly amounts for their quantities (the offer's
// pricing_overview items' total_rent), shortest term first.
func monthlyTerms(v view, p offers.Pricing) []termView {
	byMonths := map[int][]pricing.Money{}
	for _, it := range p.Items {
		for _, t := range it.TotalRent {
			byMonths[t.Duration] = append(byMonths[t.Duration], t.Monthly)
		}
	}
	var out []termView
	for months, amounts := range byMonths {
		if len(amounts) != len(p.Items) {
			continue
		}
		sum, err := pricing.SumOf(p.Total.Currency, amounts...)
		if err != nil {
			continue
		}
		out = append(out, termView{Months: months, Net: v.Lang.Format(sum.Currency, sum.Net), Gross: v.Lang.Format(sum.Currency, sum.Gross)})
	}
	slices.SortFunc(out, func(a, b termView) int { return a.Months - b.Months })
	return out
}

// renderPart writes one template of a page alone, for htmx to swap in.
func (p *pages) renderPart(c *fiber.Ctx, page, name string, data any) error {
	var out bytes.Buffer
	if err := p.sets[page].ExecuteTemplate(&out, name, data); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Send(out.Bytes())
}
