package data

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func mustStore(t testing.TB, env string, seed int64, n int) *Store {
	t.Helper()
	s, err := New(Config{Env: env, Seed: seed, Accounts: n})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestIBANsAreValidAndMatchCountry(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 7, 5000)
	prefix := map[string]string{"FRA": "FR", "DEU": "DE", "ESP": "ES", "ITA": "IT", "NLD": "NL", "BEL": "BE"}
	length := map[string]int{"FR": 27, "DE": 22, "ES": 24, "IT": 27, "NL": 18, "BE": 16}
	seen := map[string]bool{}
	countries := map[string]int{}
	for _, a := range s.AllAccounts() {
		if !ValidIBAN(a.IBAN) {
			t.Fatalf("account %s has IBAN %s with wrong check digits", a.ID, a.IBAN)
		}
		cc := prefix[a.Country]
		if !strings.HasPrefix(a.IBAN, cc) || len(a.IBAN) != length[cc] {
			t.Fatalf("account in %s has IBAN %s (want prefix %s, length %d)", a.Country, a.IBAN, cc, length[cc])
		}
		if seen[a.IBAN] {
			t.Fatalf("IBAN %s generated twice", a.IBAN)
		}
		seen[a.IBAN] = true
		countries[a.Country]++
		if len(a.BIC) != 8 && len(a.BIC) != 11 {
			t.Fatalf("BIC %q has a wrong length", a.BIC)
		}
		if a.BIC[4:6] != cc {
			t.Fatalf("BIC %s does not carry the account country %s", a.BIC, cc)
		}
	}
	if len(countries) != 6 {
		t.Fatalf("want all six countries, got %v", countries)
	}
	for _, iban := range counterpartyIBANs {
		if !ValidIBAN(iban) {
			t.Fatalf("counterparty IBAN %s is invalid", iban)
		}
	}
}

func TestIBANCheckDigitsKnownValues(t *testing.T) {
	t.Parallel()
	// Published examples: the check digits must come out identical.
	for _, iban := range []string{"FR7630006000011234567890189", "DE89370400440532013000", "BE68539007547034", "NL91ABNA0417164300"} {
		if got := iban[:2] + twoDigits(ibanCheck(iban[:2], iban[4:])) + iban[4:]; got != iban {
			t.Errorf("check digits of %s computed as %s", iban, got)
		}
	}
	if ValidIBAN("FR7630006000011234567890188") {
		t.Error("a changed digit must invalidate the IBAN")
	}
	// French RIB key of the published example.
	if k := ribKey("30006", "00001", "12345678901"); k != "89" {
		t.Errorf("RIB key = %s, want 89", k)
	}
}

func TestDeterministicBySeed(t *testing.T) {
	t.Parallel()
	a := mustStore(t, "sandbox", 42, 300)
	b := mustStore(t, "sandbox", 42, 300)
	c := mustStore(t, "sandbox", 43, 300)
	l := mustStore(t, "live", 42, 300)
	if !reflect.DeepEqual(a.accounts, b.accounts) {
		t.Fatal("two stores with one seed differ")
	}
	if !reflect.DeepEqual(a.DemoUsers(), b.DemoUsers()) {
		t.Fatal("users differ for one seed")
	}
	if a.accounts[0].ID == c.accounts[0].ID || a.accounts[0].ID == l.accounts[0].ID {
		t.Fatal("another seed or environment must give other accounts")
	}
	ta := a.history(&a.accounts[10], true)
	tb := b.history(&b.accounts[10], true)
	if !reflect.DeepEqual(ta, tb) {
		t.Fatal("transactions differ for one seed")
	}
	if len(ta) < 20 || len(ta) > 44 {
		t.Fatalf("want a few dozen transactions, got %d", len(ta))
	}
}

