package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows/collection"
)

func collectionsCommand(file func() string) *cobra.Command {
	cmd := &cobra.Command{Use: "collections", Short: "Run SEPA direct-debit collections, list their pain.008 files and import bank notifications"}
	files := collectionFilesCommand(file)
	files.AddCommand(collectionFileShowCommand(file))
	returns := &cobra.Command{Use: "returns", Short: "Bank notifications of paid and returned collections"}
	returns.AddCommand(collectionReturnsImportCommand(file))
	cmd.AddCommand(collectionRunCommand(file), files, returns)
	return cmd
}

func collectionRunCommand(file func() string) *cobra.Command {
	var date string
	cmd := &cobra.Command{
		Use:   "run --date YYYY-MM-DD",
		Short: "Run (or resume) the collection run of a day and wait for its files; a day already run submits nothing again",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			day, err := civil.ParseDate(date)
			if err != nil {
				return fmt.Errorf("--date must be a day YYYY-MM-DD, got %q", date)
			}
			c, err := connect(cmd.Context(), file(), config.NeedTemporal)
			if err != nil {
				return err
			}
			defer c.close()
			run, err := c.temporal.ExecuteWorkflow(cmd.Context(), client.StartWorkflowOptions{
				ID: collection.WorkflowID(day), TaskQueue: collection.TaskQueue,
			}, collection.Run, collection.Input{RunDate: day})
			if err != nil {
				return err
			}
			var out collection.Result
			if err := run.Get(cmd.Context(), &out); err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "run %s: collection date %s, %d collections submitted now, %d files with %d collections\n",
				day, out.CollectionDate, out.Submitted, out.Files, out.Transactions)
			return err
		},
	}
	cmd.Flags().StringVar(&date, "date", "", "the run's day")
	_ = cmd.MarkFlagRequired("date")
	return cmd
}

func collectionFilesCommand(file func() string) *cobra.Command {
	var limit int32
	cmd := &cobra.Command{
		Use:   "files [--limit N]",
		Short: "List the stored pain.008 files, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 || limit > 1000 {
				return fmt.Errorf("--limit must be between 1 and 1000, got %d", limit)
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			files, err := c.store.ListCollectionFiles(cmd.Context(), limit)
			if err != nil {
				return err
			}
			return writeCollectionFiles(cmd.OutOrStdout(), files)
		},
	}
	cmd.Flags().Int32Var(&limit, "limit", 50, "files to list, 1 to 1000")
	return cmd
}

// writeCollectionFiles prints the files as a table.
func writeCollectionFiles(w io.Writer, files []dbgen.ListCollectionFilesRow) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tMESSAGE ID\tRUN\tCOLLECTION\tENTITY\tSCHEME\tSEQUENCES\tTXS\tSUM (EUR)")
	for _, f := range files {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%v\t%d\t%d.%02d\n", f.ID, f.MessageID, civil.DateOf(f.RunDate), civil.DateOf(f.CollectionDate),
			f.ContractualEntity, f.Scheme, f.SequenceTypes, f.NbOfTxs, f.CtrlSum/100, f.CtrlSum%100)
	}
	return tw.Flush()
}

func collectionFileShowCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Print a stored pain.008 file to standard output",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := recordid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("%q is not a collection file's id (see tenure collections files)", args[0])
			}
			c, err := connect(cmd.Context(), file(), config.NeedDatabase)
			if err != nil {
				return err
			}
			defer c.close()
			service, closeBlobs, err := collectionsService(cmd, c)
			if err != nil {
				return err
			}
			defer closeBlobs()
			_, r, err := service.OpenFile(cmd.Context(), id)
			if errors.Is(err, services.ErrCollectionFileNotFound) {
				return fmt.Errorf("no collection file %s", id)
			}
			if err != nil {
				return err
			}
			defer r.Close()
			_, err = io.Copy(cmd.OutOrStdout(), r)
			return err
		},
	}
}

func collectionReturnsImportCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Apply a camt.054 notification: booked collections become paid, returned ones failed with their reason; a second import changes nothing",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			c, err := connect(cmd.Context(), file(), config.NeedDatabase|config.NeedTemporal)
			if err != nil {
				return err
			}
			defer c.close()
			service, closeBlobs, err := collectionsService(cmd, c)
			if err != nil {
				return err
			}
			defer closeBlobs()
			got, err := service.ImportReturns(cmd.Context(), in)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d paid, %d returned, %d unchanged (imported before), %d not Tenure's collections\n",
				got.Paid, got.Returned, got.Unchanged, got.Unknown)
			return err
		},
	}
}

// collectionsService is the collections' service over the command's
// database, Temporal client (when connected) and the blob store the files
// are kept in; close closes the store.
func collectionsService(cmd *cobra.Command, c *connections) (service *services.Collections, close func() error, err error) {
	bucket, err := csvimport.OpenBucket(cmd.Context(), c.cfg)
	if err != nil {
		return nil, nil, err
	}
	runner := &collections.Runner{Store: c.store, Bucket: bucket, BankDays: c.cfg.Collections.BankDays}
	return &services.Collections{Store: c.store, Temporal: c.temporal, Runner: runner}, bucket.Close, nil
}
