// Package webhooks is the emulator's webhook service for one environment:
// subscriptions, the events the emulator emits, their real HTTP deliveries
// with retries, and the event log that records every attempt.
//
// Platform facts it follows (webhooks documentation): the payload is
// {"eventType","eventId","eventDate","projectId","resourceId"} and nothing
// more; a subscription's secret travels as the x-swan-secret header; the
// endpoint must answer 2xx within 10 s, else the delivery is retried every
// 30 s up to 7 times; delivery is at least once and unordered; Sandbox
// allows 10 enabled subscriptions per event type and Live 5.
package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Platform defaults.
const (
	DefaultRetryInterval = 30 * time.Second
	DefaultAnswerWindow  = 10 * time.Second
	DefaultMaxRetries    = 7
	// Enabled subscriptions allowed per event type.
	SandboxSubscriptionLimit = 10
	LiveSubscriptionLimit    = 5
)

// Emulator bounds that keep memory flat however long a session runs; the
// platform keeps events 90 days, which an in-memory emulator cannot.
const (
	maxLogs          = 10_000  // newest event-log entries kept per environment
	maxSubscriptions = 200     // per environment, enabled or not
	maxQueued        = 100_000 // delivery attempts waiting for their turn
	maxResponseBytes = 1 << 10 // of a receiver's answer kept as responsePayload
	workers          = 8       // deliveries in flight at once
)

// Event types the emulator emits; the rest of EventTypes can be subscribed
// to but nothing in the emulator causes them.
const (
	TransactionPending   = "Transaction.Pending"
	TransactionBooked    = "Transaction.Booked"
	TransactionReleased  = "Transaction.Released"
	TransactionRejected  = "Transaction.Rejected"
	TransactionCanceled  = "Transaction.Canceled"
	TransactionEnriched  = "Transaction.Enriched"
	TransactionUpcoming  = "Transaction.Upcoming"
	AccountUpdated       = "Account.Updated"
	UserJoined           = "User.Joined"
	UserUpdated          = "User.Updated"
	UserDeactivated      = "User.Deactivated"
	ConsentCreated       = "Consent.Created"
	ConsentGranted       = "Consent.Granted"
	ConsentRefused       = "Consent.Refused"
	FundingSourceCreated = "FundingSource.Created"
	FundingSourceUpdated = "FundingSource.Updated"
)

// EventTypes are the platform's event types, as webhookEventTypes lists
// them and as subscriptions may name them.
func EventTypes() []string {
	return []string{
		"Account.Created", "Account.Updated", "Account.Closing", "Account.Closed",
		"AccountStatement.Generated", "AccountStatement.Voided",
		"AccountHolder.Created", "AccountHolder.Updated",
		"AccountInvoice.Generated", "AccountInvoice.Updated",
		"AccountMembership.Bound", "AccountMembership.Created", "AccountMembership.Disabled",
		"AccountMembership.Resumed", "AccountMembership.Suspended", "AccountMembership.Updated",
		"AccountSetting.Updated",
		"CapitalDepositCaseEvent.Canceled", "CapitalDepositCaseEvent.Created", "CapitalDepositCaseEvent.Updated",
		"CapitalDepositDocument.Created", "CapitalDepositDocument.Updated",
		"Card.Created", "Card.Updated",
		"Consent.Canceled", "Consent.Created", "Consent.Expired", "Consent.Granted", "Consent.Refused", "Consent.Started",
		"FundingLimitSettingsChangeRequest.Created", "FundingLimitSettingsChangeRequest.Updated",
		"FundingSource.Created", "FundingSource.Updated",
		"MerchantPayment.Authorized", "MerchantPayment.Captured", "MerchantPayment.Created",
		"MerchantPayment.Disputed", "MerchantPayment.Rejected",
		"MerchantPaymentLink.Created", "MerchantPaymentLink.Updated",
		"MerchantPaymentMethod.Created", "MerchantPaymentMethod.Updated",
		"MerchantPaymentMethodUpdateRequest.Created", "MerchantPaymentMethodUpdateRequest.Updated",
		"MerchantProfile.Created", "MerchantProfile.Updated",
		"MerchantProfileUpdateRequest.Created", "MerchantProfileUpdateRequest.Updated",
		"Onboarding.Created", "Onboarding.Updated",
		"ReceivedDirectDebitMandate.Created", "ReceivedDirectDebitMandate.Updated",
		"Shareholder.Created", "Shareholder.Updated",
		"StandingOrder.Canceled", "StandingOrder.Scheduled",
		"SupportingDocument.Updated", "SupportingDocumentCollection.Created", "SupportingDocumentCollection.Updated",
		"Transaction.Booked", "Transaction.Canceled", "Transaction.Deleted", "Transaction.Enriched",
		"Transaction.Pending", "Transaction.Rejected", "Transaction.Released", "Transaction.Upcoming",
		"TransactionRollingReserve.Released", "TransactionRollingReserve.Updated",
		"TransactionStatement.Generated",
		"User.Deactivated", "User.Joined", "User.Updated",
	}
}

