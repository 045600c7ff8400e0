package statemachine

import (
	"testing"

	"github.com/tenurehq/tenure/domain/refusal"
)

var (
	open   = Trigger{Name: "open", Update: "open", Verb: "opened"}
	close_ = Trigger{Name: "close", Update: "close", Verb: "closed", Refusal: refusal.AlreadyCheckedOut}
	lapse  = Trigger{Name: "lapse"}
	door   = Table[string]{Noun: "doors", Rows: []Transition[string]{
		{From: "shut", Trigger: open, To: "open", Event: "door.opened"},
		{From: "open", Trigger: close_, To: "shut"},
		{From: "open", Trigger: lapse, To: "gone"},
	}}
)

func TestTableDerivations(t *testing.T) {
	if r, ok := door.Find("shut", open); !ok || r.To != "open" || r.Event != "door.opened" {
		t.Errorf("find %+v %v", r, ok)
	}
	if _, ok := door.Find("shut", close_); ok {
		t.Error("a missing row was found")
	}
	if !door.Allows("open", "close") || door.Allows("shut", "close") || door.Allows("open", "lapse") {
		t.Error("allows")
	}
	if got := door.Sources("open"); len(got) != 1 || got[0] != "shut" {
		t.Errorf("sources %v", got)
	}
	if door.Final("open") || !door.Final("gone") {
		t.Error("final")
	}
	if r := door.Refusal("shut", "close"); r.Kind != refusal.AlreadyCheckedOut || r.Message != "doors with status=shut cannot be closed" {
		t.Errorf("refusal %+v", r)
	}
	if r := door.Refusal("open", "open"); r.Kind != refusal.StatusNotAllowed || r.Message != "doors with status=open cannot be opened" {
		t.Errorf("refusal %+v", r)
	}
	if got := door.Target(close_); got != "shut" {
		t.Errorf("target %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Must of a missing row did not panic")
		}
	}()
	door.Must("gone", open)
}
