package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// checkoutAssets are the hosted checkout's files, ready to serve: each
// with its media type and its gzip form, under a version that changes
// whenever any file does. The version is part of every asset's path, so
// a browser may keep an asset for a year and still never mixes the
// modules of two releases.
type checkoutAssets struct {
	version string
	files   map[string]checkoutAsset
	// modules are the JavaScript modules besides the entry, which the
	// shell preloads so the browser fetches them at once rather than one
	// import level after the other.
	modules []string
	// messages are the catalogs by language; the shell takes its own few
	// words from them.
	messages map[string]map[string]string
}

// checkoutAsset is one file as served.
type checkoutAsset struct {
	mediaType string
	plain     []byte
	gzipped   []byte
}

// checkoutEntry is the module the shell loads.
const checkoutEntry = "app.js"

// checkoutMediaTypes are the kinds of file the page is made of.
var checkoutMediaTypes = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".svg":  "image/svg+xml",
}

// loadCheckoutAssets reads, versions and compresses every file of fsys; a
// file of a kind the page has no media type for is a mistake in the
// assets folder.
func loadCheckoutAssets(fsys fs.FS) (*checkoutAssets, error) {
	a := &checkoutAssets{files: map[string]checkoutAsset{}, messages: map[string]map[string]string{}}
	version := sha256.New()
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		mediaType, ok := checkoutMediaTypes[path.Ext(name)]
		if !ok {
			return fmt.Errorf("checkout asset %s: no media type for its extension", name)
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
		a.files[name] = checkoutAsset{mediaType: mediaType, plain: body, gzipped: zipped}
		if strings.HasSuffix(name, ".js") && name != checkoutEntry {
			a.modules = append(a.modules, name)
		}
		if dir, file := path.Split(name); dir == "messages/" {
			catalog := map[string]string{}
			if err := json.Unmarshal(body, &catalog); err != nil {
				return fmt.Errorf("checkout message catalog %s: %w", name, err)
			}
			a.messages[strings.TrimSuffix(file, ".json")] = catalog
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := a.files[checkoutEntry]; !ok {
		return nil, fmt.Errorf("checkout assets lack the entry module %s", checkoutEntry)
	}
	sort.Strings(a.modules)
	a.version = hex.EncodeToString(version.Sum(nil))[:16]
	return a, nil
}

// message is a catalog's text for key in lang, else in English.
func (a *checkoutAssets) message(lang, key string) string {
	if text, ok := a.messages[lang][key]; ok {
		return text
	}
	return a.messages["en"][key]
}

func gzipped(body []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(body); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
