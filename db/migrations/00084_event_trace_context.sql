-- +goose Up
-- The W3C traceparent of the change that recorded an event, when it was
-- traced: a delivery the relay starts (its recorder stopped before
-- dispatching) continues the trace of the change it announces.
ALTER TABLE events ADD COLUMN trace_parent text;

-- +goose Down
ALTER TABLE events DROP COLUMN trace_parent;
