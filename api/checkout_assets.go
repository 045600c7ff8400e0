package api

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	checkoutpage "github.com/tenurehq/tenure/web/checkout"
)

// checkoutAssets are the hosted checkout's files, ready to serve under
// their version (staticFiles), with what the shell takes from them.
type checkoutAssets struct {
	staticFiles
	// modules are the JavaScript modules besides the entry, which the
	// shell preloads so the browser fetches them at once rather than one
	// import level after the other.
	modules []string
	// messages are the catalogs by language; the shell takes its own few
	// words from them.
	messages map[string]map[string]string
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

// checkoutAssetsOnce loads the embedded assets once per process, like the
// API reference's: compressing them for every server the tests build
// would repeat the same work.
var checkoutAssetsOnce = sync.OnceValues(func() (*checkoutAssets, error) {
	return loadCheckoutAssets(checkoutpage.Assets())
})

// loadCheckoutAssets reads, versions and compresses every file of fsys,
// and finds the shell's modules and message catalogs among them.
func loadCheckoutAssets(fsys fs.FS) (*checkoutAssets, error) {
	files, err := loadStaticFiles(fsys, checkoutMediaTypes)
	if err != nil {
		return nil, err
	}
	a := &checkoutAssets{staticFiles: files, messages: map[string]map[string]string{}}
	if _, ok := a.files[checkoutEntry]; !ok {
		return nil, fmt.Errorf("checkout assets lack the entry module %s", checkoutEntry)
	}
	for name, file := range a.files {
		if strings.HasSuffix(name, ".js") && name != checkoutEntry {
			a.modules = append(a.modules, name)
		}
		if dir, base := path.Split(name); dir == "messages/" {
			catalog := map[string]string{}
			if err := json.Unmarshal(file.plain, &catalog); err != nil {
				return nil, fmt.Errorf("checkout message catalog %s: %w", name, err)
			}
			a.messages[strings.TrimSuffix(base, ".json")] = catalog
		}
	}
	sort.Strings(a.modules)
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
