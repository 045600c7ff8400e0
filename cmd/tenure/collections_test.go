package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocloud.dev/blob/fileblob"

	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// `tenure collections files` lists a run's file and `files show` prints
// it; `returns import` applies a camt.054 file once (a contract without a
// running workflow has its notice applied directly), a second import
// changes nothing; bad input is named.
func TestCollectionsCommands(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	dataDir := t.TempDir()
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL, "TENURE_DATA_DIR="+dataDir,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t), "TENURE_TEMPORAL_NAMESPACE="+testenv.Namespace(t))
	f := contracttest.New(t, store, nil)
	ring := collectiontest.Ring(t)
	day, err := civil.ParseDate("2026-03-02")
	if err != nil {
		t.Fatal(err)
	}
	collectiontest.Running(t, f, ring, "ref-cli", day)
	runner := collectiontest.Runner(t, store, ring)
	// The command reads the blob store of the data directory.
	if runner.Bucket, err = fileblob.OpenBucket(filepath.Join(dataDir, "blobs"), &fileblob.Options{CreateDir: true}); err != nil {
		t.Fatal(err)
	}
	run, err := runner.Submit(t.Context(), day)
	if err != nil {
		t.Fatal(err)
	}
	files, err := runner.WriteFiles(t.Context(), run.ID)
	if err != nil || len(files) != 1 {
		t.Fatalf("files: %d, %v", len(files), err)
	}

	listed := string(tenureCLI(t, env, "collections", "files"))
	for _, want := range []string{files[0].ID.String(), files[0].MessageID, "2026-03-03", "CORE", "[FRST]"} {
		if !strings.Contains(listed, want) {
			t.Errorf("the list lacks %s:\n%s", want, listed)
		}
	}
	shown := string(tenureCLI(t, env, "collections", "files", "show", files[0].ID.String()))
	if !strings.HasPrefix(shown, "<?xml") || !strings.Contains(shown, "<MsgId>"+files[0].MessageID+"</MsgId>") {
		t.Errorf("files show printed:\n%.300s", shown)
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	xmllint.Validate(t, filepath.Join(root, "domain", "sepa", "testdata", "pain.008.001.08.xsd"), []byte(shown))

	var notices []collectiontest.Notice
	rows, err := store.Pool.Query(t.Context(), `SELECT end_to_end_id, amount FROM collection_items ORDER BY end_to_end_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n collectiontest.Notice
		if err := rows.Scan(&n.EndToEndID, &n.Cents); err != nil {
			t.Fatal(err)
		}
		notices = append(notices, n)
	}
	if len(notices) != 2 {
		t.Fatalf("%d collections, want the installments of 1 February and 1 March", len(notices))
	}
	notices[1].Reason = "AM04"
	camt := filepath.Join(t.TempDir(), "camt054.xml")
	doc := new(strings.Builder)
	if _, err := collectiontest.Notification(notices...).WriteTo(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(camt, []byte(doc.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := string(tenureCLI(t, env, "collections", "returns", "import", camt)); !strings.Contains(got, "1 paid, 1 returned, 0 unchanged") {
		t.Errorf("the import: %s", got)
	}
	if got := string(tenureCLI(t, env, "collections", "returns", "import", camt)); !strings.Contains(got, "0 paid, 0 returned, 2 unchanged") {
		t.Errorf("the second import: %s", got)
	}
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}

	for args, want := range map[string]string{
		"collections run --date tomorrow":         `--date must be a day YYYY-MM-DD, got "tomorrow"`,
		"collections files show nope":             `"nope" is not a collection file's id`,
		"collections files --limit 0":             "--limit must be between 1 and 1000, got 0",
		"collections returns import /no/such.xml": "no such file",
	} {
		out, err := tenureCLIFails(t, env, strings.Fields(args)...)
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("tenure %s: %v %s, want %q", args, err, out, want)
		}
	}
}
