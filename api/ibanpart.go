package api

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/platform"
)

// The platform's account filters match a whole IBAN only (filters.mainIBAN,
// exact; filters.search does not look at IBANs: holder names and email,
// holder id, account name, number and id). A part of an IBAN, its start
// or its last digits, is matched here, on the accounts as they are read:
// a search by IBAN part costs one request per 100 accounts the token sees
// (the whole list when few match), where a whole IBAN costs one.
//
// Last digits are also an account number's, which the server's search
// finds: such a search reads, after every account, the server's search for
// those digits, leaving out what the first read found. A page of it never
// holds more than asked for, and its cursor says where to go on (which
// read, after which server cursor, how many matches of that server page
// were handed out already), so a walk is the matches each once, in order.

// scanProgressKey carries a WithScanProgress func in a context.
type scanProgressKey struct{}

// WithScanProgress has a search by IBAN part made with ctx say, after each
// page of accounts it reads, how many of the accounts it reads every one
// of it has read: such a search is as long as the list, and a surface
// says so while it waits (the command line's progress line, the app's
// status line).
func WithScanProgress(ctx context.Context, f func(read, of int)) context.Context {
	return context.WithValue(ctx, scanProgressKey{}, f)
}

// partCursor is where a search by IBAN part goes on.
type partCursor struct {
	search bool   // the server's search for the digits, after the read of every account
	after  string // the server cursor the page to read again follows
	skip   int    // the matches of that page already handed out
	read   int    // the accounts the read of every account read before after
}

const partCursorPrefix = "ibanpart:"

func (pc partCursor) String() string {
	which := "all"
	if pc.search {
		which = "search"
	}
	return partCursorPrefix + which + ":" + strconv.Itoa(pc.skip) + ":" + strconv.Itoa(pc.read) + ":" + pc.after
}

// errPartCursor: a cursor that no search by IBAN part made.
var errPartCursor = errors.New("not a cursor of a search by IBAN part")

func parsePartCursor(s string) (partCursor, error) {
	if s == "" {
		return partCursor{}, nil
	}
	rest, ok := strings.CutPrefix(s, partCursorPrefix)
	which, rest, ok2 := strings.Cut(rest, ":")
	skip, rest, ok3 := strings.Cut(rest, ":")
	read, after, ok4 := strings.Cut(rest, ":")
	n, err := strconv.Atoi(skip)
	r, rerr := strconv.Atoi(read)
	if !ok || !ok2 || !ok3 || !ok4 || err != nil || rerr != nil || n < 0 || r < 0 || (which != "all" && which != "search") {
		return partCursor{}, fmt.Errorf("%w: %q", errPartCursor, s)
	}
	return partCursor{search: which == "search", after: after, skip: n, read: r}, nil
}

// accountsByIBANPart is a page of the accounts whose IBAN has p.IBANPart:
// up to p.First of them (the client's page size by default), in the
// order asked for. TotalCount is the number of accounts the part is
// matched against, an upper bound of the matches.
func (c *Client) accountsByIBANPart(ctx context.Context, p AccountsParams) (*Page[Account], error) {
	want := c.first(p.First)
	pc, err := parsePartCursor(p.After)
	if err != nil {
		return nil, err
	}
	digitsOnly := strings.Trim(p.IBANPart, "0123456789") == ""
	progress, _ := ctx.Value(scanProgressKey{}).(func(read, of int))
	// The server pages read here are not the pages of this list: a walk
	// must not read ahead from their cursors.
	ctx = context.WithValue(ctx, rawAnswerKey{}, nil)
	out := &Page[Account]{Items: []Account{}}
	for {
		read := p
		read.IBANPart, read.First, read.After = "", platform.PageMax, pc.after
		keep := func(a *Account) bool { return iban.HasPart(a.IBAN, p.IBANPart) }
		if pc.search {
			// The server's search for the digits, less what the read of
			// every account found already.
			read.Search = p.IBANPart
			keep = func(a *Account) bool { return !iban.HasPart(a.IBAN, p.IBANPart) }
		}
		page, err := c.Accounts(ctx, read)
		if err != nil {
			return nil, err
		}
		if !pc.search {
			out.TotalCount = max(out.TotalCount, page.TotalCount)
			if progress != nil {
				progress(pc.read+len(page.Items), page.TotalCount)
			}
		}
		matched := 0
		for i := range page.Items {
			a := &page.Items[i]
			if !keep(a) {
				continue
			}
			matched++
			if matched <= pc.skip {
				continue
			}
			if len(out.Items) == want {
				// Full: the next page reads this server page again and
				// hands out what follows what was handed out.
				pc.skip = matched - 1
				out.PageInfo = PageInfo{HasNextPage: true, EndCursor: pc.String()}
				return out, nil
			}
			out.Items = append(out.Items, *a)
		}
		next := page.PageInfo.HasNextPage && page.PageInfo.EndCursor != ""
		done := pc.read
		if !pc.search {
			done += len(page.Items)
		}
		switch {
		case next:
			pc = partCursor{search: pc.search, after: page.PageInfo.EndCursor, read: done}
		case !pc.search && digitsOnly:
			pc = partCursor{search: true, read: done}
		default:
			pc.skip = matched
			out.PageInfo = PageInfo{EndCursor: pc.String()}
			return out, nil
		}
		if len(out.Items) == want {
			out.PageInfo = PageInfo{HasNextPage: true, EndCursor: pc.String()}
			return out, nil
		}
	}
}
