package workflows

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
)

// names is a registry that keeps the names registered with it.
type names struct {
	worker.Registry
	workflows, activities []string
}

func (n *names) RegisterWorkflow(w any) {
	n.workflows = append(n.workflows, workflowName(w))
}

func (n *names) RegisterWorkflowWithOptions(w any, _ workflow.RegisterOptions) {
	n.workflows = append(n.workflows, workflowName(w))
}

func (n *names) RegisterActivityWithOptions(_ any, o activity.RegisterOptions) {
	n.activities = append(n.activities, o.Name)
}

// workflowName is the type name the SDK gives a workflow function: its
// own name.
func workflowName(w any) string {
	full := runtime.FuncForPC(reflect.ValueOf(w).Pointer()).Name()
	return full[strings.LastIndex(full, ".")+1:]
}

// Every queue's worker registers the workflow types and activity names
// that recorded histories and running workflows carry: renaming a method
// or a function must not rename what Temporal knows it by.
func TestRegisteredNames(t *testing.T) {
	want := map[string][2][]string{
		"sandbox": {{"SeedSeller"}, {"sandbox.SeedShippingMethods", "sandbox.SeedCatalog", "sandbox.SeedOffers"}},
		"catalog": {{"ImportProducts", "ImportCSV"}, {"catalog.RunProductImport", "catalog.FailProductImport",
			"catalog.ProcessCSVImport", "catalog.SetCSVImportStatus", "catalog.ExpireCSVUpload", "catalog.WriteCSVImportErrors", "catalog.IndexCSVImportSearch"}},
		"offers": {{"Offer"}, {"offer.Create", "offer.Transition", "offer.Accept", "offer.Edit", "offer.StartOffer",
			"offer.StartOrder", "offer.ReviewRisk", "offer.Review", "offer.ChangeCheckout", "offer.Submit"}},
		"orders": {{"Order"}, {"order.Transition", "order.Confirm", "order.Ship", "order.StartContracts", "order.Contracts"}},
		"contracts": {{"Contract"}, {"contract.Open", "contract.Start", "contract.FallDue", "contract.GiveNotice", "contract.Extend",
			"contract.Grow", "contract.RecordReturn", "contract.BuyOut", "contract.QuoteTermination", "contract.Terminate",
			"contract.Transition", "contract.SetClock", "contract.SettleCollection", "contract.Remind", "contract.WriteOff", "contract.TerminateAndClaim"}},
		"collections": {{"Run", "Daily"}, {"collections.SubmitCollections", "collections.WriteCollectionFiles", "payouts.RunPayouts"}},
		"webhooks":    {{"Deliver"}, {"webhook.SendAttempt", "webhook.RecordAttempt"}},
	}
	acts := &activities.Activities{}
	for _, q := range queues(acts) {
		var got names
		q.register(&got)
		w, ok := want[q.name]
		if !ok {
			t.Errorf("queue %s is not expected", q.name)
			continue
		}
		if !slices.Equal(got.workflows, w[0]) || !slices.Equal(got.activities, w[1]) {
			t.Errorf("queue %s registers %v and %v, want %v and %v", q.name, got.workflows, got.activities, w[0], w[1])
		}
		delete(want, q.name)
	}
	if len(want) > 0 {
		t.Errorf("queues without a worker: %v", want)
	}
}
