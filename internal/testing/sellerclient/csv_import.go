package sellerclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
)

// ImportCSVFile imports the CSV file at path under its base name, as
// ImportCSV does; it returns the job's id.
func (c *Client) ImportCSVFile(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	return c.ImportCSV(ctx, filepath.Base(path), f, info.Size())
}

// ImportCSV creates a CSV import job and streams size bytes of body to its
// upload link, as a merchant's integration does; it returns the job's id.
// The link names Tenure's configured public address, so the upload goes to
// the path and token of the link on the client's own base URL.
func (c *Client) ImportCSV(ctx context.Context, filename string, body io.Reader, size int64) (string, error) {
	var created struct {
		ID        string `json:"id"`
		UploadURL string `json:"upload_url"`
	}
	status, raw, err := c.Do(ctx, http.MethodPost, "/v1/catalog/imports", map[string]any{"filename": filename}, &created)
	if err != nil || status != http.StatusCreated {
		return "", fmt.Errorf("creating the import: %d %s %v", status, raw, err)
	}
	link, err := url.Parse(created.UploadURL)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.BaseURL+link.RequestURI(), body)
	if err != nil {
		return "", err
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "text/csv")
	req.Header.Set("x-storage-content-length-range", "0,262144000")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("uploading the file: %d", resp.StatusCode)
	}
	return created.ID, nil
}