// Config describes one environment's webhook service; zero durations and
// counts take the platform defaults.
type Config struct {
	ProjectID string
	// SubscriptionLimit is the number of enabled subscriptions allowed per
	// event type [SandboxSubscriptionLimit].
	SubscriptionLimit int
	RetryInterval     time.Duration // between attempts [30s]
	AnswerWindow      time.Duration // a receiver's time to answer [10s]
	MaxRetries        int           // retries after the first attempt [7]; negative: none
	// Now stamps event dates and log entries [time.Now]. Waits between
	// attempts use real timers, so tests shorten RetryInterval instead.
	Now func() time.Time
}

// Sentinel errors; the GraphQL layer turns them into rejections.
var (
	ErrSubscriptionNotFound = errors.New("no webhook subscription has this id")
	ErrLogNotFound          = errors.New("no webhook event or event log has this id")
	ErrBadCursor            = errors.New("the cursor is not valid: pass a cursor returned by a previous page of the same list")
	ErrTooManySubscriptions = fmt.Errorf("the emulator holds at most %d webhook subscriptions per environment: remove some first", maxSubscriptions)
)

// Hub is one environment's webhook service. Its methods are safe for
// concurrent use; Close stops the deliveries.
type Hub struct {
	cfg       Config
	client    *http.Client
	transport *http.Transport

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	subs     []*Subscription // creation order
	subSeq   uint64
	logs     []Log // oldest first, at most maxLogs
	logSeq   uint64
	recorded chan struct{} // closed and replaced by each record
	ready    []job         // attempts due now, oldest first
	retries  []job         // attempts waiting for their time; due times never decrease
	wake     chan struct{}
	work     chan job
}

// New starts a hub and its delivery workers.
func New(cfg Config) *Hub {
	if cfg.SubscriptionLimit <= 0 {
		cfg.SubscriptionLimit = SandboxSubscriptionLimit
	}
	if cfg.RetryInterval <= 0 {
		cfg.RetryInterval = DefaultRetryInterval
	}
	if cfg.AnswerWindow <= 0 {
		cfg.AnswerWindow = DefaultAnswerWindow
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: cfg.AnswerWindow}).DialContext,
		TLSHandshakeTimeout: cfg.AnswerWindow,
		MaxIdleConns:        workers,
		IdleConnTimeout:     30 * time.Second,
	}
	h := &Hub{
		cfg:       cfg,
		transport: tr,
		client: &http.Client{
			Transport: tr,
			// A webhook sender does not follow redirects: a 3xx is an
			// answer other than 2xx, so the attempt failed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		wake:     make(chan struct{}, 1),
		work:     make(chan job),
		recorded: make(chan struct{}),
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.wg.Go(h.schedule)
	for range workers {
		h.wg.Go(h.deliverLoop)
	}
	return h
}

// Stop cancels scheduling, deliveries in flight and replays without
// waiting; attempts still waiting are dropped.
func (h *Hub) Stop() { h.cancel() }

// Close stops the hub and waits for its workers.
func (h *Hub) Close() {
	h.cancel()
	h.wg.Wait()
	h.transport.CloseIdleConnections()
}

// newID is a random UUID (version 4), the platform's id format.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	s := hex.EncodeToString(b[:])
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

// timestamp is the platform's date format, milliseconds in UTC.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
