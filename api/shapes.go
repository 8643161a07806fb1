package api

import "time"

// The GraphQL shapes every subject's operations share. A shape's field
// tags carry the schema's exact names.

type pageInfoQL struct {
	HasNextPage     *bool   `graphql:"hasNextPage"`
	HasPreviousPage *bool   `graphql:"hasPreviousPage"`
	StartCursor     *string `graphql:"startCursor"`
	EndCursor       *string `graphql:"endCursor"`
}

func (p pageInfoQL) pageInfo() PageInfo {
	return PageInfo{
		HasNextPage:     p.HasNextPage != nil && *p.HasNextPage,
		HasPreviousPage: p.HasPreviousPage != nil && *p.HasPreviousPage,
		StartCursor:     deref(p.StartCursor),
		EndCursor:       deref(p.EndCursor),
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type statusQL struct {
	Status string `graphql:"status"`
}

// parseTime reads a DateTime; a malformed one becomes the zero time rather
// than failing the whole response.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
