package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/offer"
)

func offersCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "offers", Short: "Operate on offers"}
	cmd.AddCommand(offersDecideCommand(file))
	return cmd
}

func offersDecideCommand(file func() string) *cobra.Command {
	var accept, decline bool
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "decide OFFER_ID --accept|--decline",
		Short: "Decide an offer under review (production: the risk rules left it to an operator)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if accept == decline {
				return errors.New("give exactly one of --accept and --decline")
			}
			id, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("%q is not an offer id", args[0])
			}
			ctx := cmd.Context()
			c, err := connect(ctx, file(), config.NeedDatabase|config.NeedTemporal)
			if err != nil {
				return err
			}
			defer c.close()
			row, err := c.store.GetOfferForOperator(ctx, id)
			if db.IsNotFound(err) {
				return fmt.Errorf("no offer %s", id)
			}
			if err != nil {
				return err
			}
			service := &services.Offers{Store: c.store, Temporal: c.temporal}
			trigger := offer.Accept
			if decline {
				trigger = offer.Decline
			}
			w := workflowWait{cfg: c.cfg, temporal: c.temporal, taskQueue: offer.TaskQueue, workflowID: offer.WorkflowID(id), limit: wait}
			bounded, cancel := w.context(ctx)
			defer cancel()
			var refused *refusal.Error
			err = service.Change(bounded, row.SellerID, id, trigger)
			switch {
			case errors.As(err, &refused):
				return errors.New(refused.Message)
			case errors.Is(err, entity.ErrUnavailable):
				// The workflow may still decide the offer once a worker
				// polls: the operator reads it before deciding again.
				return fmt.Errorf("%w\nThe decision may still be made: read the offer before deciding again", w.gaveUp(ctx))
			case err != nil:
				return err
			}
			decided, err := service.Get(ctx, row.SellerID, id)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "offer %s is %s\n", id, decided.Row.Status)
			return err
		},
	}
	cmd.Flags().BoolVar(&accept, "accept", false, "accept the offer (its order is created)")
	cmd.Flags().BoolVar(&decline, "decline", false, "decline the offer")
	cmd.Flags().DurationVar(&wait, "wait", entity.UpdateTimeout, "how long to wait for the offer's workflow before giving up")
	return cmd
}
