package api

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
	"github.com/partnertui/partnertui/internal/testkit"
	"github.com/partnertui/partnertui/internal/testkit/signin"
)

const emulatorAccounts = 10000

// sharedEmulator is started once for the package's tests and benchmarks:
// generating 10,000 accounts is not free. Its rate limit is lifted so the
// benchmarks can run many iterations; the 429 path is covered by the
// httptest fault servers.
var (
	emulatorStarted atomic.Bool
	sharedEmulator  = sync.OnceValues(func() (*emulator.Server, error) {
		emulatorStarted.Store(true)
		return emulator.Start(context.Background(), emulator.Options{Accounts: emulatorAccounts, RateLimit: 1 << 30, SigningKey: emulatortest.SigningKey()})
	})
)

// TestMain runs up to 8 tests at once (testkit.RunWaiting): many wait on
// fault servers' timeouts, other processes or the shared emulator's
// start, which one test per core leaves the cores idle for.
func TestMain(m *testing.M) {
	testkit.RunWaiting(m, func() {
		if emulatorStarted.Load() { // never start one just to close it
			if srv, err := sharedEmulator(); err == nil {
				_ = srv.Close()
			}
		}
	})
}

func startEmulator(tb testing.TB) emulator.Info {
	tb.Helper()
	srv, err := sharedEmulator()
	if err != nil {
		tb.Fatalf("emulator.Start: %v", err)
	}
	return srv.Info()
}

func projectTokenSource(tb testing.TB, info emulator.Info, env string) oauth2.TokenSource {
	tb.Helper()
	e := info.Environments[env]
	cfg := clientcredentials.Config{
		ClientID:     e.ClientID,
		ClientSecret: e.ClientSecret,
		TokenURL:     info.AuthURL + "/oauth2/token",
		AuthStyle:    oauth2.AuthStyleInParams,
	}
	return cfg.TokenSource(context.Background())
}

func emulatorClient(tb testing.TB, info emulator.Info, env string, ts oauth2.TokenSource, mod func(*Options)) *Client {
	tb.Helper()
	e := info.Environments[env]
	opts := Options{Env: env, GraphQLURL: e.GraphQLURL, TestingURL: e.TestingGraphQLURL, TokenSource: ts}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	return c
}

func loadAll(t *testing.T, c *Client, p AccountsParams) []Account {
	t.Helper()
	all, err := collect(context.Background(), Pages(c.Accounts, p))
	if err != nil {
		t.Fatalf("walk after %d accounts: %v", len(all), err)
	}
	return all
}

