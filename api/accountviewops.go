package api

// The operations of the account view (accountview.go): an account and
// the first page of each list asked for in one request, with the user's
// membership of it for a user token. Their shape is built from the lists
// asked for; Operations lists them with every list.

// Operation names of the account view.
const (
	OpAccountView     = "AccountView"
	OpAccountViewUser = "AccountViewWithMembership"
)

func init() {
	declareBuilt(OpAccountView, func() any { return everyListShape(false) }, everyListVars)
	declareBuilt(OpAccountViewUser, func() any { return everyListShape(true) }, everyListVars)
}
