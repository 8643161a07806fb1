// Package platform holds the partner API's published facts, each defined
// once: page size, request budget, Sandbox operation limits, webhook event
// types and secrets, and which hosts may be spoken to in clear text.
// The emulator keeps its own copy on purpose (it shares no code with the
// client), so a client that misreads a fact cannot hide behind an emulator
// that misreads it the same way.
package platform

import (
	"fmt"
	"net"
	"strings"
	"time"
	"unicode/utf8"
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

// SEPACurrency is the currency of every SEPA credit transfer and direct
// debit: an account in another currency can neither send nor receive one.
const SEPACurrency = "EUR"

// IsSEPAOperation reports whether the operation named (its schema name) moves
// money by SEPA: the Testing API's Sepa simulations, and the partner API's
// initiateCreditTransfers, whose beneficiaries are SEPA ones.
func IsSEPAOperation(name string) bool {
	return strings.Contains(name, "Sepa") || name == "initiateCreditTransfers"
}

// EnvTitle is an environment's name as the platform writes it: "Sandbox"
// or "Live" for env "sandbox" or "live" (any other string as it is).
func EnvTitle(env string) string {
	switch env {
	case "sandbox":
		return "Sandbox"
	case "live":
		return "Live"
	}
	return env
}

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

// WebhookSecretMax is the longest webhook subscription secret the platform
// takes ("max 36 characters", AddWebhookSubscriptionInput.secret).
const WebhookSecretMax = 36

// WebhookSecretProblem says why secret cannot be a subscription's secret,
// or "" when it can. The platform sends the secret in the x-swan-secret
// header, which the receiver compares by plain equality: it must arrive
// byte for byte. A header carries visible ASCII with spaces and tabs
// between; controls (CR, LF, ESC…) cannot travel in one, receivers trim
// spaces and tabs at either end, and other bytes are read as Latin-1 by
// many servers.
func WebhookSecretProblem(secret string) string {
	if n := utf8.RuneCountInString(secret); n > WebhookSecretMax {
		return fmt.Sprintf("is %d characters long; the platform takes at most %d", n, WebhookSecretMax)
	}
	for i := 0; i < len(secret); i++ {
		c := secret[i]
		switch {
		case c == ' ' || c == '\t':
			if i == 0 || i == len(secret)-1 {
				return "starts or ends with a space or tab, which HTTP receivers trim from the x-swan-secret header"
			}
		case c < 0x20 || c == 0x7f:
			return fmt.Sprintf("holds the control character %#02x at byte %d, which no HTTP header can carry", c, i+1)
		case c > 0x7e:
			return fmt.Sprintf("holds a non-ASCII character at byte %d, which the x-swan-secret header cannot carry byte for byte", i+1)
		}
	}
	return ""
}

// Each endpoint's schema is told apart by a query only it serves: the
// partner API's Query.projectInfo, the Sandbox Testing API's
// Query.sandboxUser (both schemas have a Mutation type, and share one
// mutation, updateAccountHolder).
const (
	PartnerAPIQuery = "projectInfo"
	TestingAPIQuery = "sandboxUser"
)
