package sellerclient

import (
	"context"
	"fmt"
	"net/http"
	"slices"
)

// Contract is what a lifecycle reads of a rental contract: its status,
// its term's end, its installments and its assets.
type Contract struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	EndDate  string `json:"end_date"`
	Schedule *struct {
		Term struct {
			StartDate string `json:"start_date"`
		} `json:"term"`
		Installments []struct {
			DueDate string `json:"due_date"`
			Status  string `json:"status"`
		} `json:"installments"`
	} `json:"schedule"`
	Assets []ContractAsset `json:"assets"`
}

// ContractAsset is a unit a contract rents.
type ContractAsset struct {
	SerialNumber string `json:"serial_number"`
	Status       string `json:"status"`
}

// ContractPath is the Seller API's path of a contract.
func ContractPath(id string) string { return "/v1/contracts/" + id }

// FindContract returns the contract of an order of one rented line once
// its term has started (the order shipped).
func (c *Client) FindContract(ctx context.Context, orderID string) (Contract, error) {
	var found Contract
	err := c.step(ctx, "find contract", nothing, func() (bool, error) {
		var page struct {
			Contracts []Contract `json:"contracts"`
		}
		status, _, err := c.Do(ctx, http.MethodGet, "/v1/contracts?order_id="+orderID, nil, &page)
		if status == http.StatusOK && len(page.Contracts) == 1 && page.Contracts[0].Schedule != nil {
			found = page.Contracts[0]
			return true, nil
		}
		return false, err
	})
	return found, err
}

// AdvanceContractClock runs the advance_contract_clock simulation to a day
// (YYYY-MM-DD) until the contract shows it got there: every installment
// due by then is due. Moving to a day is idempotent where moving by months
// is not: a repeated request that finds the clock there is refused and
// changes nothing.
func (c *Client) AdvanceContractClock(ctx context.Context, id, to string) error {
	input := map[string]any{"scenario_input": map[string]any{"id": id, "to": to}}
	return c.step(ctx, "advance_contract_clock to "+to, func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, "/v1/scenario_simulations/advance_contract_clock", input, nil)
		return status, err
	}, func() (bool, error) {
		var k Contract
		status, _, err := c.Do(ctx, http.MethodGet, ContractPath(id), nil, &k)
		if status != http.StatusOK || k.Schedule == nil {
			return false, err
		}
		for _, i := range k.Schedule.Installments {
			if i.DueDate <= to && i.Status == "scheduled" {
				return false, nil
			}
		}
		return true, nil
	})
}

// ReturnContract records the return of every asset of a contract until
// each shows returned.
func (c *Client) ReturnContract(ctx context.Context, id string, serials []string, trackingURL string) error {
	body := map[string]any{"serial_numbers": serials, "tracking_url": trackingURL}
	return c.step(ctx, "return", func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, ContractPath(id)+"/returns", body, nil)
		return status, err
	}, func() (bool, error) {
		var k Contract
		status, _, err := c.Do(ctx, http.MethodGet, ContractPath(id), nil, &k)
		if status != http.StatusOK || len(k.Assets) == 0 {
			return false, err
		}
		return !slices.ContainsFunc(k.Assets, func(a ContractAsset) bool { return a.Status != "returned" }), nil
	})
}

// AwaitContract waits until a contract has one of statuses.
func (c *Client) AwaitContract(ctx context.Context, id string, statuses ...string) error {
	return c.step(ctx, fmt.Sprintf("waiting for contract %s to be %v", id, statuses), nothing, c.reached(ctx, ContractPath(id), statuses...))
}
