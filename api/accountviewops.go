package api

import "github.com/partnertui/partnertui/internal/platform"

// The operations of the account view (accountview.go): an account and
// the first page of each of its tabs in one request, with the user's
// membership of it for a user token.

// Operation names of the account view.
const (
	OpAccountView     = "AccountView"
	OpAccountViewUser = "AccountViewWithMembership"
)

var (
	_ = declareQuery[accountViewQuery](OpAccountView, accountViewVars)
	_ = declareQuery[accountViewUserQuery](OpAccountViewUser, accountViewVars)
)

// accountViewVars are the account view's variables at their largest, as
// Operations lists them.
func accountViewVars() map[string]any {
	return AccountViewParams{AccountID: "x"}.parts().vars(func(int) int { return platform.PageMax })
}
