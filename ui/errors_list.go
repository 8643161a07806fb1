package ui

import "errors"

// The error families of the whole-account screens, worded like errors.go
// words the others (facts, then the one next step). To fold into
// errors.go's advise.

// noProjectAPIError: a transaction is looked up by id with the project's
// token (a user token cannot read Query.transaction), and the environment
// has no project-token client.
type noProjectAPIError struct{ env string }

func (e *noProjectAPIError) Error() string {
	return "the " + e.env + " environment has no project-token client"
}

// explainMore is explain for every error, the families above included.
func explainMore(err error, at where) string {
	var noProject *noProjectAPIError
	if errors.As(err, &noProject) {
		return "Looking a transaction up by its ID takes the project's token, and " + title(noProject.env) +
			" has no project-token client. Open the transaction from its account's Transactions tab instead."
	}
	return explain(err, at)
}
