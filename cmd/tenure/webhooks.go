package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// webhookEndpointOutput is what `set-webhook --json` prints for scripts.
type webhookEndpointOutput struct {
	EndpointID string   `json:"endpoint_id"`
	SellerID   string   `json:"seller_id"`
	URL        string   `json:"url"`
	Events     []string `json:"events"`
	Secret     string   `json:"secret"`
}

func sellersSetWebhookCommand(file func() string) *cobra.Command {
	var url, events, description string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "set-webhook SELLER_ID",
		Short: "Register a webhook endpoint for a seller and print its signing secret (shown once)",
		Long: "Registers a webhook endpoint exactly as POST /v1/webhook-endpoints does, with the same checks. " +
			"--events takes a comma-separated list of event types; without it the endpoint receives every type.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			sellerID, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("SELLER_ID must be a seller id (a UUID), got %q", args[0])
			}
			c, err := connect(ctx, file(), config.NeedDatabase|config.NeedWebhooks)
			if err != nil {
				return err
			}
			defer c.close()
			store, cfg := c.store, c.cfg
			if _, err := store.GetSeller(ctx, sellerID); db.IsNotFound(err) {
				return fmt.Errorf("no seller with id %s", sellerID)
			} else if err != nil {
				return err
			}
			endpoints, err := webhook.NewEndpoints(store, cfg)
			if err != nil {
				return err
			}
			created, err := endpoints.Create(ctx, sellerID, webhook.EndpointInput{URL: url, Events: splitList(events), Description: description})
			if err != nil {
				return err
			}
			ep := created.Endpoint
			out := webhookEndpointOutput{EndpointID: ep.ID.String(), SellerID: sellerID.String(), URL: ep.Url, Events: ep.Events, Secret: created.Secret}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(out)
			}
			subscribed := "every event type"
			if len(out.Events) > 0 {
				subscribed = strings.Join(out.Events, ", ")
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "endpoint id: %s\nurl:         %s\nevents:      %s\nsecret:      %s\n(the secret is shown only now)\n",
				out.EndpointID, out.URL, subscribed, out.Secret)
			return err
		},
	}
	cmd.Flags().StringVar(&url, "url", "", "the endpoint URL (required)")
	cmd.Flags().StringVar(&events, "events", "", "comma-separated event types, e.g. offer.accepted,order.created (default: all)")
	cmd.Flags().StringVar(&description, "description", "", "a note about the endpoint (at most 500 characters)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {endpoint_id, seller_id, url, events, secret} as JSON")
	_ = cmd.MarkFlagRequired("url")
	return cmd
}

// splitList reads a comma-separated flag; empty means none.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
