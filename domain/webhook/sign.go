package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Sign computes the webhook-signature header value: for each secret,
// `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, separated
// by spaces (two during a secret rotation).
func Sign(id string, timestamp time.Time, body []byte, secrets ...string) (string, error) {
	signatures := make([]string, 0, len(secrets))
	for _, s := range secrets {
		key, err := secretKey(s)
		if err != nil {
			return "", err
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id))
		mac.Write([]byte{'.'})
		mac.Write([]byte(strconv.FormatInt(timestamp.Unix(), 10)))
		mac.Write([]byte{'.'})
		mac.Write(body)
		signatures = append(signatures, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return strings.Join(signatures, " "), nil
}
