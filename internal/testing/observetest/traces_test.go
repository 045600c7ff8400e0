package observetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/delivery"
)

// TestOneTraceFromRequestToWebhook records every span in memory and checks
// that a POST /v1/offers is one trace from the Fiber handler through the
// Temporal client call, the workflow's update and its activity down to the
// SQL statement, and that the mark_offer_accepted simulation is one trace
// from its handler down to the webhook attempt that announced the change,
// whose request to the receiver on 127.0.0.1 carried that trace.
func TestOneTraceFromRequestToWebhook(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	t.Cleanup(func() { _ = provider.Shutdown(t.Context()) })
	telemetry.UseTracerProvider(provider)
	s := newStack(t, true)

	id, err := s.client.CreateOffer(t.Context(), sellerclient.OfferPayload("traced-1", s.product, 1))
	if err != nil {
		t.Fatal(err)
	}
	creation := awaitTrace(t, recorder, "createOffer", "CreateOffer")
	creation.requireChain(t, "createOffer", "UpdateWithStartWorkflow:create", "HandleUpdate:create", "RunActivity:", "CreateOffer")

	if err := s.client.Simulate(t.Context(), "mark_offer_for_review", id); err != nil {
		t.Fatal(err)
	}
	if err := s.client.Simulate(t.Context(), "mark_offer_accepted", id); err != nil {
		t.Fatal(err)
	}
	acceptance := awaitTrace(t, recorder, "runScenarioSimulation", "CreateOrder", "webhook attempt", "RunWorkflow:Deliver")
	acceptance.requireChain(t, "runScenarioSimulation", "UpdateWorkflow:", "HandleUpdate:accept", "RunActivity:", "CreateOrder")
	acceptance.requireChain(t, "runScenarioSimulation", "UpdateWorkflow:", "HandleUpdate:accept", "RunActivity:",
		"StartWorkflow:", "RunWorkflow:", "RunActivity:", "webhook attempt")

	traceparent := fmt.Sprintf("00-%s-", acceptance.id)
	carried := slices.ContainsFunc(s.receiver.Requests(), func(r testenv.Received) bool {
		return strings.HasPrefix(r.Header.Get("traceparent"), traceparent)
	})
	if !carried {
		t.Errorf("no webhook request carried the acceptance's trace %s", acceptance.id)
	}
}

// recordedTrace is the ended spans of one trace, and its root.
type recordedTrace struct {
	id    trace.TraceID
	root  sdktrace.ReadOnlySpan
	spans map[trace.SpanID]sdktrace.ReadOnlySpan
}

// awaitTrace waits until a trace whose root is a span named root has
// ended spans with each of the names given, and returns it.
func awaitTrace(t *testing.T, recorder *tracetest.SpanRecorder, root string, names ...string) recordedTrace {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ended := recorder.Ended()
		for _, r := range ended {
			if r.Name() != root || r.Parent().IsValid() {
				continue
			}
			tr := recordedTrace{id: r.SpanContext().TraceID(), root: r, spans: map[trace.SpanID]sdktrace.ReadOnlySpan{}}
			for _, s := range ended {
				if s.SpanContext().TraceID() == tr.id {
					tr.spans[s.SpanContext().SpanID()] = s
				}
			}
			if tr.hasAll(names) {
				return tr
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	var seen []string
	for _, s := range recorder.Ended() {
		seen = append(seen, s.Name())
	}
	t.Fatalf("no trace rooted at %s with spans %v within 30 s; spans ended: %v", root, names, seen)
	return recordedTrace{}
}

func (tr recordedTrace) hasAll(names []string) bool {
	for _, name := range names {
		found := false
		for _, s := range tr.spans {
			found = found || s.Name() == name
		}
		if !found {
			return false
		}
	}
	return true
}

// requireChain checks that a span named like the last of chain descends,
// parent by parent through ended spans of the trace, from the root, passing
// spans whose names start with the others in order.
func (tr recordedTrace) requireChain(t *testing.T, chain ...string) {
	t.Helper()
	want := chain[len(chain)-1]
	for _, leaf := range tr.spans {
		if leaf.Name() != want {
			continue
		}
		var path []string
		span := leaf
		for {
			path = append([]string{span.Name()}, path...)
			parent, ok := tr.spans[span.Parent().SpanID()]
			if !ok {
				break
			}
			span = parent
		}
		if span.SpanContext().SpanID() == tr.root.SpanContext().SpanID() && inOrder(path, chain) {
			return
		}
		t.Logf("%s descends through %v", want, path)
	}
	t.Errorf("trace %s: no %s reached from the root through %v", tr.id, want, chain)
}

// inOrder reports whether path passes spans starting with each prefix, in
// order.
func inOrder(path, prefixes []string) bool {
	i := 0
	for _, name := range path {
		if i < len(prefixes) && strings.HasPrefix(name, prefixes[i]) {
			i++
		}
	}
	return i == len(prefixes)
}

// TestRelayedDeliveryContinuesTheTrace records an event inside a traced
// change and lets the relay dispatch it, as after a crash between the
// commit and the dispatch: the delivery's webhook attempt belongs to the
// change's trace, through the trace context stored with the event.
func TestRelayedDeliveryContinuesTheTrace(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	t.Cleanup(func() { _ = provider.Shutdown(t.Context()) })
	telemetry.UseTracerProvider(provider)
	s := newStack(t, true)

	ctx, span := provider.Tracer("observetest").Start(t.Context(), "recording change")
	err := s.store.InTx(ctx, func(q *dbgen.Queries) error {
		_, err := webhook.Record(ctx, q, webhook.NewEvent{
			SellerID: s.sellerID, Type: webhook.OfferAccepted, ObjectID: uuid.New(), Payload: []byte(`{"relayed":true}`),
		})
		return err
	})
	span.End()
	if err != nil {
		t.Fatal(err)
	}
	relay := webhook.NewRelay(delivery.NewDispatcher(s.store, s.temporal, s.cfg.Webhooks), time.Second, 0, testenv.AppLogger())
	if n, err := relay.RunOnce(context.Background()); err != nil || n != 1 {
		t.Fatalf("the relay dispatched %d events: %v", n, err)
	}
	relayed := awaitTrace(t, recorder, "recording change", "webhook attempt", "RunWorkflow:Deliver")
	relayed.requireChain(t, "recording change", "StartWorkflow:", "RunWorkflow:Deliver", "RunActivity:", "webhook attempt")
}
