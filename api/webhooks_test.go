package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

const hookSecret = "whsec-9f1c-do-not-print"

func fakeSubscription(i int, withSecret bool) map[string]any {
	s := map[string]any{
		"id": id("sub", i), "label": "local", "endpoint": "https://partnertui.invalid/listen",
		"eventTypes": []any{"Transaction.Booked", "Account.Updated"},
		"statusInfo": map[string]any{"status": "Enabled", "enabledAt": "2025-01-01T00:00:00Z"},
		"createdAt":  "2025-01-01T00:00:00Z", "updatedAt": "2025-01-02T00:00:00Z",
	}
	if i%2 == 1 {
		s["statusInfo"] = map[string]any{"status": "Broken", "brokenAt": "2025-01-03T00:00:00Z"}
	}
	if withSecret {
		s["secret"] = hookSecret
	}
	return s
}

func fakeEventLog(i int) any {
	l := map[string]any{
		"id": id("log", i), "createdAt": "2025-03-01T10:00:01Z", "eventId": id("evt", i), "eventDate": "2025-03-01T10:00:00Z",
		"eventType": "Transaction.Booked", "resourceId": id("tx", i), "duration": 42,
		"requestPayload":  `{"eventType":"Transaction.Booked","eventId":"` + id("evt", i) + `"}`,
		"responsePayload": "ok", "statusCode": 200, "statusText": "Success", "retryCount": 0,
		"webhookSubscription": fakeSubscription(0, false),
	}
	if i%2 == 1 { // an endpoint that never answered
		l["statusCode"], l["statusText"], l["responsePayload"], l["retryCount"], l["webhookSubscription"] = nil, "Failure", nil, 3, nil
	}
	return l
}

