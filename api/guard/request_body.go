package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tenurehq/tenure/api/apierror"
)

// maxBodyDepth bounds how deeply a request body may nest objects and
// arrays. The deepest body of the Seller API needs 5 levels; a limit far
// below encoding/json's own (10,000) keeps refusals in the API's words.
const maxBodyDepth = 32

// bodyDecoder reads a JSON request body into the value the contract is
// checked against and the generated handlers bind: objects, arrays,
// strings, json.Number, booleans and nil. Its refusals name the field and
// say what is wrong in the API's words, never in encoding/json's.
type bodyDecoder struct {
	raw  []byte
	dec  *json.Decoder
	path []string
}

// decodeBody reads one JSON value that fills the whole body. Text
// PostgreSQL cannot store (a NUL character, invalid UTF-8) is refused
// here, in keys as in values, so no field of any operation can carry it.
func decodeBody(raw []byte) (any, error) {
	d := &bodyDecoder{raw: raw, dec: json.NewDecoder(bytes.NewReader(raw))}
	d.dec.UseNumber()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	end := d.dec.InputOffset()
	if _, err := d.dec.Token(); !errors.Is(err, io.EOF) {
		at := int(end) + len(raw[end:]) - len(bytes.TrimLeft(raw[end:], " \t\r\n"))
		return nil, apierror.BadRequest("the request body is not valid JSON: unexpected data after the JSON value at byte %d", at+1)
	}
	return v, nil
}

func (d *bodyDecoder) value(depth int) (any, error) {
	start := d.dec.InputOffset()
	tok, err := d.dec.Token()
	if err != nil {
		return nil, d.syntaxError()
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxBodyDepth {
			return nil, apierror.BadRequest("the request body nests objects and arrays more than %d levels deep", maxBodyDepth)
		}
		if t == '{' {
			return d.object(depth)
		}
		return d.array(depth)
	case string:
		return t, d.checkText(start, t, "")
	}
	return tok, nil
}

func (d *bodyDecoder) object(depth int) (any, error) {
	obj := map[string]any{}
	for d.dec.More() {
		start := d.dec.InputOffset()
		tok, err := d.dec.Token()
		if err != nil {
			return nil, d.syntaxError()
		}
		key := tok.(string)
		if err := d.checkText(start, key, "a key of "); err != nil {
			return nil, err
		}
		d.path = append(d.path, key)
		if _, dup := obj[key]; dup {
			return nil, apierror.BadRequest("%s appears twice in the request body", d.where())
		}
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		obj[key] = v
		d.path = d.path[:len(d.path)-1]
	}
	return obj, d.closing()
}

func (d *bodyDecoder) array(depth int) (any, error) {
	arr := []any{}
	for i := 0; d.dec.More(); i++ {
		d.path = append(d.path, strconv.Itoa(i))
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		d.path = d.path[:len(d.path)-1]
	}
	return arr, d.closing()
}

// closing reads the delimiter that ends an object or array.
func (d *bodyDecoder) closing() error {
	if _, err := d.dec.Token(); err != nil {
		return d.syntaxError()
	}
	return nil
}

// checkText refuses a string (value or key) PostgreSQL cannot store. The
// decoder replaces invalid UTF-8 silently, so the raw bytes the token came
// from are checked.
func (d *bodyDecoder) checkText(start int64, s, what string) error {
	if !utf8.Valid(d.raw[start:d.dec.InputOffset()]) {
		return apierror.BadRequest("%s%s must be valid UTF-8 text", what, d.where())
	}
	if strings.ContainsRune(s, 0) {
		return apierror.BadRequest("%s%s must not contain NUL characters", what, d.where())
	}
	return nil
}

// where names the field being read: field lines[0].title, or the request
// body itself.
func (d *bodyDecoder) where() string {
	if len(d.path) == 0 {
		return "the request body"
	}
	return "field " + fieldPath(d.path)
}

// syntaxError describes a body that is not JSON by the byte where it stops
// being JSON. The decoder's token offsets are approximate, so the body is
// scanned again to find that byte (only when it is refused).
func (d *bodyDecoder) syntaxError() error {
	var syntax *json.SyntaxError
	if !errors.As(json.Unmarshal(d.raw, new(json.RawMessage)), &syntax) {
		return apierror.BadRequest("the request body is not valid JSON")
	}
	at := int(syntax.Offset)
	if at < 1 || at > len(d.raw) || strings.HasPrefix(syntax.Error(), "unexpected end") {
		return apierror.BadRequest("the request body is not valid JSON: it ends before the JSON value is complete")
	}
	return apierror.BadRequest("the request body is not valid JSON: unexpected %s at byte %d", describeByte(d.raw, at-1), at)
}

// describeByte names the character at i for a message: 'N', or its code
// when it is not printable.
func describeByte(raw []byte, i int) string {
	r, size := utf8.DecodeRune(raw[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf("byte 0x%02x", raw[i])
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf("control character 0x%02x", raw[i])
	}
	return fmt.Sprintf("character %q", r)
}
