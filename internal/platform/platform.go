// Package platform holds the partner API's published facts, each defined
// once: page size, request budget, Sandbox operation limits, webhook event
// types, and which hosts may be spoken to in clear text.
// The emulator keeps its own copy on purpose (it shares no code with the
// client), so a client that misreads a fact cannot hide behind an emulator
// that misreads it the same way.
package platform

import (
	"net"
	"strings"
	"time"
)

// PageMax is the largest `first` any connection accepts ("maximum: 100").
const PageMax = 100

// The request budget: 2,000 requests per 5 minutes per IP, on every
// endpoint (spec section 8).
const (
	RequestBudget = 2000
	BudgetWindow  = 5 * time.Minute
)

// Sandbox operation limits (spec section 8): breaking one answers HTTP 400.
const (
	MaxFields   = 1000
	MaxDepth    = 15
	MaxTopLevel = 5
)

// IsLoopback reports whether host (no port) is this machine. Plain http is
// allowed only there: a bearer token or client secret must never cross the
// network in clear text.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
