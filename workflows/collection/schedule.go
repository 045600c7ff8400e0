package collection

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/config"
)

// EnsureSchedule creates the Schedule of the daily runs at
// collections.run_at in contracts.timezone, or updates it to that time: a
// worker calls it at start, so changing the setting moves the runs.
func EnsureSchedule(ctx context.Context, c client.Client, cfg *config.Config) error {
	hour, minute, err := cfg.Collections.RunTime()
	if err != nil {
		return fmt.Errorf("collections.run_at: %w", err)
	}
	spec := client.ScheduleSpec{
		Calendars: []client.ScheduleCalendarSpec{{
			Hour:   []client.ScheduleRange{{Start: hour}},
			Minute: []client.ScheduleRange{{Start: minute}},
		}},
		TimeZoneName: cfg.Contracts.Timezone,
	}
	action := &client.ScheduleWorkflowAction{
		ID:        ScheduleID,
		Workflow:  Daily,
		Args:      []any{DailyInput{Timezone: cfg.Contracts.Timezone}},
		TaskQueue: TaskQueue,
	}
	schedules := c.ScheduleClient()
	_, err = schedules.Create(ctx, client.ScheduleOptions{ID: ScheduleID, Spec: spec, Action: action})
	if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return err
	}
	return schedules.GetHandle(ctx, ScheduleID).Update(ctx, client.ScheduleUpdateOptions{
		DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
			in.Description.Schedule.Spec = &spec
			in.Description.Schedule.Action = action
			return &client.ScheduleUpdate{Schedule: &in.Description.Schedule}, nil
		},
	})
}