func TestDataMix(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 1, 2000)
	count := func(f func(*Account) string) map[string]int {
		m := map[string]int{}
		for _, a := range s.AllAccounts() {
			m[f(a)]++
		}
		return m
	}
	status := count(func(a *Account) string { return a.Status })
	if status["Opened"] < 1500 || status["Closed"] == 0 || status["Suspended"] == 0 || status["Closing"] == 0 {
		t.Errorf("status mix %v", status)
	}
	cur := count(func(a *Account) string { return a.Currency })
	if cur["EUR"] < 1800 || len(cur) < 3 {
		t.Errorf("currency mix %v", cur)
	}
	holder := count(func(a *Account) string { return a.HolderType })
	if holder["Individual"] == 0 || holder["Company"] == 0 {
		t.Errorf("holder mix %v", holder)
	}
	levels := count(func(a *Account) string { return a.PaymentLevel })
	if levels["Limited"] == 0 || levels["Unlimited"] == 0 {
		t.Errorf("payment levels %v", levels)
	}
	for _, a := range s.AllAccounts()[:200] {
		b := s.Balances(a)
		if b.Booked < 0 {
			t.Fatalf("account %s is overdrawn: %d", a.ID, b.Booked)
		}
		if b.Available != b.Booked+b.Pending-b.Reserved {
			t.Fatalf("available %d != booked %d + pending %d - reserved %d", b.Available, b.Booked, b.Pending, b.Reserved)
		}
	}
}

func TestUserMemberships(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 1, 1000)
	users := s.DemoUsers()
	if len(users) < 3 {
		t.Fatalf("want several sandbox demo users, got %d", len(users))
	}
	first := len(s.view(Viewer{UserID: users[0].ID}, "createdAt"))
	second := len(s.view(Viewer{UserID: users[1].ID}, "createdAt"))
	if first < 600 || second >= first || second == 0 {
		t.Fatalf("first user sees %d accounts, second %d: the first must see most", first, second)
	}
	if n := len(s.view(Viewer{UserID: users[len(users)-1].ID}, "createdAt")); n != 0 {
		t.Fatalf("the last demo user must have no accounts, has %d", n)
	}
	id := s.SignIn("+33700000001")
	if id2 := s.SignIn("+33700000001"); id2 != id {
		t.Fatal("signing in twice with one phone must give the same user")
	}
	if p, ok := s.Phone(id); !ok || p != "+33700000001" {
		t.Fatalf("Phone = %q, %v", p, ok)
	}
	if s.SignIn(users[0].Phone) != users[0].ID {
		t.Fatal("a demo phone must sign in as its demo user")
	}
	d := Directory{Sandbox: s, Live: mustStore(t, "live", 1, 10)}
	if d.SignIn("live", users[0].Phone) == users[0].ID {
		t.Fatal("a sandbox user must not exist in live")
	}
}

func TestPaginationWalksAllOrders(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 3, 537)
	users := s.DemoUsers()
	for _, v := range []Viewer{{Project: true}, {UserID: users[1].ID}} {
		for _, order := range []string{"createdAt", "updatedAt"} {
			for _, desc := range []bool{false, true} {
				q := AccountQuery{Viewer: v, First: 50, OrderBy: order, Desc: desc}
				seen := map[string]bool{}
				var prev *Account
				total := -1
				for pages := 0; ; pages++ {
					p, err := s.Accounts(q)
					if err != nil {
						t.Fatal(err)
					}
					total = p.TotalCount
					if pages > 0 && !p.HasPreviousPage {
						t.Fatal("a later page must have a previous page")
					}
					for _, a := range p.Items {
						if seen[a.ID] {
							t.Fatalf("%s duplicate %s", order, a.ID)
						}
						seen[a.ID] = true
						if prev != nil {
							k1, k2 := prev.CreatedAt, a.CreatedAt
							if order == "updatedAt" {
								k1, k2 = prev.UpdatedAt, a.UpdatedAt
							}
							if (!desc && k2.Before(k1)) || (desc && k2.After(k1)) {
								t.Fatalf("order %s desc=%v broken: %v then %v", order, desc, k1, k2)
							}
						}
						prev = a
					}
					if !p.HasNextPage {
						break
					}
					q.After = p.Items[len(p.Items)-1].Cursor()
				}
				if len(seen) != total {
					t.Fatalf("walked %d accounts, totalCount %d", len(seen), total)
				}
			}
		}
	}
}

