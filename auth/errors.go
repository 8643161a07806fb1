package auth

import "errors"

// Sentinels callers act on with errors.Is. Concrete errors wrap them and read
// as sentences with the remedy (spec 5.5/5.6).
var (
	// ErrSignInRequired: no session, or the session has ended (invalid_grant
	// on refresh with no newer token on disk). Remedy: sign in again.
	ErrSignInRequired = errors.New("sign-in required")
	// ErrInvalidClient: the client secret (or id) was rejected.
	ErrInvalidClient = errors.New("client authentication failed")
	// ErrAccessDenied: the user pressed Deny on the authorization page.
	ErrAccessDenied = errors.New("access denied")
	// ErrCodeRejected: the authorization code was expired or already used.
	ErrCodeRejected = errors.New("authorization code rejected")
	// ErrLoginTimeout: the browser never came back within the code lifetime.
	ErrLoginTimeout = errors.New("sign-in timed out")
)