func TestEmulatorPaginationOver10000Accounts(t *testing.T) {
	t.Parallel()
	info := startEmulator(t)
	c := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil)
	first, err := c.Accounts(context.Background(), AccountsParams{First: 1})
	if err != nil {
		t.Fatal(err)
	}
	if first.TotalCount != emulatorAccounts {
		t.Fatalf("totalCount = %d, want %d", first.TotalCount, emulatorAccounts)
	}
	before := c.Status().Used
	all, err := collect(context.Background(), Pages(c.Accounts, AccountsParams{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != emulatorAccounts {
		t.Fatalf("loaded %d accounts, want %d", len(all), emulatorAccounts)
	}
	seen := make(map[string]bool, len(all))
	for _, a := range all {
		if seen[a.ID] {
			t.Fatalf("duplicate account %s", a.ID)
		}
		seen[a.ID] = true
		if a.Name == "" || a.Currency == "" || a.StatusInfo.Status == "" {
			t.Fatalf("incomplete list account %+v", a)
		}
	}
	if used := c.Status().Used - before; used != 100 {
		t.Errorf("requests = %d, want ceil(10000/100) = 100", used)
	}
}

func TestEmulatorFilters(t *testing.T) {
	t.Parallel()
	info := startEmulator(t)
	c := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil)
	ctx := context.Background()
	page, err := c.Accounts(ctx, AccountsParams{First: 50})
	if err != nil {
		t.Fatal(err)
	}
	target := page.Items[17]
	found, err := c.Accounts(ctx, AccountsParams{Search: target.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Items) == 0 || found.TotalCount >= emulatorAccounts {
		t.Fatalf("search %q found %d of %d", target.ID, len(found.Items), found.TotalCount)
	}
	hit := false
	for _, a := range found.Items {
		hit = hit || a.ID == target.ID
	}
	if !hit {
		t.Errorf("search by id %s did not return it", target.ID)
	}

	for _, status := range []string{"Opened", "Closed"} {
		got := loadAll(t, c, AccountsParams{Status: []string{status}})
		if len(got) == 0 || len(got) >= emulatorAccounts {
			t.Errorf("status %s: %d accounts", status, len(got))
		}
		for _, a := range got {
			if a.StatusInfo.Status != status {
				t.Fatalf("status filter %s returned %s (%s)", status, a.StatusInfo.Status, a.ID)
			}
		}
	}

	asc, err := c.Accounts(ctx, AccountsParams{First: 5, OrderBy: OrderCreatedAt, Direction: DirectionAsc})
	if err != nil {
		t.Fatal(err)
	}
	desc, err := c.Accounts(ctx, AccountsParams{First: 5, OrderBy: OrderCreatedAt, Direction: DirectionDesc})
	if err != nil {
		t.Fatal(err)
	}
	if asc.Items[0].ID == desc.Items[0].ID {
		t.Errorf("ascending and descending orders start with the same account %s", asc.Items[0].ID)
	}
}

func TestEmulatorAccountDetailAndProject(t *testing.T) {
	t.Parallel()
	info := startEmulator(t)
	c := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil)
	ctx := context.Background()
	page, err := c.Accounts(ctx, AccountsParams{First: 10})
	if err != nil {
		t.Fatal(err)
	}
	listed := page.Items[3]
	a, err := c.Account(ctx, listed.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != listed.ID || a.Name != listed.Name || a.IBAN != listed.IBAN || a.Holder.Info.Name != listed.Holder.Info.Name {
		t.Errorf("detail %+v does not match list entry %+v", a, listed)
	}
	if a.Number == "" || a.Country == "" || a.Language == "" || a.PaymentLevel == "" || a.PaymentAccountType == "" ||
		a.Holder.ID == "" || a.Holder.Info.Type == "" || a.Holder.VerificationStatus == "" || a.CreatedAt.IsZero() || a.UpdatedAt.IsZero() {
		t.Errorf("detail is missing fields: %+v", a)
	}
	if _, err := c.Account(ctx, "no-such-account"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing account: err = %v, want ErrNotFound", err)
	}
	p, err := c.ProjectInfo(ctx)
	if err != nil || p.ID == "" || p.Name == "" {
		t.Errorf("projectInfo = %+v, %v", p, err)
	}
}

func TestEmulatorCrossEnvironmentTokenIsUnauthorized(t *testing.T) {
	t.Parallel()
	info := startEmulator(t)
	// A sandbox token sent to the live endpoint.
	c := emulatorClient(t, info, "live", projectTokenSource(t, info, "sandbox"), nil)
	_, err := c.Accounts(context.Background(), AccountsParams{First: 1})
	var ue *UnauthorizedError
	if !errors.As(err, &ue) || ue.Status != http.StatusUnauthorized {
		t.Fatalf("err = %v, want *UnauthorizedError (401)", err)
	}
	if !strings.Contains(err.Error(), "live") || !strings.Contains(err.Error(), "refused the access token") {
		t.Errorf("message = %q", err)
	}
}

func TestEmulatorUserTransactionsAndSimulatedTransfer(t *testing.T) {
	t.Parallel()
	info := startEmulator(t)
	demo, userToken := sandboxUser(t, info)
	c := emulatorClient(t, info, "sandbox", userToken, nil)
	ctx := context.Background()

	u, err := c.User(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != demo.UserID || u.FirstName != demo.FirstName || u.MobilePhoneNumber != demo.Phone {
		t.Errorf("user = %+v, demo user = %+v", u, demo)
	}

	// The user sees the accounts they are a member of; pick one that can
	// receive a transfer.
	accounts, err := c.Accounts(ctx, AccountsParams{Status: []string{"Opened"}})
	if err != nil {
		t.Fatal(err)
	}
	var acc *Account
	for i := range accounts.Items {
		if accounts.Items[i].IBAN != "" && accounts.Items[i].Balances != nil {
			acc = &accounts.Items[i]
			break
		}
	}
	if acc == nil {
		t.Fatalf("the demo user has no open account with an IBAN among %d", len(accounts.Items))
	}
	before := decimal(t, acc.Balances.Available.Value)

	id, err := c.SimulateIncomingTransfer(ctx, IncomingTransfer{
		Amount:       Amount{Value: "12.34", Currency: acc.Currency},
		CreditorIBAN: acc.IBAN, CreditorName: acc.Holder.Info.Name,
		DebtorIBAN: "FR2730003000706315734174B93", DebtorName: "Test Debtor",
		Label: "api test transfer", Reference: "api-test-1",
	})
	if err != nil {
		t.Fatalf("simulate transfer: %v", err)
	}
	if id == "" {
		t.Fatal("no transaction id")
	}

	after, err := c.Account(ctx, acc.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Rat).Add(before, decimal(t, "12.34"))
	if got := decimal(t, after.Balances.Available.Value); got.Cmp(want) != 0 {
		t.Errorf("available after the transfer = %s, want %s", got.FloatString(2), want.FloatString(2))
	}

	tx, err := c.TransactionList(ctx, TransactionsParams{AccountID: acc.ID, First: 10, OrderBy: TxOrderCreatedAt, Direction: DirectionDesc})
	if err != nil {
		t.Fatal(err)
	}
	if len(tx.Items) == 0 || tx.Items[0].ID != id {
		t.Fatalf("newest transaction is not the simulated one %s: %+v", id, tx.Items)
	}
	got := tx.Items[0]
	if got.Side != "Credit" || decimal(t, got.Amount.Value).Cmp(decimal(t, "12.34")) != 0 || got.Label == "" ||
		got.Counterparty == "" || got.ExecutionDate.IsZero() || got.StatusInfo.Status == "" || got.Type == "" {
		t.Errorf("transaction = %+v", got)
	}
	if tx.TotalCount < 1 {
		t.Errorf("totalCount = %d", tx.TotalCount)
	}
}

func decimal(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("not a decimal: %q", s)
	}
	return r
}

// sandboxUser is the emulator's first Sandbox demo user, signed in through
// the real auth package playing the browser on the emulator's forms, and
// the persisting token source of that session.
func sandboxUser(t *testing.T, info emulator.Info) (emulator.DemoUser, oauth2.TokenSource) {
	t.Helper()
	e := &testkit.Emulator{Info: info}
	s := signin.Session(t, e, e.Env(t, config.Sandbox), t.TempDir())
	return e.DemoUser(t, config.Sandbox), s.TokenSource()
}

// TestEmulatorHomeIsOneRequest: the first screen's data (who the token
// belongs to and the first page of accounts) costs one request, for a user
// token and for a project token alike.
func TestEmulatorHomeIsOneRequest(t *testing.T) {
	t.Parallel()
	info := startEmulator(t)
	demo, userToken := sandboxUser(t, info)
	ctx := context.Background()
	user := emulatorClient(t, info, "sandbox", userToken, nil)
	h, err := user.Home(ctx, AccountsParams{First: 20, OrderBy: OrderCreatedAt, Direction: DirectionDesc}, false)
	if err != nil {
		t.Fatal(err)
	}
	if h.User == nil || h.User.ID != demo.UserID || h.Project != nil || len(h.Accounts.Items) == 0 {
		t.Fatalf("home = %+v", h)
	}
	if used := user.Status().Used; used != 1 {
		t.Errorf("the user's home took %d requests, want 1", used)
	}

	project := emulatorClient(t, info, "sandbox", projectTokenSource(t, info, "sandbox"), nil)
	h, err = project.Home(ctx, AccountsParams{First: 20}, true)
	if err != nil {
		t.Fatal(err)
	}
	if h.Project == nil || h.Project.ID == "" || h.User != nil || len(h.Accounts.Items) != 20 {
		t.Fatalf("project home = %+v", h)
	}
	if used := project.Status().Used; used != 1 {
		t.Errorf("the project's home took %d requests, want 1", used)
	}
}