func TestPaginationBeforeAndFilters(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 3, 300)
	all, err := s.Accounts(AccountQuery{Viewer: Viewer{Project: true}, First: 100})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Accounts(AccountQuery{Viewer: Viewer{Project: true}, First: 100, Before: all.Items[10].Cursor()})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 10 || p.Items[9] != all.Items[9] || p.HasPreviousPage {
		t.Fatalf("before: got %d accounts", len(p.Items))
	}
	p, err = s.Accounts(AccountQuery{Viewer: Viewer{Project: true}, First: 100, Statuses: []string{"Closed"}, PaymentLevels: []string{"Unlimited"}})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, a := range s.AllAccounts() {
		if a.Status == "Closed" && a.PaymentLevel == "Unlimited" {
			want++
		}
	}
	if p.TotalCount != want || len(p.Items) != want {
		t.Fatalf("filter: total %d, page %d, want %d", p.TotalCount, len(p.Items), want)
	}
	for _, a := range p.Items {
		if a.Status != "Closed" || a.PaymentLevel != "Unlimited" {
			t.Fatalf("filter let %s/%s through", a.Status, a.PaymentLevel)
		}
	}
	target := s.accounts[123]
	for _, term := range []string{strings.ToUpper(target.HolderName), target.Number, target.ID[:13]} {
		p, err = s.Accounts(AccountQuery{Viewer: Viewer{Project: true}, First: 100, Search: term})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range p.Items {
			found = found || a.ID == target.ID
		}
		if !found {
			t.Fatalf("search %q did not find the account", term)
		}
	}
	if _, err := s.Accounts(AccountQuery{Viewer: Viewer{Project: true}, First: 10, After: "garbage"}); !errors.Is(err, ErrBadCursor) {
		t.Fatalf("bad cursor: %v", err)
	}
}

// TestMainIBANFilterCombines checks that mainIBAN narrows the connection
// and the other filters and cursors still apply to what is left.
func TestMainIBANFilterCombines(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 3, 300)
	target := &s.accounts[42]
	spaced := strings.ToLower(target.IBAN[:4] + " " + target.IBAN[4:])
	project := Viewer{Project: true}
	otherStatus := "Opened"
	if target.Status == otherStatus {
		otherStatus = "Closed"
	}
	cases := []struct {
		name      string
		q         AccountQuery
		total     int
		page      int
		next, prv bool
	}{
		{"alone", AccountQuery{MainIBAN: spaced, First: 5}, 1, 1, false, false},
		{"matching search", AccountQuery{MainIBAN: target.IBAN, Search: target.ID, First: 5}, 1, 1, false, false},
		{"other search", AccountQuery{MainIBAN: target.IBAN, Search: s.accounts[43].ID, First: 5}, 0, 0, false, false},
		{"other status", AccountQuery{MainIBAN: target.IBAN, Statuses: []string{otherStatus}, First: 5}, 0, 0, false, false},
		{"after itself", AccountQuery{MainIBAN: target.IBAN, After: target.Cursor(), First: 5}, 1, 0, false, true},
		{"first 0", AccountQuery{MainIBAN: target.IBAN, First: 0}, 1, 0, true, false},
		{"unknown IBAN", AccountQuery{MainIBAN: "FR7630006000011234567890189", First: 5}, 0, 0, false, false},
	}
	for _, c := range cases {
		c.q.Viewer = project
		p, err := s.Accounts(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.TotalCount != c.total || len(p.Items) != c.page || p.HasNextPage != c.next || p.HasPreviousPage != c.prv {
			t.Fatalf("%s: total %d, page %d, next %v, previous %v; want %d, %d, %v, %v",
				c.name, p.TotalCount, len(p.Items), p.HasNextPage, p.HasPreviousPage, c.total, c.page, c.next, c.prv)
		}
		if c.page == 1 && p.Items[0] != target {
			t.Fatalf("%s: got account %s, want %s", c.name, p.Items[0].ID, target.ID)
		}
	}
	// A user who is not a member does not see the account by its IBAN.
	nobody := s.users[len(s.users)-1].ID
	p, err := s.Accounts(AccountQuery{Viewer: Viewer{UserID: nobody}, MainIBAN: target.IBAN, First: 5})
	if err != nil || p.TotalCount != 0 || len(p.Items) != 0 {
		t.Fatalf("non-member: %+v, %v", p, err)
	}
}

