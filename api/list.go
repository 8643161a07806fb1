package api

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	graphql "github.com/hasura/go-graphql-client"

	"github.com/partnertui/partnertui/internal/safetext"
)

// listPage runs the list query o and converts the connection conn finds
// in its result. conn reports false when the connection's parent (an
// account, a membership) came back null: that is notFound, unless the
// server also sent errors, which then say more.
func listPage[Q, N, T any](ctx context.Context, c *Client, o *op[Q], vars map[string]any,
	conn func(*Q) (*connectionQL[N], bool), conv func(*N) T, notFound func() error) (*Page[T], error) {
	q, err := o.query(ctx, c, vars)
	if q == nil {
		return nil, err
	}
	cn, ok := conn(q)
	if !ok {
		if err != nil {
			return nil, err
		}
		return nil, notFound()
	}
	return convertPage(cn, conv), err
}

// one runs the query o for a single node that item finds in its
// result; a null node is notFound (unless the server sent errors).
func one[Q, N, T any](ctx context.Context, c *Client, o *op[Q], vars map[string]any,
	item func(*Q) *N, conv func(*N) T, notFound func() error) (*T, error) {
	q, err := o.query(ctx, c, vars)
	if q == nil {
		return nil, err
	}
	n := item(q)
	if n == nil {
		if err != nil && !rootFieldFailed(err) {
			return nil, err
		}
		if err != nil {
			// A field that cannot be null failed alone, at the root: the
			// server has no such item for this token, and says why.
			return nil, fmt.Errorf("%w (%s)", notFound(), safetext.Truncate(err.Error(), 200))
		}
		return nil, notFound()
	}
	v := conv(n)
	return &v, err
}

// rootFieldFailed reports whether err is an answer's errors, each at a
// root field (the one the query reads) and none deeper.
func rootFieldFailed(err error) bool {
	var ge *GraphQLError
	if !errors.As(err, &ge) || len(ge.Errors) == 0 {
		return false
	}
	for _, d := range ge.Errors {
		if d.Path == "" || strings.Contains(d.Path, ".") {
			return false
		}
	}
	return true
}

// idVars are the variables of an operation on one item by its id.
func idVars() map[string]any { return map[string]any{"id": graphql.ID("")} }

// notFound says that the server has no what with that id (or does not
// show it to this token).
func (c *Client) notFound(what, id string) func() error {
	return func() error {
		return fmt.Errorf("%s %q was not found in %s: %w", what, safetext.Truncate(id, 80), c.env, ErrNotFound)
	}
}

// accountRefQL is the selection of an item's account.
type accountRefQL struct {
	ID   string `graphql:"id"`
	Name string `graphql:"name"`
}

// AccountRef names the account an item belongs to.
type AccountRef struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

func (a *accountRefQL) ref() *AccountRef {
	if a == nil {
		return nil
	}
	return &AccountRef{ID: a.ID, Name: a.Name}
}

// parseTimePtr reads a nullable DateTime.
func parseTimePtr(s *string) time.Time { return parseTime(deref(s)) }
