package api

import (
	"context"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/internal/iban"
)

// ids are the accounts' ids, in order.
func ids(as []Account) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

// The platform matches a whole IBAN only: filters.mainIBAN is exact and
// filters.search does not look at IBANs (the schema lists the fields it
// searches). The emulator is faithful to that, and a part of an IBAN, its
// start or its last digits, spaced or not, is matched here, on every
// account read: the same accounts, in the same order, as the whole list
// filtered by hand, with the server's search for an account number's
// digits after them; each page at most its size, each account once.
func TestEmulatorIBANPartSearch(t *testing.T) {
	t.Parallel()
	// An emulator of its own, of some hundreds of accounts: every read
	// scans them all, several times per case, which on the package's
	// 10,000 took seconds of CPU for the same checks (a scan costs a
	// request per 100 accounts whatever their number).
	info := newSplitEmulator(t, 700).info
	c := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil)
	ctx := context.Background()
	all := loadAll(t, c, AccountsQuery(""))
	var target Account
	for _, a := range all[40:] {
		if strings.HasPrefix(a.IBAN, "FR") {
			target = a
			break
		}
	}
	whole := iban.Compact(target.IBAN)
	if whole == "" {
		t.Fatal("no French IBAN among the accounts")
	}
	for _, p := range []AccountsParams{{MainIBAN: whole[:12]}, {Search: whole}, {Search: whole[len(whole)-7:]}} {
		page, err := c.Accounts(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range page.Items {
			if a.ID == target.ID {
				t.Fatalf("the platform's filters %+v match a part of an IBAN: the emulator is not faithful", p)
			}
		}
	}

	last := whole[len(whole)-7:]
	cases := []struct {
		search string
		want   func() []Account
	}{
		{iban.Format(whole)[:14], func() []Account { return matching(all, whole[:12]) }},
		{last[:3] + " " + last[3:], func() []Account {
			// The IBANs that end with the digits, then the accounts the
			// server's search finds for them (numbers), once.
			out := matching(all, last)
			for _, a := range loadAll(t, c, AccountsParams{Search: last, OrderBy: OrderCreatedAt, Direction: DirectionDesc}) {
				if !iban.HasPart(a.IBAN, last) {
					out = append(out, a)
				}
			}
			return out
		}},
	}
	for _, tc := range cases {
		p := AccountsQuery(tc.search)
		if p.IBANPart == "" || p.MainIBAN != "" || p.Search != "" {
			t.Fatalf("%q is not searched as a part of an IBAN: %+v", tc.search, p)
		}
		want := ids(tc.want())
		before := c.Status().Used
		got := ids(loadAll(t, c, p))
		t.Logf("%q: %d of %d accounts in %d requests", tc.search, len(got), len(all), c.Status().Used-before)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%q found %d accounts, want %d:\n%v\n%v", tc.search, len(got), len(want), got, want)
		}
		if !strings.Contains(","+strings.Join(got, ",")+",", ","+target.ID+",") {
			t.Fatalf("%q did not find %s (%s)", tc.search, target.ID, target.IBAN)
		}
		// In pages of 7: at most 7 each, the same accounts.
		p.First = 7
		var paged []Account
		err := Walk(ctx, Pages(c.Accounts, p), func(page *Page[Account]) error {
			if len(page.Items) > 7 {
				t.Errorf("a page of %d for 7", len(page.Items))
			}
			paged = append(paged, page.Items...)
			return nil
		})
		if err != nil || strings.Join(ids(paged), ",") != strings.Join(want, ",") {
			t.Fatalf("%q in pages of 7: %v, %d accounts, want %d", tc.search, err, len(paged), len(want))
		}
		// It says how far it has read, up to every account.
		p.First = 0
		var read, of, calls int
		pctx := WithScanProgress(ctx, func(r, o int) {
			if r < read {
				t.Errorf("progress went back from %d to %d", read, r)
			}
			read, of, calls = r, o, calls+1
		})
		if _, err := collect(pctx, Pages(c.Accounts, p)); err != nil {
			t.Fatal(err)
		}
		if read != len(all) || of != len(all) || calls < len(all)/100 {
			t.Errorf("%q: the last progress is %d of %d after %d reports, want %d of %d", tc.search, read, of, calls, len(all), len(all))
		}
	}
}

// matching are the accounts of all whose IBAN has part, in order.
func matching(all []Account, part string) []Account {
	var out []Account
	for _, a := range all {
		if iban.HasPart(a.IBAN, part) {
			out = append(out, a)
		}
	}
	return out
}

// A cursor of another list is refused, not read as a position.
func TestIBANPartCursorIsItsOwn(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"YWNjb3VudDox", "ibanpart:", "ibanpart:all:x:0:", "ibanpart:other:0:0:", "ibanpart:all:-1:0:", "ibanpart:all:0:"} {
		if _, err := parsePartCursor(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	for _, pc := range []partCursor{{}, {search: true, after: "Y3Vyc29yOjE=", skip: 3, read: 10000}} {
		if got, err := parsePartCursor(pc.String()); err != nil || got != pc {
			t.Errorf("%+v: %+v, %v", pc, got, err)
		}
	}
}