func TestReceiveTransfer(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	s, err := New(Config{Env: "sandbox", Seed: 1, Accounts: 50, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	var a *Account
	for _, x := range s.AllAccounts() {
		if x.Currency == "EUR" && x.Status != "Closed" {
			a = x
			break
		}
	}
	before := s.Balances(a)
	tx, err := s.ReceiveTransfer(Viewer{Project: true}, IncomingTransfer{CreditorIBAN: a.IBAN, Amount: 12345, Currency: "EUR", DebtorName: "Jane", DebtorIBAN: "DE89370400440532013000"})
	id := tx.ID
	if err != nil {
		t.Fatal(err)
	}
	// Received: Pending, available at once, not yet booked.
	pending := s.Balances(a)
	if pending.Booked != before.Booked || pending.Pending-before.Pending != 12345 || pending.Available-before.Available != 12345 {
		t.Fatalf("balances moved from %+v to %+v when received", before, pending)
	}
	page, err := s.Transactions(a, TransactionQuery{First: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tx := page.Items[0]; tx.ID != id || tx.Status != "Pending" {
		t.Fatalf("newest transaction is %+v, want %s Pending", tx, id)
	}
	// Booked: it moves from pending to booked and carries the balance.
	if err := s.BookTransfer(a.ID, id); err != nil {
		t.Fatal(err)
	}
	after := s.Balances(a)
	if after.Booked-before.Booked != 12345 || after.Pending != before.Pending || after.Available-before.Available != 12345 {
		t.Fatalf("balances moved from %+v to %+v when booked", before, after)
	}
	page, err = s.Transactions(a, TransactionQuery{First: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tx := page.Items[0]; tx.ID != id || tx.Status != "Booked" || tx.BalanceAfter != after.Booked {
		t.Fatalf("newest transaction is %+v, want %s Booked with balance %d", tx, id, after.Booked)
	}
	if err := s.BookTransfer(a.ID, id); !errors.Is(err, ErrForbidden) {
		t.Fatalf("booking twice: %v", err)
	}
	if err := s.BookTransfer(a.ID, "bosci_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("booking an unknown transaction: %v", err)
	}
	if _, err := s.ReceiveTransfer(Viewer{UserID: "nobody"}, IncomingTransfer{CreditorIBAN: a.IBAN, Amount: 1, Currency: "EUR"}); !errors.Is(err, ErrForbidden) {
		t.Fatalf("a stranger's transfer: %v", err)
	}
}

func TestParseAndFormatAmount(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"100": 10000, "12.5": 1250, "0.01": 1, "7.05": 705} {
		if got, err := ParseAmount(in); err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "-1", "1.234", "abc", "1.", ".5", "1e3"} {
		if _, err := ParseAmount(bad); err == nil {
			t.Errorf("ParseAmount(%q) accepted", bad)
		}
	}
	if FormatCents(-150) != "-1.50" || FormatCents(5) != "0.05" {
		t.Error("FormatCents")
	}
}

func TestMaxAccountsHaveUniqueValidIBANs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates 100,000 accounts")
	}
	s := mustStore(t, "sandbox", 1, MaxAccounts)
	if s.Len() != MaxAccounts {
		t.Fatalf("generated %d", s.Len())
	}
	seen := make(map[string]bool, MaxAccounts)
	for _, a := range s.AllAccounts() {
		if !ValidIBAN(a.IBAN) {
			t.Fatalf("IBAN %s has wrong check digits", a.IBAN)
		}
		if seen[a.IBAN] {
			t.Fatalf("IBAN %s generated twice", a.IBAN)
		}
		seen[a.IBAN] = true
	}
	if _, err := New(Config{Env: "sandbox", Accounts: MaxAccounts + 1}); err == nil {
		t.Fatal("more than MaxAccounts must be refused")
	}
}

func BenchmarkGenerate100k(b *testing.B) {
	for b.Loop() {
		mustStore(b, "sandbox", 1, MaxAccounts)
	}
}

func TestLightGenerationMatchesFull(t *testing.T) {
	t.Parallel()
	s := mustStore(t, "sandbox", 9, 40)
	for _, a := range s.AllAccounts() {
		full, light := s.history(a, true), s.history(a, false)
		if len(full) != len(light) {
			t.Fatalf("lengths %d and %d", len(full), len(light))
		}
		for i := range full {
			f, l := full[i], light[i]
			if f.Amount != l.Amount || f.Side != l.Side || f.Status != l.Status || f.BalanceAfter != l.BalanceAfter || !f.ExecutionDate.Equal(l.ExecutionDate) {
				t.Fatalf("transaction %d differs: %+v vs %+v", i, f, l)
			}
			if f.ID == "" || f.Label == "" || f.Reference == "" {
				t.Fatalf("full transaction lacks text: %+v", f)
			}
		}
	}
}

func BenchmarkFilteredPage100k(b *testing.B) {
	s := mustStore(b, "sandbox", 1, MaxAccounts)
	for _, q := range []AccountQuery{
		{Viewer: Viewer{Project: true}, First: 100, Statuses: []string{"Suspended"}},
		{Viewer: Viewer{Project: true}, First: 100, Search: "müller"},
	} {
		b.Run(q.Search+"|"+strings.Join(q.Statuses, ","), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Accounts(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
