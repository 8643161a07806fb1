package ui

import (
	"context"
	"sync/atomic"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/platform"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// accountOpening is the one request that opens an account: the Overview
// and the first page of every tab (api.AccountView). The Overview's first
// read sends it; a tab's first read waits for it and takes its page
// instead of sending its own, so going through the tabs after opening an
// account costs no round trip. When it fails, each part is read on its
// own, as if it had never been sent, and says itself what went wrong.
type accountOpening struct {
	params api.AccountViewParams
	done   chan struct{}
	view   *api.AccountView // set before done is closed; nil when it failed
}

func newAccountOpening(id string, project bool) *accountOpening {
	first := platform.PageMax
	p := api.AccountViewParams{AccountID: id, Project: project,
		Transactions: txParams(id), Members: membersParams(id),
		Cards: cardsParams(api.CardsParams{AccountID: id}), Statements: statementsParams(id)}
	p.Transactions.First, p.Members.First, p.Cards.First, p.Statements.First = first, first, first, first
	return &accountOpening{params: p, done: make(chan struct{})}
}

// send reads the view with a and hands it to every part waiting for it;
// the account in full is the Overview's. Only the first call sends.
func (o *accountOpening) send(ctx context.Context, a API) (*api.AccountDetail, error) {
	defer close(o.done)
	v, err := a.AccountView(ctx, o.params)
	if err != nil {
		return nil, err
	}
	o.view = v
	return v.Detail, nil
}

// wait is the view once it has come, nil when it failed or ctx ended
// first.
func (o *accountOpening) wait(ctx context.Context) *api.AccountView {
	select {
	case <-o.done:
		return o.view
	case <-ctx.Done():
		return nil
	}
}

// firstPage is fetch whose first read of the list's first page, if it is
// the page the view carries, is taken from the view: once, so that a
// refresh reads the list again.
func firstPage[T any](o *accountOpening, part func(*api.AccountView) *api.Page[T], fetch pagedlist.Fetch[T]) pagedlist.Fetch[T] {
	var taken atomic.Bool
	return func(ctx context.Context, r pagedlist.Request) (pagedlist.Page[T], error) {
		if r.After == "" && !r.Reverse && r.First == platform.PageMax && taken.CompareAndSwap(false, true) {
			if v := o.wait(ctx); v != nil {
				if p := part(v); p != nil {
					return pageOf(p), nil
				}
			}
		}
		return fetch(ctx, r)
	}
}
