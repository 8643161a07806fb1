package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

// sentBody decodes the request body o builds for vars.
func sentBody(t *testing.T, o *opText, vars map[string]any) (gqlRequest, map[string]json.RawMessage) {
	t.Helper()
	body, err := o.body(vars)
	if err != nil {
		t.Fatal(err)
	}
	var req gqlRequest
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if err := json.Unmarshal(body, &keys); err != nil {
		t.Fatal(err)
	}
	return req, keys
}

func TestOperationTextIsBuiltOncePerShape(t *testing.T) {
	t.Parallel()
	var ts opTexts
	get := func(mutation bool, v any, vars map[string]any, name string) *opText {
		t.Helper()
		o, err := ts.get(mutation, v, vars, name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := constructOperation(mutation, v, vars, name)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := sentBody(t, o, vars)
		if req.Query != want || req.OperationName != name {
			t.Errorf("sent %q as %q, want %q as %q", req.Query, req.OperationName, want, name)
		}
		return o
	}

	filtered := accountsVars(AccountsParams{Search: "x", Status: []string{"Opened"}, OrderBy: OrderCreatedAt}, 100, "cursor")
	plain := accountsVars(AccountsParams{}, 50, "")
	first := get(false, &accountsQuery{}, filtered, OpAccounts)
	if again := get(false, &accountsQuery{}, plain, OpAccounts); again != first {
		t.Error("the same operation with other values of the same variable types was built again")
	}
	req, _ := sentBody(t, first, filtered)
	if req.Variables["after"] != "cursor" || req.Variables["first"] != float64(100) {
		t.Errorf("variables sent: %v", req.Variables)
	}

	// Whatever the text depends on gives another text.
	others := map[string]*opText{
		"fewer variables":       get(false, &accountsQuery{}, map[string]any{"first": 1}, OpAccounts),
		"another variable type": get(false, &accountsQuery{}, map[string]any{"first": 1, "after": "x", "filters": plain["filters"], "orderBy": plain["orderBy"]}, OpAccounts),
		"another name":          get(false, &accountsQuery{}, plain, "Other"),
		"another result type":   get(false, &homeProjectQuery{}, plain, OpAccounts),
		"a mutation":            get(true, &accountsQuery{}, plain, OpAccounts),
	}
	for what, o := range others {
		if o == first {
			t.Errorf("%s reused the first text", what)
		}
	}

	// Without variables the body has none, as the graphql client sends it.
	o := get(false, &projectInfoQuery{}, nil, OpProjectInfo)
	if _, keys := sentBody(t, o, nil); len(keys) != 2 || keys["variables"] != nil {
		t.Errorf("body members %v, want query and operationName only", keys)
	}
}

func TestDecodeResponseReadsDataAndErrorsOnce(t *testing.T) {
	t.Parallel()
	type result struct {
		N int
		S string
		L []struct{ X int }
	}
	cases := []struct {
		name      string
		body      string
		want      result
		errs      int
		shape     bool // the data did not fit
		malformed bool // not a GraphQL response at all
	}{
		{name: "data", body: `{"data":{"n":1,"s":"a","l":[{"x":2}]}}`, want: result{N: 1, S: "a", L: []struct{ X int }{{2}}}},
		{name: "partial data with errors", body: `{"data":{"n":1,"s":null},"errors":[{"message":"m","path":["s"]}]}`, want: result{N: 1}, errs: 1},
		{name: "errors before data", body: `{"errors":[{"message":"m"}],"data":{"s":"a"}}`, want: result{S: "a"}, errs: 1},
		{name: "null data with errors", body: `{"data":null,"errors":[{"message":"m"},{"message":"n"}]}`, errs: 2},
		{name: "other members are ignored", body: `{"extensions":{"cost":3},"data":{"n":2}}`, want: result{N: 2}},
		{name: "data of the wrong type keeps the rest", body: `{"data":{"n":"many","s":"kept"}}`, want: result{S: "kept"}, shape: true},
		{name: "data of the wrong type beside errors", body: `{"data":{"n":"many","s":"kept"},"errors":[{"message":"m"}]}`, want: result{S: "kept"}, errs: 1, shape: true},
		{name: "data and errors of the wrong type", body: `{"data":{"n":"many"},"errors":[{"message":5}]}`, malformed: true},
		{name: "errors of the wrong type", body: `{"data":{"n":1},"errors":"boom"}`, malformed: true},
		{name: "truncated", body: `{"data":{"n":1,"s":"a`, malformed: true},
		{name: "bytes after the object", body: `{"data":{"n":1}} trailing`, malformed: true},
		{name: "JSON null", body: ` null`, malformed: true},
		{name: "an array", body: `[{"data":{}}]`, malformed: true},
		{name: "empty", body: ``, malformed: true},
		{name: "HTML", body: `<html>`, malformed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got result
			errs, shapeErr, err := decodeResponse([]byte(tc.body), &got)
			if tc.malformed {
				if err == nil {
					t.Fatalf("no error for %s", tc.body)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if (shapeErr != nil) != tc.shape || len(errs) != tc.errs {
				t.Errorf("shape error %v, %d errors; want shape %v, %d errors", shapeErr, len(errs), tc.shape, tc.errs)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("data = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestBufPoolKeepsNoHugeBuffer(t *testing.T) {
	t.Parallel()
	var p bufPool
	b := p.get()
	b.WriteString("left over")
	p.put(b)
	if got := p.get(); got.Len() != 0 {
		t.Errorf("a recycled buffer holds %q", got.String())
	}
	huge := p.get()
	huge.Grow(maxPooled + 1)
	p.put(huge)
	for range 3 {
		if p.get() == huge {
			t.Fatal("a buffer larger than maxPooled was kept")
		}
	}
}
