package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/foundation/recordid"
)

func contractsCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "contracts", Short: "List and show rental contracts with their schedules; decide on defaulted ones"}
	cmd.AddCommand(contractsListCommand(file), contractsShowCommand(file), contractsWriteOffCommand(file), contractsTerminateAndClaimCommand(file))
	return cmd
}

func contractsListCommand(file func() string) *cobra.Command {
	var seller, status, order, endingBefore string
	var limit, page int64
	cmd := &cobra.Command{
		Use:   "list [--seller ID] [--status S] [--order ID] [--ending-before YYYY-MM-DD] [--limit N] [--page P]",
		Short: "List contracts of every seller or one, oldest first, with the filters of GET /v1/contracts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, sellerID, err := contractListFilter(seller, status, order, endingBefore, limit, page)
			if err != nil {
				return err
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			var found []contracts.Stored
			var total int64
			if sellerID != nil {
				found, total, err = contracts.List(cmd.Context(), c.store.Queries, *sellerID, f)
			} else {
				found, total, err = contracts.ListEverySeller(cmd.Context(), c.store.Queries, f)
			}
			if err != nil {
				return err
			}
			return writeContractList(cmd.OutOrStdout(), found, total)
		},
	}
	cmd.Flags().StringVar(&seller, "seller", "", "only this seller's contracts")
	cmd.Flags().StringVar(&status, "status", "", "only contracts in this status ("+statusWords()+")")
	cmd.Flags().StringVar(&order, "order", "", "only the contracts of this order")
	cmd.Flags().StringVar(&endingBefore, "ending-before", "", "only contracts whose current term ends before this day")
	cmd.Flags().Int64Var(&limit, "limit", 20, fmt.Sprintf("contracts a page, 1 to %d", listing.MaxLimit))
	cmd.Flags().Int64Var(&page, "page", 0, "the page, from 0")
	return cmd
}

// contractListFilter reads the list's flags into the filter the Seller
// API's list uses, naming the flag a bad value came in.
func contractListFilter(seller, status, order, endingBefore string, limit, page int64) (contracts.ListFilter, *uuid.UUID, error) {
	f := contracts.ListFilter{Limit: limit, Page: page}
	if limit < 1 || limit > listing.MaxLimit {
		return f, nil, fmt.Errorf("--limit must be between 1 and %d, got %d", listing.MaxLimit, limit)
	}
	if page < 0 || page > listing.MaxPage {
		return f, nil, fmt.Errorf("--page must be between 0 and %d, got %d", listing.MaxPage, page)
	}
	var sellerID *uuid.UUID
	if seller != "" {
		id, err := recordid.Parse(seller)
		if err != nil {
			return f, nil, fmt.Errorf("--seller %q is not a seller id", seller)
		}
		sellerID = &id
	}
	if order != "" {
		id, err := recordid.Parse(order)
		if err != nil {
			return f, nil, fmt.Errorf("--order %q is not an order id", order)
		}
		f.OrderID = &id
	}
	if status != "" {
		s := contracts.Status(status)
		if !s.Known() {
			return f, nil, fmt.Errorf("--status must be one of %s, got %q", statusWords(), status)
		}
		f.Status = &s
	}
	if endingBefore != "" {
		day, err := civil.ParseDate(endingBefore)
		if err != nil {
			return f, nil, fmt.Errorf("--ending-before %q is not a day (YYYY-MM-DD)", endingBefore)
		}
		f.EndingBefore = &day
	}
	return f, sellerID, nil
}

// statusWords lists the contract statuses for flag help and errors.
func statusWords() string {
	words := make([]string, len(contracts.Statuses))
	for i, s := range contracts.Statuses {
		words[i] = string(s)
	}
	return strings.Join(words, ", ")
}

func writeContractList(w io.Writer, found []contracts.Stored, total int64) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONTRACT\tSELLER\tREFERENCE\tSTATUS\tPRODUCT\tMONTHS\tMONTHLY GROSS\tSTART\tEND")
	for _, s := range found {
		start, end := "-", "-"
		if s.Schedule != nil {
			start = s.Schedule.Term.Start.String()
		}
		if s.EndDate != nil {
			end = s.EndDate.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s %s\t%s\t%s\n", s.ID, s.SellerID, s.SellerOfferReference, s.Status,
			s.Product.Title, s.Rental.Months, hundredths(s.Rental.Monthly.Gross), s.Rental.Monthly.Currency, start, end)
	}
	fmt.Fprintf(tw, "%d of %d contracts\n", len(found), total)
	return tw.Flush()
}