func TestWebhookEventLogsFiltersAndDecoding(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpWebhookEventLogs: func(q gqlRequest) any { return map[string]any{"webhookEventLogs": pageOf(t, q, 2, fakeEventLog)} },
		OpWebhookEventLog: func(q gqlRequest) any {
			if q.Variables["id"] == "missing" {
				return map[string]any{"webhookEventLog": nil}
			}
			return map[string]any{"webhookEventLog": fakeEventLog(1)}
		},
		OpWebhookEventTypes: func(gqlRequest) any {
			return map[string]any{"webhookEventTypes": []any{"Account.Created", "Transaction.Booked"}}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	page, err := c.WebhookEventLogs(ctx, WebhookEventLogsParams{EventType: "Transaction.Booked", WebhookSubscriptionID: "sub-1",
		StatusCode: 500, StatusText: "Failure", ResourceID: "tx-1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := varJSON(t, srv.last(), "filters"); got != `{"eventType":"Transaction.Booked","resourceId":"tx-1","statusCode":500,"statusText":"Failure","webhookSubscriptionId":"sub-1"}` {
		t.Errorf("filters = %s", got)
	}
	l := page.Items
	if len(l) != 2 || l[0].StatusCode == nil || *l[0].StatusCode != 200 || l[0].Duration != 42 || l[0].EventDate.IsZero() ||
		l[0].WebhookSubscription == nil || l[0].WebhookSubscription.Endpoint != "https://partnertui.invalid/listen" ||
		l[0].WebhookSubscription.Secret != "" || !strings.Contains(l[0].RequestPayload, `"eventId":"evt-0000"`) {
		t.Fatalf("logs = %+v", l)
	}
	if l[1].StatusCode != nil || l[1].ResponsePayload != "" || *l[1].RetryCount != 3 || l[1].WebhookSubscription != nil {
		t.Errorf("unanswered delivery = %+v", l[1])
	}
	if o := jsonObject(t, l[1]); o["statusCode"] != nil || o["webhookSubscription"] != nil {
		t.Errorf("unanswered delivery JSON = %v", o)
	}
	if _, err := c.WebhookEventLog(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing log: %v", err)
	}
	if one, err := c.WebhookEventLog(ctx, "log-0001"); err != nil || one.StatusText != "Failure" {
		t.Errorf("log = %+v, %v", one, err)
	}
	if types, err := c.WebhookEventTypes(ctx); err != nil || len(types) != 2 || types[1] != "Transaction.Booked" {
		t.Errorf("event types = %v, %v", types, err)
	}
	if _, err := c.WebhookEventLogs(ctx, WebhookEventLogsParams{StatusText: "Failed"}); !errors.Is(err, ErrInvalidParam) {
		t.Errorf("unknown statusText: %v", err)
	}
}

func TestWebhookSubscriptionsKeepTheSecretHidden(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpWebhookSubscriptions: func(q gqlRequest) any {
			return map[string]any{"webhookSubscriptions": pageOf(t, q, 3, func(i int) any { return fakeSubscription(i, false) })}
		},
		OpWebhookSubscription: func(q gqlRequest) any { return map[string]any{"webhookSubscription": fakeSubscription(1, true)} },
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	n := 0
	if err := Walk(ctx, Pages(c.WebhookSubscriptions, WebhookSubscriptionsParams{First: 2}), func(p *Page[WebhookSubscription]) error {
		n += len(p.Items)
		return nil
	}); err != nil || n != 3 {
		t.Fatalf("subscriptions = %d, %v", n, err)
	}
	s, err := c.WebhookSubscription(ctx, "sub-0001")
	if err != nil {
		t.Fatal(err)
	}
	if s.Secret.Reveal() != hookSecret || s.StatusInfo.Status != "Broken" || s.StatusInfo.BrokenAt.IsZero() || len(s.EventTypes) != 2 {
		t.Fatalf("subscription = %+v", s)
	}
	// Every way a value is commonly printed hides the secret.
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("subscription", "secret", s.Secret, "sub", s)
	jsonOut, _ := json.Marshal(s)
	for _, out := range []string{
		fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q %x", s, s, s, s.Secret, s.Secret, s.Secret), s.Secret.String(),
		string(jsonOut), logged.String(),
	} {
		if strings.Contains(out, hookSecret) {
			t.Errorf("the secret was printed: %s", out)
		}
	}
	if o := jsonObject(t, s); o["secret"] != "[hidden]" {
		t.Errorf("secret JSON = %v", o["secret"])
	}
	if o := jsonObject(t, WebhookSubscription{ID: "x"}); o["secret"] != nil {
		t.Errorf("an empty secret was written: %v", o)
	}
}

func TestAddWebhookSubscription(t *testing.T) {
	t.Parallel()
	var reply atomic.Value // func() any
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpAddWebhookSubscription: func(q gqlRequest) any { return reply.Load().(func(gqlRequest) any)(q) },
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	in := WebhookSubscriptionInput{Label: "listen", Endpoint: "https://partnertui.invalid/listen", Secret: hookSecret,
		EventTypes: []string{"Transaction.Booked"}}

	reply.Store(func(q gqlRequest) any {
		return map[string]any{"addWebhookSubscription": map[string]any{"__typename": "WebhookSubscriptionSuccessPayload",
			"webhookSubscription": fakeSubscription(0, true)}}
	})
	s, err := c.AddWebhookSubscription(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "sub-0000" || s.Secret.Reveal() != hookSecret || s.StatusInfo.EnabledAt.IsZero() || s.EventTypes[0] != "Transaction.Booked" {
		t.Errorf("subscription = %+v", s)
	}
	if got := varJSON(t, srv.last(), "input"); got != `{"endpoint":"https://partnertui.invalid/listen","eventTypes":["Transaction.Booked"],"label":"listen","secret":"`+hookSecret+`","status":"Enabled"}` {
		t.Errorf("input = %s", got)
	}

	// Every rejection is a *RejectionError with the facts it carried, and a
	// secret the server echoes is not repeated.
	for typename, body := range map[string]map[string]any{
		"InvalidArgumentRejection": {"message": "invalid input: secret " + hookSecret + " is too long",
			"fields": []any{map[string]any{"name": "secret", "errors": []any{"max 36 characters"}}}},
		"SubscriptionLimitsRejection": {"message": "limit reached",
			"subscriptionLimits": []any{map[string]any{"eventType": "Transaction.Booked", "subscriptionCount": 10}}},
		"InternalErrorRejection":               {"message": "try later"},
		"WebhookSubscriptionNotFoundRejection": {"message": "gone"},
	} {
		reply.Store(func(gqlRequest) any {
			p := map[string]any{"__typename": typename}
			for k, v := range body {
				p[k] = v
			}
			return map[string]any{"addWebhookSubscription": p}
		})
		_, err := c.AddWebhookSubscription(ctx, in)
		var rej *RejectionError
		if !errors.As(err, &rej) || rej.Type != typename || !errors.Is(err, ErrRejected) {
			t.Errorf("%s: err = %v", typename, err)
			continue
		}
		if strings.Contains(err.Error(), hookSecret) {
			t.Errorf("%s: the error repeats the secret: %v", typename, err)
		}
		switch typename {
		case "InvalidArgumentRejection":
			if !strings.Contains(rej.Message, "secret: max 36 characters") || !strings.Contains(rej.Message, "[hidden]") {
				t.Errorf("message = %q", rej.Message)
			}
		case "SubscriptionLimitsRejection":
			if !strings.Contains(rej.Message, "Transaction.Booked: 10 subscriptions") {
				t.Errorf("message = %q", rej.Message)
			}
		}
	}

	// A GraphQL error that echoes the secret does not repeat it either.
	reply.Store(func(gqlRequest) any { return nil })
	errSrv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON200(w, map[string]any{"data": nil, "errors": []any{map[string]any{"message": `Variable "$input" got invalid value "` + hookSecret + `"`}}})
	})
	c2, _, _ := newTestClient(t, errSrv, nil)
	_, err = c2.AddWebhookSubscription(ctx, in)
	if !errors.Is(err, ErrGraphQL) || strings.Contains(err.Error(), hookSecret) {
		t.Errorf("GraphQL error = %v", err)
	}

	for name, bad := range map[string]WebhookSubscriptionInput{
		"no label":    {Endpoint: "https://x.invalid"},
		"no endpoint": {Label: "x"},
		"bad status":  {Label: "x", Endpoint: "https://x.invalid", Status: "Paused"},
	} {
		if _, err := c.AddWebhookSubscription(ctx, bad); !errors.Is(err, ErrInvalidParam) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestUpdateRemoveAndReplay(t *testing.T) {
	t.Parallel()
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpUpdateWebhookSubscription: func(q gqlRequest) any {
			return map[string]any{"updateWebhookSubscription": map[string]any{"__typename": "WebhookSubscriptionSuccessPayload",
				"webhookSubscription": fakeSubscription(0, false)}}
		},
		OpRemoveWebhookSubscription: func(q gqlRequest) any {
			in := q.Variables["input"].(map[string]any)
			switch in["webhookSubscriptionId"] {
			case "sub-0000":
				return map[string]any{"removeWebhookSubscription": map[string]any{"__typename": "RemoveWebhookSubscriptionSuccessPayload", "subscriptionRemovedSuccessfully": true}}
			case "sub-stuck":
				return map[string]any{"removeWebhookSubscription": map[string]any{"__typename": "RemoveWebhookSubscriptionSuccessPayload", "subscriptionRemovedSuccessfully": false}}
			}
			return map[string]any{"removeWebhookSubscription": map[string]any{"__typename": "WebhookSubscriptionNotFoundRejection", "message": "no such subscription"}}
		},
		OpReplayWebhookEvent: func(q gqlRequest) any {
			in := q.Variables["input"].(map[string]any)
			if in["webhookEventId"] == "evt-missing" {
				return map[string]any{"replayWebhookEvent": map[string]any{"__typename": "WebhookEventLogNotFoundRejection", "message": "no such event"}}
			}
			if in["subscriptionId"] != "sub-0000" {
				t.Errorf("replay input = %v", in)
			}
			return map[string]any{"replayWebhookEvent": map[string]any{"__typename": "ReplayWebhookEventSuccessPayload", "webhookEventLogEntryId": "log-9", "endpointStatus": 204}}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	ctx := context.Background()
	s, err := c.UpdateWebhookSubscription(ctx, "sub-0000", WebhookSubscriptionInput{Label: "renamed", Endpoint: "https://x.invalid", Status: "Disabled"})
	if err != nil || s.ID != "sub-0000" {
		t.Fatalf("update = %+v, %v", s, err)
	}
	if got := varJSON(t, srv.last(), "input"); got != `{"endpoint":"https://x.invalid","eventTypes":[],"id":"sub-0000","label":"renamed","status":"Disabled"}` {
		t.Errorf("update input = %s", got)
	}
	if _, err := c.UpdateWebhookSubscription(ctx, "", WebhookSubscriptionInput{Label: "x", Endpoint: "y"}); !errors.Is(err, ErrInvalidParam) {
		t.Errorf("update without id: %v", err)
	}
	if err := c.RemoveWebhookSubscription(ctx, "sub-0000"); err != nil {
		t.Errorf("remove: %v", err)
	}
	var rej *RejectionError
	if err := c.RemoveWebhookSubscription(ctx, "sub-stuck"); !errors.As(err, &rej) {
		t.Errorf("remove not done: %v", err)
	}
	if err := c.RemoveWebhookSubscription(ctx, "sub-x"); !errors.As(err, &rej) || rej.Type != "WebhookSubscriptionNotFoundRejection" || rej.Message != "no such subscription" {
		t.Errorf("remove missing: %v", err)
	}
	r, err := c.ReplayWebhookEvent(ctx, "evt-1", "sub-0000")
	if err != nil || r.WebhookEventLogEntryID != "log-9" || r.EndpointStatus == nil || *r.EndpointStatus != 204 {
		t.Errorf("replay = %+v, %v", r, err)
	}
	if _, err := c.ReplayWebhookEvent(ctx, "evt-missing", "sub-0000"); !errors.As(err, &rej) || rej.Type != "WebhookEventLogNotFoundRejection" {
		t.Errorf("replay missing: %v", err)
	}
}

// TestWebhookMutationsRespectTheClientsPolicy: refused on a read-only
// client before anything is sent, and sent once even on 429.
func TestWebhookMutationsRespectTheClientsPolicy(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	ro, _, _ := newTestClient(t, h, func(o *Options) { o.ReadOnly = true })
	ctx := context.Background()
	in := WebhookSubscriptionInput{Label: "x", Endpoint: "https://x.invalid"}
	for name, call := range map[string]func(*Client) error{
		"add":    func(c *Client) error { _, err := c.AddWebhookSubscription(ctx, in); return err },
		"update": func(c *Client) error { _, err := c.UpdateWebhookSubscription(ctx, "s", in); return err },
		"remove": func(c *Client) error { return c.RemoveWebhookSubscription(ctx, "s") },
		"replay": func(c *Client) error { _, err := c.ReplayWebhookEvent(ctx, "e", ""); return err },
	} {
		if err := call(ro); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s on a read-only client: %v", name, err)
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("%d requests reached the server from a read-only client", calls.Load())
	}
	rw, clk, _ := newTestClient(t, h, nil)
	if err := rw.RemoveWebhookSubscription(ctx, "s"); !errors.Is(err, ErrRateLimited) {
		t.Errorf("429: %v", err)
	}
	if calls.Load() != 1 || len(clk.Sleeps()) != 0 {
		t.Errorf("requests = %d, sleeps = %v: a mutation is sent once", calls.Load(), clk.Sleeps())
	}
}

// TestASecretThatCannotTravelIsRefusedWhenSet: a secret the x-swan-secret
// header cannot carry byte for byte (a control, spaces at either end,
// non-ASCII, over 36 characters) is refused before anything is sent, and
// the error does not show it; a tab inside is taken as it is.
func TestASecretThatCannotTravelIsRefusedWhenSet(t *testing.T) {
	t.Parallel()
	var sent atomic.Int32
	srv := newOpServer(t, map[string]func(gqlRequest) any{
		OpAddWebhookSubscription: func(gqlRequest) any {
			sent.Add(1)
			return map[string]any{"addWebhookSubscription": map[string]any{"__typename": "WebhookSubscriptionSuccessPayload",
				"webhookSubscription": fakeSubscription(0, true)}}
		},
	})
	c, _, _ := newTestClient(t, srv, nil)
	for _, bad := range []string{"ab\r\ncd", "ab\x1bcd", " leading", "trailing\t", "sécret", strings.Repeat("s", 37)} {
		in := WebhookSubscriptionInput{Label: "l", Endpoint: "https://partnertui.invalid/x", Secret: Secret(bad), EventTypes: []string{"User.Joined"}}
		_, err := c.AddWebhookSubscription(context.Background(), in)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != "input.secret" || strings.Contains(err.Error(), strings.TrimSpace(bad)) {
			t.Errorf("secret %q: %v", bad, err)
		}
		if _, err := c.UpdateWebhookSubscription(context.Background(), "sub-0000", in); !errors.As(err, &pe) {
			t.Errorf("update with secret %q: %v", bad, err)
		}
	}
	if sent.Load() != 0 {
		t.Errorf("%d refused secrets were sent", sent.Load())
	}
	in := WebhookSubscriptionInput{Label: "l", Endpoint: "https://partnertui.invalid/x", Secret: "in\tside", EventTypes: []string{"User.Joined"}}
	if _, err := c.AddWebhookSubscription(context.Background(), in); err != nil || varJSON(t, srv.last(), "input") == "" {
		t.Errorf("a tab inside the secret: %v", err)
	}
	if !strings.Contains(varJSON(t, srv.last(), "input"), `"secret":"in\tside"`) {
		t.Errorf("input = %s", varJSON(t, srv.last(), "input"))
	}
}
