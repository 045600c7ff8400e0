package csvimport

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"

	"gocloud.dev/blob"
	// The bucket kinds a blob_url may name.
	_ "gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/tenurehq/tenure/config"
)

// OpenBucket opens the bucket uploads and error reports are kept in:
// catalog.imports.blob_url, or a directory under the data directory.
func OpenBucket(ctx context.Context, c *config.Config) (*blob.Bucket, error) {
	u := c.Catalog.Imports.BlobURL
	if u == "" {
		dir, err := filepath.Abs(filepath.Join(c.DataDir, "blobs"))
		if err != nil {
			return nil, err
		}
		// fileblob writes to a temporary file beside the object by
		// default, so a half-received upload never shows as the object.
		u = (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir), RawQuery: "create_dir=true"}).String()
	}
	b, err := blob.OpenBucket(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("catalog.imports.blob_url (%s): %w", config.EnvName("catalog.imports.blob_url"), err)
	}
	return b, nil
}
