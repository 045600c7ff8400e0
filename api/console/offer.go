package console

import (
	"errors"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// offer shows one offer, read-only: its customer, basket, amounts and the
// risk rules' decision.
func (s *server) offer(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("offer"))
	if err != nil {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	item, err := s.Service.Offer(c.UserContext(), id)
	if errors.Is(err, services.ErrOfferNotFound) {
		return s.problem(c, fiber.StatusNotFound, "problem.not_found")
	}
	if err != nil {
		return s.failed(c, err)
	}
	decisions, err := s.Service.OfferDecisions(c.UserContext(), id)
	if err != nil {
		return s.failed(c, err)
	}
	timeline, err := s.Service.OfferTimeline(c.UserContext(), item)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "offer.title")
	detail := detailOf(v, item, s.Service.NeedsSecondApproval(item.Offer))
	for _, e := range decisions {
		detail.Decisions = append(detail.Decisions, entryOf(v, e))
	}
	paths := map[uuid.UUID]string{}
	for _, e := range timeline {
		if e.Kind == services.TimelineStatus && e.What == services.MomentOrder {
			paths[e.Record] = Base + "/orders/" + e.Record.String()
		}
	}
	detail.Timeline = timelineOf(v, id, timeline, paths)
	v.Title = v.T("offer.title") + ": " + detail.Company
	v.Data = detail
	return s.pages.render(c, fiber.StatusOK, "offer.html", v)
}
