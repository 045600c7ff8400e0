// Package webhook is Tenure's webhook domain: event types, endpoint
// registration (URL policy, encrypted signing secrets, rotation), the
// outbox that records events, the dispatcher and relay that start their
// deliveries, the retry schedule, signing, and the sender that performs one
// HTTP attempt. The delivery workflow is workflows/delivery, its
// activities activities.Deliveries; the dispatcher starts delivery
// workflows through a DeliveryStarter, which workflows/delivery provides.
//
// # Emitting events (the outbox)
//
// An event is recorded in the same database transaction as the change that
// causes it, then dispatched after the commit:
//
//	var eventID uuid.UUID
//	err := store.InTx(ctx, func(q *dbgen.Queries) error {
//		// ... write the offer's new status with q ...
//		var err error
//		eventID, err = webhook.Record(ctx, q, webhook.NewEvent{
//			ID:       webhook.EventID("offer/" + offerID.String() + "/accepted"),
//			SellerID: sellerID,
//			Type:     webhook.OfferAccepted,
//			ObjectID: offerID,
//			Payload:  offerJSON, // exactly what GET /v1/offers/{id} returns
//		})
//		return err
//	})
//	if err != nil {
//		return err
//	}
//	if err := dispatcher.Dispatch(ctx, eventID); err != nil {
//		logger.Warn("webhook dispatch deferred to the relay", "error", err)
//	}
//
// Record is idempotent on the event id: give it a deterministic id
// (EventID of the workflow id and transition) so a retried activity does
// not record a second event. Dispatch starts one delivery workflow
// (webhook/{event_id}/{endpoint_id}, task queue webhooks) per endpoint
// subscribed to the event's type at dispatch time, treats an existing
// workflow as success and marks the event dispatched; calling it twice
// delivers once. If the process dies between the commit and Dispatch, or
// Dispatch fails, the Relay every worker runs finds the event (undispatched
// and older than webhooks.relay_grace) and dispatches it, so no committed
// event is lost.
//
// # Delivery
//
// Each attempt sends a POST with the event's payload and the Standard
// Webhooks headers (webhook-id = event id on every attempt, timestamp,
// signature with `v1,` values; the same under svix-), webhook-event-type,
// Content-Type application/json and UserAgent. Only a 2xx answer within the
// attempt timeout delivers; redirects are not followed; 410 disables the
// endpoint and cancels its pending deliveries; anything else is retried
// after the next delay of the schedule, until the attempts run out and the
// delivery is marked failed.
package webhook