func contractsShowCommand(file func() string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show CONTRACT_ID [--json]",
		Short: "Show a contract: its assets, term, schedule, end-of-term options, extensions, charges and outcome",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("%q is not a contract id", args[0])
			}
			ctx := cmd.Context()
			c, err := connect(ctx, file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			sellerID, err := c.store.GetContractSeller(ctx, id)
			if db.IsNotFound(err) {
				return fmt.Errorf("no contract %s", id)
			}
			if err != nil {
				return err
			}
			s, err := contracts.Load(ctx, c.store.Queries, sellerID, id)
			if err != nil {
				return err
			}
			if asJSON {
				// The shape of GET /v1/contracts/{id} and the contract events.
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			return writeContract(cmd.OutOrStdout(), s)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the contract as the Seller API shows it")
	return cmd
}

// writeContract prints a contract for an operator: everything the Seller
// API shows, plus the seller and the sandbox clock's offset.
func writeContract(w io.Writer, s contracts.Stored) error {
	money := func(amount int64) string { return hundredths(amount) + " " + s.Rental.Monthly.Currency }
	fmt.Fprintf(w, "contract %s is %s\n", s.ID, s.Status)
	fmt.Fprintf(w, "seller %s, order %s (line %d), offer %s, reference %s\n", s.SellerID, s.OrderID, s.OrderLine, s.OfferID, s.SellerOfferReference)
	fmt.Fprintf(w, "product %q x%d, %d months at %s net / %s gross a month, purchase price %s net\n",
		s.Product.Title, s.Product.Quantity, s.Rental.Months, money(s.Rental.Monthly.Net), money(s.Rental.Monthly.Gross), money(s.Rental.PurchaseNet))
	if s.ClockOffset > 0 {
		fmt.Fprintf(w, "sandbox clock %s ahead of real time\n", s.ClockOffset.Round(time.Hour))
	}
	for _, a := range s.Assets {
		serial, back := "-", ""
		if a.SerialNumber != nil {
			serial = *a.SerialNumber
		}
		if a.Return != nil {
			back = ", back on " + a.Return.ReturnedOn.String()
		}
		fmt.Fprintf(w, "asset %s %q serial %s: %s%s\n", a.ID, a.Title, serial, a.Status, back)
	}
	if s.Schedule == nil {
		fmt.Fprintln(w, "the term has not started: the contract waits for the shipment of its assets")
	} else {
		fmt.Fprintf(w, "term %s to %s, notice on %s\n", s.Schedule.Term.Start, s.EndDate, s.NoticeDate)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "#\tDUE\tFROM\tTO\tNET\tGROSS\tSTATUS")
		for _, i := range s.Schedule.Installments {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", i.Number, i.DueDate, i.Period.From, i.Period.To, hundredths(i.Amount.Net), hundredths(i.Amount.Gross), i.Status)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if e := s.EndOfTerm; e != nil {
		fmt.Fprintf(w, "end of term on %s: return %s, buy-out %s gross, term extension %d months at %s gross a month, or month by month at %s gross\n",
			e.EndDate, money(e.Return.Gross), money(e.BuyOut.Gross), e.TermExtension.Months, money(e.TermExtension.Monthly.Gross), money(e.MonthlyExtension.Monthly.Gross))
	}
	for _, x := range s.Extensions {
		how := "chosen"
		if x.WithoutChoice {
			how = "without a choice"
		}
		fmt.Fprintf(w, "extended on %s (%s): %s\n", x.On, how, x.Mode)
	}
	for _, ch := range s.Charges {
		fmt.Fprintf(w, "charge %s %s: %s gross, due %s\n", ch.ID, ch.Kind, money(ch.Amount.Gross), ch.DueDate)
	}
	if o := s.Outcome; o != nil {
		_, err := fmt.Fprintf(w, "ended as %s on %s\n", o.Status, o.EndedOn)
		return err
	}
	return nil
}
