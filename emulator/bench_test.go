package emulator

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	testclock "github.com/partnertui/partnertui/internal/testkit/clock"
)

// benchPage runs one GraphQL request per iteration through the whole
// handler (middleware, limits, auth, exec) with the project token.
func benchPage(b *testing.B, h http.Handler, query string, vars map[string]any) {
	b.Helper()
	benchPageAs(b, h, tokSandboxProject, query, vars)
}

// benchPageAs is benchPage with the token tok.
func benchPageAs(b *testing.B, h http.Handler, tok, query string, vars map[string]any) {
	b.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/sandbox-partner/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
			b.Fatalf("status %d: %.500s", rec.Code, rec.Body)
		}
	}
}

// benchSizes are the data set sizes every page benchmark compares: a
// page must cost about the same at both.
var benchSizes = []int{1000, 100_000}

// BenchmarkAccountsPage is a page of 100 accounts from a cursor in the
// middle of the data set.
func BenchmarkAccountsPage(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			h, sb := projectHandler(b, n)
			benchPage(b, h, `query Page($after: String) { accounts(first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor }
			  edges { cursor node { id name IBAN BIC currency statusInfo { status } holder { info { name } } balances { available { value currency } } } } } }`,
				map[string]any{"after": sb.AllAccounts()[n/2].Cursor()})
		})
	}
}

// BenchmarkUserHome is the app's first screen for the first demo user
// (a member of most accounts): who they are and their 100 newest accounts,
// the query partnertui sends at launch.
func BenchmarkUserHome(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			h, _ := projectHandler(b, n)
			benchPageAs(b, h, tokSandboxUser0, `query Home($first: Int!, $orderBy: AccountOrderByInput) {
			  user { id firstName lastName fullName mobilePhoneNumber birthDate status identificationLevels { PVID QES expert } createdAt }
			  accounts(first: $first, orderBy: $orderBy) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
			    edges { node { id name IBAN BIC currency statusInfo { status } holder { info { name } } balances { available { value currency } } createdAt } } } }`,
				map[string]any{"first": 100, "orderBy": map[string]any{"field": "createdAt", "direction": "Desc"}})
		})
	}
}

// BenchmarkRootTransactionsPage is a page of 100 of the project's
// transactions in the default order (updatedAt desc): the newest page,
// and one from a cursor half-way back in time.
func BenchmarkRootTransactionsPage(b *testing.B) {
	const q = `query Page($after: String) { transactions(first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor }
	  edges { cursor node { __typename id type side amount { value currency } label counterparty executionDate
	    statusInfo { status ... on BookedTransactionStatusInfo { bookingDate } } account { id name } } } } }`
	for _, n := range benchSizes {
		h, sb := projectHandler(b, n)
		mid, err := sb.RootTransactions(b.Context(), data.TransactionQuery{First: 1, Filter: data.TransactionFilter{BeforeUpdatedAt: time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)}})
		if err != nil || len(mid.Items) == 0 {
			b.Fatalf("no transaction half-way back: %v", err)
		}
		b.Run(fmt.Sprintf("accounts=%d/newest", n), func(b *testing.B) { benchPage(b, h, q, nil) })
		b.Run(fmt.Sprintf("accounts=%d/middle", n), func(b *testing.B) {
			benchPage(b, h, q, map[string]any{"after": data.TransactionCursor(&mid.Items[0])})
		})
	}
}

// BenchmarkMembershipsPage is a page of 100 of the project's memberships
// from a cursor in the middle, with each one's user and cards.
func BenchmarkMembershipsPage(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			h, sb := projectHandler(b, n)
			m := sb.LegalRepresentative(sb.AllAccounts()[n/2])
			benchPage(b, h, `query Page($after: String) { accountMemberships(first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor }
			  edges { cursor node { id email canViewAccount statusInfo { status } user { id fullName } cards(first: 2) { totalCount edges { node { id cardMaskedNumber } } } } } } }`,
				map[string]any{"after": data.MembershipCursor(&m)})
		})
	}
}

// BenchmarkRateLimiter is one request of a client that stays at the limit,
// so every call lets an old entry fall out of the window.
func BenchmarkRateLimiter(b *testing.B) {
	clock := testclock.New(time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC))
	l := newRateLimiter(DefaultRateLimit, time.Second, clock.Now)
	step := time.Second / DefaultRateLimit
	for range DefaultRateLimit {
		l.allow("127.0.0.1 /sandbox-partner/graphql")
		clock.Advance(step)
	}
	for b.Loop() {
		if ok, _ := l.allow("127.0.0.1 /sandbox-partner/graphql"); !ok {
			b.Fatal("a client at the limit was refused")
		}
		clock.Advance(step)
	}
}

