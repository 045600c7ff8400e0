package api

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
)

// staticFiles are a folder of files ready to serve, each with its media
// type and its gzip form, under a version that changes whenever any file
// does. The version is part of every file's path, so a browser may keep a
// file for a year and still never mixes the files of two releases.
type staticFiles struct {
	version string
	files   map[string]staticFile
}

// staticFile is one file as served.
type staticFile struct {
	mediaType string
	plain     []byte
	gzipped   []byte
}

// loadStaticFiles reads, versions and compresses every file of fsys; a
// file whose extension mediaTypes lacks is a mistake in the folder.
func loadStaticFiles(fsys fs.FS, mediaTypes map[string]string) (staticFiles, error) {
	s := staticFiles{files: map[string]staticFile{}}
	version := sha256.New()
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		mediaType, ok := mediaTypes[path.Ext(name)]
		if !ok {
			return fmt.Errorf("static file %s: no media type for its extension", name)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		zipped, err := gzipped(body)
		if err != nil {
			return err
		}
		fmt.Fprintf(version, "%d:%s%d:", len(name), name, len(body))
		version.Write(body)
		s.files[name] = staticFile{mediaType: mediaType, plain: body, gzipped: zipped}
		return nil
	})
	if err != nil {
		return staticFiles{}, err
	}
	s.version = hex.EncodeToString(version.Sum(nil))[:16]
	return s, nil
}

// serve answers the file the route's version and * parameters name,
// compressed when the browser accepts gzip. Another version's path is not
// found: serving the current file under an old name would let a cache keep
// the wrong one.
func (s staticFiles) serve(c *fiber.Ctx) error {
	file, ok := s.files[c.Params("*")]
	if c.Params("version") != s.version || !ok {
		return apierror.NotFound("no file %s", c.Path())
	}
	c.Set(fiber.HeaderContentType, file.mediaType)
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	if c.Request().Header.HasAcceptEncoding("gzip") {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(file.gzipped)
	}
	return c.Send(file.plain)
}
