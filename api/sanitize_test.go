package api

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

const hostile = "\x1b]0;pwn\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\u009b1;1H\x1bPdcs\x1b\\\x1b_apc\x1b\\\tname\x7f\x00\u202e"

// fillStrings sets every string field reachable from v (a pointer) to s,
// allocating nil struct pointers and one element of every slice on the way.
func fillStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem(), s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillStrings(v.Field(i), s)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fillStrings(v.Index(i), s)
		}
	case reflect.String:
		v.SetString(s)
	}
}

// checkStrings fails for every string reachable from v that is not what
// stripping hostile leaves (the tab becomes a space; everything else goes).
func checkStrings(t *testing.T, path string, v reflect.Value) int {
	t.Helper()
	n := 0
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			n += checkStrings(t, path, v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				n += checkStrings(t, path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			n += checkStrings(t, path, v.Index(i))
		}
	case reflect.String:
		if v.String() == "" {
			return 0 // a field this operation does not fetch
		}
		n++
		if v.String() != " name" {
			t.Errorf("%s = %q after decoding, want %q", path, v.String(), " name")
		}
	}
	return n
}

// hostileServer answers every operation with data of the operation's own
// shape in which every string is hostile: whatever field a response type
// gains later, the test covers it.
func hostileServer(t *testing.T) http.Handler {
	t.Helper()
	shapes := map[string]any{
		OpAccounts: &accountsQuery{}, OpAccount: &accountQuery{}, OpUser: &userQuery{},
		OpProjectInfo: &projectInfoQuery{}, OpAccountTransactions: &transactionsQuery{}, OpSimulateTransfer: &simulateMutation{},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := decodeReq(t, r)
		shape, ok := shapes[q.OperationName]
		if !ok {
			t.Errorf("no hostile shape for %s", q.OperationName)
			return
		}
		v := reflect.New(reflect.TypeOf(shape).Elem())
		fillStrings(v, hostile)
		data, _ := json.Marshal(v.Interface())
		if _, ok := v.Interface().(*simulateMutation); ok {
			// A union member comes back flattened, as GraphQL sends it.
			data, _ = json.Marshal(map[string]any{"simulateIncomingSepaCreditTransferReception": map[string]any{
				"__typename": "ForbiddenRejection", "message": hostile}})
		}
		writeJSON200(w, map[string]json.RawMessage{"data": data})
	})
}

// TestEveryDecodedStringIsStripped runs each operation against a server
// that puts escape sequences in every string and checks that no string of
// any result the client hands out keeps one.
func TestEveryDecodedStringIsStripped(t *testing.T) {
	c, _, _ := newTestClient(t, hostileServer(t), nil)
	ctx := context.Background()
	total := 0
	page, err := c.Accounts(ctx, AccountsParams{})
	if err != nil {
		t.Fatal(err)
	}
	total += checkStrings(t, "AccountsPage", reflect.ValueOf(page))
	acct, err := c.Account(ctx, "acc-1")
	if err != nil {
		t.Fatal(err)
	}
	total += checkStrings(t, "Account", reflect.ValueOf(acct))
	u, err := c.User(ctx)
	if err != nil {
		t.Fatal(err)
	}
	total += checkStrings(t, "User", reflect.ValueOf(u))
	p, err := c.ProjectInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	total += checkStrings(t, "ProjectInfo", reflect.ValueOf(p))
	txs, err := c.Transactions(ctx, "acc-1", 10, "")
	if err != nil {
		t.Fatal(err)
	}
	total += checkStrings(t, "TransactionsPage", reflect.ValueOf(txs))
	_, err = c.SimulateIncomingTransfer(ctx, IncomingTransfer{})
	var rej *RejectionError
	if !asRejection(err, &rej) {
		t.Fatalf("simulate err = %v", err)
	}
	total += checkStrings(t, "RejectionError", reflect.ValueOf(rej).Elem().FieldByName("Message"))
	if total < 40 {
		t.Errorf("only %d strings were checked: the hostile server did not fill the responses", total)
	}
}

func asRejection(err error, dst **RejectionError) bool {
	r, ok := err.(*RejectionError)
	if ok {
		*dst = r
	}
	return ok
}
