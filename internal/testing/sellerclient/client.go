// Package sellerclient is a small client of Tenure's Seller API for the
// end-to-end tests and benchmarks: a token, the requests of an offer's
// lifecycle, and the lifecycle itself, made resilient to a worker that
// goes away and comes back.
package sellerclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls the Seller API as one seller.
type Client struct {
	BaseURL string
	Token   string
	HTTP    *http.Client
}

// Login obtains a token for a client's credentials.
func Login(ctx context.Context, baseURL, clientID, secret string) (*Client, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/oauth2/token",
		strings.NewReader(url.Values{"grant_type": {"client_credentials"}, "scope": {"client"}}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(clientID, secret)
	httpClient := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token request answered %d", resp.StatusCode)
	}
	return &Client{BaseURL: baseURL, Token: tok.AccessToken, HTTP: httpClient}, nil
}

// Do sends a JSON request and decodes a 2xx answer into out (when not nil).
// It returns the status and the raw body; transport errors are errors.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) (int, []byte, error) {
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, reader)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp.StatusCode, raw, err
		}
	}
	return resp.StatusCode, raw, nil
}