// BenchmarkWebhookDeliveryLatency is the time from the simulate mutation
// entering the handler to the receiver getting the Transaction.Pending
// POST, in-process; it reports the median and the 90th percentile of the
// iterations (run with -benchtime=20x for the median of 20).
func BenchmarkWebhookDeliveryLatency(b *testing.B) {
	h, sb := projectHandler(b, 200)
	arrived := make(chan time.Time, 1)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- time.Now()
	}))
	b.Cleanup(rc.Close)
	post := func(path, query string, vars map[string]any) {
		body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokSandboxProject)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) || bytes.Contains(rec.Body.Bytes(), []byte(`Rejection"`)) {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
	post(pathSandbox, opAddSubscription, map[string]any{"input": map[string]any{
		"label": "bench", "endpoint": rc.URL, "eventTypes": []string{"Transaction.Pending"}, "status": "Enabled"}})
	var iban string
	for _, a := range sb.AllAccounts() {
		if a.Currency == "EUR" && a.Status == "Opened" {
			iban = a.IBAN
			break
		}
	}
	in := map[string]any{"input": map[string]any{"amount": map[string]any{"value": "1.00", "currency": "EUR"}, "creditorIban": iban,
		"creditorName": "Bench", "debtorIban": "FR2730003000706315734174B93", "debtorName": "Bench SAS"}}
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		post(pathAdmin, opSimulate, in)
		lat = append(lat, (<-arrived).Sub(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "µs-median")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds()), "µs-p90")
}

// BenchmarkStartWithSchemas is the emulator's start-up without a schema
// and with the public schemas brought (both environments' endpoints built
// at start): the difference is the cost of loading them, parsing, checking
// the model against them and indexing them for generation.
func BenchmarkStartWithSchemas(b *testing.B) {
	for name, opts := range map[string]Options{"model": {Accounts: 5}, "reference": referenceOptions(b)} {
		b.Run(name, func(b *testing.B) {
			key, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				b.Fatal(err)
			}
			opts.SigningKey = key
			for b.Loop() {
				srv, err := Start(b.Context(), opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := srv.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGeneratedPage is a page of the size the platform's web app
// shows, answered entirely by generation: 50 account holders with a dozen
// fields each, their status, address and first accounts. It reports the
// median of the iterations besides the mean.
func BenchmarkGeneratedPage(b *testing.B) {
	opts := referenceOptions(b)
	opts.Accounts, opts.RateLimit, opts.RateWindow = 5, 1<<30, time.Second
	h := referenceHandler(b, opts)
	body, _ := json.Marshal(map[string]any{"query": `query Page($after: String) { accountHolders(first: 50, after: $after) {
	  totalCount pageInfo { hasNextPage endCursor }
	  edges { cursor node { id verificationStatus createdDate updatedDate
	    info { __typename type name ... on AccountHolderCompanyInfo { registrationNumber vatNumber companyType } }
	    statusInfo { __typename status }
	    residencyAddress { addressLine1 city postalCode country }
	    accounts(first: 3) { totalCount edges { node { id name IBAN BIC currency } } } } } } }`})
	var lat []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		req := httptest.NewRequest(http.MethodPost, pathSandbox, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokSandboxProject)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		lat = append(lat, time.Since(start))
		if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
			b.Fatalf("status %d: %.500s", rec.Code, rec.Body)
		}
		b.SetBytes(int64(rec.Body.Len()))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "µs-median")
}

// BenchmarkModelledPageWithSchemas is BenchmarkAccountsPage's page with
// the public schemas brought: the model answers it through the checks of
// what was set over its objects.
func BenchmarkModelledPageWithSchemas(b *testing.B) {
	opts := referenceOptions(b)
	opts.Accounts, opts.RateLimit, opts.RateWindow = 1000, 1<<30, time.Second
	h := referenceHandler(b, opts)
	benchPage(b, h, `query Page { accounts(first: 100) { totalCount pageInfo { hasNextPage endCursor }
	  edges { cursor node { id name IBAN BIC currency statusInfo { status } holder { info { name } } balances { available { value currency } } } } } }`, nil)
}

// referenceHandler is projectHandler's handler serving opts' schemas.
func referenceHandler(tb testing.TB, opts Options) http.Handler {
	tb.Helper()
	opts, err := withDefaults(opts)
	if err != nil {
		tb.Fatal(err)
	}
	schemas, err := loadServed(opts)
	if err != nil {
		tb.Fatal(err)
	}
	envs, err := newEnvironments(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { closeAll(envs) })
	tokens := fakeTokens{tokSandboxProject: {Env: "sandbox", Project: true}}
	h, err := newHandler(handlerConfig{envs: envs, tokens: tokens, opts: opts, schemas: schemas})
	if err != nil {
		tb.Fatal(err)
	}
	return h
}
