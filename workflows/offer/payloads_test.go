package offer

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/tenurehq/tenure/domain/offers"
)

// The drafts of recorded create and edit updates decode into the current
// draft with every value kept: encoded again, the document is the
// recorded one. Those recorded before Tenure had its own documents carry
// the Seller API's offer (version 0), whose fields the row owns now are
// left out (and an absent metadata comes back as null).
func TestRecordedDraftsDecode(t *testing.T) {
	files, err := filepath.Glob("testdata/histories/*.json")
	if err != nil {
		t.Fatal(err)
	}
	drafts := 0
	for _, f := range files {
		drafts += recordedDrafts(t, f)
	}
	if drafts < len(files) {
		t.Errorf("%d drafts in %d histories", drafts, len(files))
	}
}

// recordedDrafts checks the drafts of one history and counts them.
func recordedDrafts(t *testing.T, path string) int {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	history, err := client.HistoryFromJSON(file, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, ev := range history.Events {
		if ev.EventType != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED {
			continue
		}
		req := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest()
		if name := req.GetInput().GetName(); name != Create.Update && name != Edit.Update {
			continue
		}
		payload := req.GetInput().GetArgs().GetPayloads()[0]
		var recorded CreateRequest // EditRequest has the same shape
		if err := converter.GetDefaultDataConverter().FromPayload(payload, &recorded); err != nil {
			t.Fatalf("%s: the recorded update does not decode: %v", path, err)
		}
		var old struct {
			Draft struct{ Document json.RawMessage }
		}
		if err := json.Unmarshal(payload.GetData(), &old); err != nil {
			t.Fatal(err)
		}
		sameDocument(t, path, old.Draft.Document, recorded.Draft.Document)
		count++
	}
	return count
}

// sameDocument fails unless doc, encoded, holds what raw (a document of
// version 0) held.
func sameDocument(t *testing.T, path string, raw json.RawMessage, doc offers.Document) {
	t.Helper()
	var want, got map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if _, versioned := want["version"]; !versioned {
		for _, rowField := range []string{"id", "status", "created_at", "expires_at", "seller_offer_reference", "sales_channel"} {
			delete(want, rowField)
		}
	}
	again, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &got); err != nil {
		t.Fatal(err)
	}
	if _, sent := want["metadata"]; !sent && got["metadata"] == nil {
		delete(got, "metadata")
	}
	if !reflect.DeepEqual(got, want) {
		for k := range maps.Keys(want) {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s: %s: got %v, want %v", path, k, got[k], want[k])
			}
		}
		for k := range maps.Keys(got) {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: %s appeared: %v", path, k, got[k])
			}
		}
	}
}
