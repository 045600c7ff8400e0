package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// profileOutput is a seller profile as `--json` prints it.
type profileOutput struct {
	SellerID               string                  `json:"seller_id"`
	Name                   string                  `json:"name"`
	PrettyName             string                  `json:"pretty_name"`
	LogoURL                string                  `json:"logo_url"`
	Email                  string                  `json:"email"`
	Currency               string                  `json:"currency"`
	Address                sellers.Address         `json:"address"`
	ProductReferenceSource string                  `json:"product_reference_source"`
	Capabilities           sellers.Capabilities    `json:"capabilities"`
	ContractualEntity      string                  `json:"contractual_entity"`
	BillingCountries       []string                `json:"billing_countries"`
	TermsDocuments         []sellers.TermsDocument `json:"terms_and_conditions"`
	ParentSellerID         *uuid.UUID              `json:"parent_seller_id"`
	PDFReaderAssistantID   string                  `json:"pdf_reader_assistant_id"`
	PaymentMethodRequired  bool                    `json:"payment_method_required"`
}

func sellersShowCommand(file func() string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show SELLER_ID",
		Short: "Show a seller's profile: names, logo, contact, capabilities, contractual entity, terms documents",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProfile(cmd, file, args[0], asJSON, func(c *connections, id uuid.UUID) (sellers.Profile, error) {
				return sellers.Load(cmd.Context(), c.store.Queries, id)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// capabilityNames are the capabilities --capability sets.
func capabilityNames() string {
	var c sellers.Capabilities
	names := slices.Sorted(maps.Keys(c.Switches()))
	return strings.Join(names, ", ")
}

func sellersSetProfileCommand(file func() string) *cobra.Command {
	var asJSON bool
	var capabilities []string
	text := map[string]*string{}
	cmd := &cobra.Command{
		Use:   "set-profile SELLER_ID",
		Short: "Change a seller's profile; only the flags given change",
		Long: "Change a seller's profile; only the flags given change. The operator sets what the seller cannot\n" +
			"through the Seller API: the legal name, capabilities and the contractual entity. Capabilities are\n" +
			"set with --capability NAME=true|false, NAME one of " + capabilityNames() + ".",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProfile(cmd, file, args[0], asJSON, func(c *connections, id uuid.UUID) (sellers.Profile, error) {
				return sellers.Update(cmd.Context(), c.store, id, func(p *sellers.Profile) error {
					if err := applyProfileFlags(cmd, p, text, capabilities); err != nil {
						return err
					}
					return refused(p.Refused(c.cfg.Sellers.ContractualEntities, c.cfg.FollowedURLs()))
				})
			})
		},
	}
	for _, name := range []string{"name", "pretty-name", "logo-url", "email", "address-line1", "address-line2",
		"address-postal-code", "address-city", "address-region", "address-country", "product-reference-source",
		"contractual-entity", "chatbot-id", "pdf-reader-assistant-id", "parent-seller-id"} {
		text[name] = cmd.Flags().String(name, "", "set "+strings.ReplaceAll(name, "-", " ")+" (empty clears it)")
	}
	cmd.Flags().StringArrayVar(&capabilities, "capability", nil, "NAME=true|false (repeatable)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// applyProfileFlags changes the fields whose flags were given.
func applyProfileFlags(cmd *cobra.Command, p *sellers.Profile, text map[string]*string, capabilities []string) error {
	fields := map[string]*string{
		"name": &p.Name, "pretty-name": &p.PrettyName, "logo-url": &p.LogoURL, "email": &p.Email,
		"address-line1": &p.Address.Line1, "address-line2": &p.Address.Line2, "address-postal-code": &p.Address.PostalCode,
		"address-city": &p.Address.City, "address-region": &p.Address.Region, "address-country": &p.Address.CountryCode,
		"product-reference-source": &p.ProductReferenceSource, "contractual-entity": &p.ContractualEntity,
		"chatbot-id": &p.Capabilities.ChatbotID, "pdf-reader-assistant-id": &p.PDFReaderAssistantID,
	}
	for name, field := range fields {
		if cmd.Flags().Changed(name) {
			*field = *text[name]
		}
	}
	if cmd.Flags().Changed("parent-seller-id") {
		p.ParentSellerID = nil
		if raw := *text["parent-seller-id"]; raw != "" {
			parent, err := sellerIDArg(raw)
			if err != nil {
				return err
			}
			if parent == p.ID {
				return fmt.Errorf("--parent-seller-id: a seller cannot be its own parent")
			}
			p.ParentSellerID = &parent
		}
	}
	switches := p.Capabilities.Switches()
	for _, setting := range capabilities {
		name, value, _ := strings.Cut(setting, "=")
		on, err := strconv.ParseBool(value)
		field, known := switches[name]
		if !known || err != nil {
			return fmt.Errorf("--capability %q: want NAME=true or NAME=false, NAME one of %s", setting, capabilityNames())
		}
		*field = on
	}
	return nil
}

func sellersSetTermsCommand(file func() string) *cobra.Command {
	var kind, language, link string
	var remove, asJSON bool
	cmd := &cobra.Command{
		Use:   "set-terms SELLER_ID --type TYPE --language en|de|nl (--url URL | --remove)",
		Short: "Set or remove one of a seller's terms and conditions documents",
		Long: "Set or remove one of a seller's terms and conditions documents. A document of a type the\n" +
			"deployment has (terms.<language>.<type>) replaces the deployment's for this seller's offers;\n" +
			"sellers themselves can only add documents of other types.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if remove == (link != "") {
				return fmt.Errorf("give either --url or --remove")
			}
			return runProfile(cmd, file, args[0], asJSON, func(c *connections, id uuid.UUID) (sellers.Profile, error) {
				return sellers.Update(cmd.Context(), c.store, id, func(p *sellers.Profile) error {
					p.TermsDocuments = slices.DeleteFunc(p.TermsDocuments, func(d sellers.TermsDocument) bool {
						return d.Type == kind && d.Language == language
					})
					if !remove {
						p.TermsDocuments = append(p.TermsDocuments, sellers.TermsDocument{Type: kind, Language: language, URL: link})
					}
					return refused(p.Refused(c.cfg.Sellers.ContractualEntities, c.cfg.FollowedURLs()))
				})
			})
		},
	}
	cmd.Flags().StringVar(&kind, "type", "", "document type, e.g. general_terms (required)")
	cmd.Flags().StringVar(&language, "language", "", "en, de or nl (required)")
	cmd.Flags().StringVar(&link, "url", "", "where the document is")
	cmd.Flags().BoolVar(&remove, "remove", false, "remove the seller's document of this type and language")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("type")
	_ = cmd.MarkFlagRequired("language")
	return cmd
}

// runProfile runs a profile command on the seller named by rawID: do reads
// or changes its profile, which is then printed.
func runProfile(cmd *cobra.Command, file func() string, rawID string, asJSON bool, do func(c *connections, id uuid.UUID) (sellers.Profile, error)) error {
	id, err := sellerIDArg(rawID)
	if err != nil {
		return err
	}
	c, err := connect(cmd.Context(), file(), config.NeedDatabase)
	if err != nil {
		return err
	}
	defer c.close()
	p, err := do(c, id)
	if db.IsNotFound(err) {
		return fmt.Errorf("no seller %s", id)
	}
	if err != nil {
		return err
	}
	return printProfile(cmd.OutOrStdout(), asJSON, p, c.cfg.Sellers)
}

func sellerIDArg(raw string) (uuid.UUID, error) {
	id, err := recordid.Parse(raw)
	if err != nil {
		return uuid.Nil, fmt.Errorf("%q is not a seller id (a UUID, as `tenure sellers list` shows)", raw)
	}
	return id, nil
}

func printProfile(w io.Writer, asJSON bool, p sellers.Profile, cfg config.SellersConfig) error {
	entity, countries, _ := cfg.ContractualEntity(p.ContractualEntity)
	out := profileOutput{
		SellerID: p.ID.String(), Name: p.Name, PrettyName: p.PrettyName, LogoURL: p.LogoURL, Email: p.Email,
		Currency: p.Currency, Address: p.Address, ProductReferenceSource: p.ProductReferenceSource,
		Capabilities: p.Capabilities, ContractualEntity: entity, BillingCountries: countries,
		TermsDocuments: p.TermsDocuments, ParentSellerID: p.ParentSellerID, PDFReaderAssistantID: p.PDFReaderAssistantID,
		PaymentMethodRequired: p.PaymentMethodRequired,
	}
	if asJSON {
		return json.NewEncoder(w).Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	a := p.Address
	rows := [][2]string{
		{"seller id", out.SellerID}, {"name", p.Name}, {"pretty name", p.PrettyName}, {"logo url", p.LogoURL},
		{"e-mail", p.Email}, {"currency", p.Currency},
		{"address", strings.Join(slices.DeleteFunc([]string{a.Line1, a.Line2, strings.TrimSpace(a.PostalCode + " " + a.City), a.Region, a.CountryCode},
			func(s string) bool { return s == "" }), ", ")},
		{"reference source", p.ProductReferenceSource},
		{"contractual entity", entity + " (" + strings.Join(countries, ",") + ")"},
		{"capabilities", enabledCapabilities(p.Capabilities)},
		{"payment method required", onOff(p.PaymentMethodRequired)},
	}
	for _, d := range p.TermsDocuments {
		rows = append(rows, [2]string{"terms " + d.Language + " " + d.Type, d.URL})
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	return tw.Flush()
}

// onOff is a setting as the commands take it.
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func enabledCapabilities(c sellers.Capabilities) string {
	var on []string
	for name, enabled := range c.Switches() {
		if *enabled {
			on = append(on, name)
		}
	}
	slices.Sort(on)
	if c.ChatbotID != "" {
		on = append(on, "chatbot "+c.ChatbotID)
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ", ")
}

// refused words a refused profile for the command line.
func refused(err error) error {
	if err != nil {
		return fmt.Errorf("refused: %w", err)
	}
	return nil
}
