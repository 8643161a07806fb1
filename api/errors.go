package api

import "errors"

// Sentinels; the typed errors below wrap or match them with errors.Is.
var (
	ErrUnauthorized   = errors.New("unauthorized")
	ErrRateLimited    = errors.New("rate limited")
	ErrOperationLimit = errors.New("operation limit exceeded")
	ErrNotFound       = errors.New("not found")
	ErrNoTestingAPI   = errors.New("the Testing API exists only in Sandbox")
)
