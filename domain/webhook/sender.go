package webhook

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
)

// UserAgent names Tenure to webhook receivers.
const UserAgent = "Tenure-Webhooks/1.0 (+https://github.com/tenurehq/tenure)"

// excerptLimit is how much of a response body is kept for the event log.
const excerptLimit = 4 << 10

// Error classes of failed attempts, as recorded and shown in the event log.
const (
	ClassTimeout     = "timeout"
	ClassRefused     = "connection_refused"
	ClassBlocked     = "blocked_address"
	ClassNetwork     = "network_error"
	ClassRedirect    = "redirect"
	ClassHTTPStatus  = "http_status"
	ClassGone        = "gone"
	ClassInterrupted = "interrupted"
	ClassInvalid     = "invalid_request"
)

// Message is one signed webhook request.
type Message struct {
	// ID is the event id, sent as webhook-id and svix-id on every attempt.
	ID      string
	Type    EventType
	Body    []byte
	Secrets []string
	// Timestamp is when the attempt is signed.
	Timestamp time.Time
}

// Outcome is what one HTTP attempt did.
type Outcome struct {
	Delivered  bool
	StatusCode int
	Latency    time.Duration
	// ErrorClass says why the attempt failed; empty when delivered.
	ErrorClass string
	Excerpt    string
}

// Gone reports whether the receiver asked Tenure to stop (410).
func (o Outcome) Gone() bool { return o.StatusCode == http.StatusGone }

// Sender performs single HTTP attempts: it never follows redirects, never
// goes through a proxy, bounds each attempt by its timeout, and in
// production refuses non-public addresses when it connects.
type Sender struct {
	client  *http.Client
	timeout time.Duration
}

// NewSender builds a sender whose attempts last at most timeout.
func NewSender(policy URLPolicy, timeout time.Duration) *Sender {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: policy.dialControl}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &Sender{
		client: &http.Client{
			// Each attempt is a client span of the delivery's trace, the
			// trace of the change that recorded the event (the dispatcher
			// starts the delivery from it); with tracing on, the request
			// carries a traceparent header.
			Transport: otelhttp.NewTransport(transport, otelhttp.WithSpanNameFormatter(func(string, *http.Request) string {
				return "webhook attempt"
			})),
			// A redirect is a failed attempt: following it could lead
			// anywhere, including where the URL policy forbids.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		timeout: timeout,
	}
}

// Send makes one attempt: only a 2xx answer within the timeout delivers.
func (s *Sender) Send(ctx context.Context, url string, m Message) Outcome {
	signature, err := Sign(m.ID, m.Timestamp, m.Body, m.Secrets...)
	if err != nil {
		return Outcome{ErrorClass: ClassInvalid, Excerpt: "the endpoint's secret cannot sign"}
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(m.Body))
	if err != nil {
		return Outcome{ErrorClass: ClassInvalid, Excerpt: "the endpoint URL cannot be requested"}
	}
	timestamp := strconv.FormatInt(m.Timestamp.Unix(), 10)
	for _, prefix := range []string{"webhook-", "svix-"} {
		req.Header.Set(prefix+"id", m.ID)
		req.Header.Set(prefix+"timestamp", timestamp)
		req.Header.Set(prefix+"signature", signature)
	}
	req.Header.Set("webhook-event-type", m.Type)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)

	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return Outcome{Latency: time.Since(start), ErrorClass: classify(err), Excerpt: transportExcerpt(err)}
	}
	defer resp.Body.Close()
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, excerptLimit))
	out := Outcome{StatusCode: resp.StatusCode, Latency: time.Since(start), Excerpt: excerpt(body)}
	switch {
	case readErr != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		// The answer did not arrive in full within the timeout.
		out.ErrorClass = ClassTimeout
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		out.Delivered = true
	case resp.StatusCode == http.StatusGone:
		out.ErrorClass = ClassGone
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		out.ErrorClass = ClassRedirect
	default:
		out.ErrorClass = ClassHTTPStatus
	}
	return out
}

// classify names a transport failure.
func classify(err error) string {
	var blocked *BlockedAddressError
	var netErr net.Error
	switch {
	case errors.As(err, &blocked):
		return ClassBlocked
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return ClassTimeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return ClassRefused
	default:
		return ClassNetwork
	}
}

// transportExcerpt describes a transport failure for the event log without
// Go's wrapping (which repeats the URL).
func transportExcerpt(err error) string {
	var blocked *BlockedAddressError
	if errors.As(err, &blocked) {
		return blocked.Error()
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		return opErr.Op + ": " + opErr.Err.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer within the attempt timeout"
	}
	return "the request could not be sent"
}

// excerpt keeps the beginning of a response body as text PostgreSQL can
// store: valid UTF-8 without NUL characters.
func excerpt(body []byte) string {
	text := strings.ToValidUTF8(string(body), string(utf8.RuneError))
	return strings.ReplaceAll(text, "\x00", string(utf8.RuneError))
}
