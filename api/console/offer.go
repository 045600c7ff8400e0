package console

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// offer shows one offer, read-only: its customer, basket, amounts and the
// risk rules' decision.
func (s *server) offer(c *fiber.Ctx) error {
	id, err := recordid.Parse(c.Params("id"))
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
	timeline, err := s.Service.OfferTimeline(c.UserContext(), item, decisions)
	if err != nil {
		return s.failed(c, err)
	}
	v := s.view(c, "offer.title")
	detail := detailOf(v, item, s.Service.NeedsSecondApproval(item.Offer))
	for _, e := range decisions {
		detail.Decisions = append(detail.Decisions, entryOf(v, e))
	}
	for _, step := range timeline {
		detail.Timeline = append(detail.Timeline, stepOf(v, step))
	}
	v.Title = v.T("offer.title") + ": " + detail.Company
	v.Data = detail
	return s.pages.render(c, fiber.StatusOK, "offer.html", v)
}
