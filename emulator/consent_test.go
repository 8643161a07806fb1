package emulator

import (
	"net/url"
	"strings"
	"testing"
)

const consentFields = `consent { id requireSCA status createdAt updatedAt startedAt expiredAt purpose consentUrl redirectUrl userId user { id }
  challenge acceptedAt refusedAt canceledAt }`

// TestConsentPendingCarriesItsConsent: a ConsentPending membership or
// card says which consent it waits for: a pending one, asked for by the
// account's legal representative when the membership or card was created,
// the same on every read, and no other's.
func TestConsentPendingCarriesItsConsent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, Options{Accounts: 200})
	members := e.walkConn(pathSandbox, tokSandboxProject, `query($first: Int!, $after: String) {
	  accountMemberships(first: $first, after: $after, filters: {status: [ConsentPending]}) { totalCount pageInfo { hasNextPage endCursor }
	    edges { cursor node { id createdAt account { legalRepresentativeMembership { user { id } } }
	      statusInfo { status ... on AccountMembershipConsentPendingStatusInfo { restrictedTo { firstName } `+consentFields+` } } } } } }`,
		map[string]any{"first": 100}, "accountMemberships")
	cards := e.walkConn(pathSandbox, tokSandboxProject, `query($first: Int!, $after: String) {
	  cards(first: $first, after: $after, filters: {statuses: [ConsentPending]}) { totalCount pageInfo { hasNextPage endCursor }
	    edges { cursor node { id createdAt accountMembership { account { legalRepresentativeMembership { user { id } } } }
	      statusInfo { status ... on CardConsentPendingStatusInfo { `+consentFields+` } } } } } }`,
		map[string]any{"first": 100}, "cards")
	if len(members) == 0 || len(cards) == 0 {
		t.Fatalf("%d ConsentPending memberships and %d cards among 200 accounts", len(members), len(cards))
	}

	seen := map[string]string{}
	statuses := map[string]int{}
	check := func(what, id, created, legalRep, purpose string, c node) {
		t.Helper()
		cid := str(c, "id")
		if other, dup := seen[cid]; dup || cid == "" {
			t.Fatalf("%s %s: consent id %q is also %s's", what, id, cid, other)
		}
		seen[cid] = id
		status := str(c, "status")
		statuses[status]++
		started := c["startedAt"] != nil
		if (status == "Started") != started || (status != "Started" && status != "Created") {
			t.Errorf("%s %s: a pending consent is Created, or Started with a startedAt: %v", what, id, c)
		}
		if str(c, "purpose") != purpose || c["requireSCA"] != true || str(c, "createdAt") != created || str(c, "updatedAt") < created ||
			(started && str(c, "startedAt") < created) {
			t.Errorf("%s %s (created %s): consent %v", what, id, created, c)
		}
		if str(c, "userId") != legalRep || str(c, "user", "id") != legalRep || legalRep == "" {
			t.Errorf("%s %s: consent asked by %q (user %v), the legal representative is %q", what, id, str(c, "userId"), c["user"], legalRep)
		}
		for _, f := range []string{"expiredAt", "acceptedAt", "refusedAt", "canceledAt"} {
			if c[f] != nil {
				t.Errorf("%s %s: a pending consent has %s %v", what, id, f, c[f])
			}
		}
		u, err := url.Parse(str(c, "consentUrl"))
		if err != nil || u.Scheme != "https" || !strings.HasSuffix(u.Host, ".example.com") || u.Query().Get("consentId") != cid {
			t.Errorf("%s %s: consentUrl %q must name the consent on a host that is never the platform's", what, id, str(c, "consentUrl"))
		}
		if str(c, "redirectUrl") != CallbackURI || len(str(c, "challenge")) != 32 {
			t.Errorf("%s %s: redirectUrl %q, challenge %q", what, id, str(c, "redirectUrl"), str(c, "challenge"))
		}
	}
	for _, m := range members {
		if str(m, "statusInfo", "restrictedTo", "firstName") == "" {
			t.Errorf("membership %s: no restrictedTo", str(m, "id"))
		}
		check("membership", str(m, "id"), str(m, "createdAt"), str(m, "account", "legalRepresentativeMembership", "user", "id"),
			"AddAccountMembership", dig(m, "statusInfo", "consent").(node))
	}
	for _, c := range cards {
		check("card", str(c, "id"), str(c, "createdAt"), str(c, "accountMembership", "account", "legalRepresentativeMembership", "user", "id"),
			"AddCard", dig(c, "statusInfo", "consent").(node))
	}
	if statuses["Created"] == 0 || statuses["Started"] == 0 {
		t.Errorf("consent statuses %v: want both Created and Started", statuses)
	}

	// The same consent on every read, by id too.
	var again node
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { accountMembership(id: $id) { statusInfo { ... on AccountMembershipConsentPendingStatusInfo { `+consentFields+` } } } }`,
		map[string]any{"id": str(members[0], "id")}, &again)
	if got, want := str(again, "accountMembership", "statusInfo", "consent", "id"), str(members[0], "statusInfo", "consent", "id"); got != want {
		t.Errorf("membership %s: consent %s, then %s", str(members[0], "id"), want, got)
	}
	e.mustData(pathSandbox, tokSandboxProject, `query($id: ID!) { card(cardId: $id) { statusInfo { ... on CardConsentPendingStatusInfo { `+consentFields+` } } } }`,
		map[string]any{"id": str(cards[0], "id")}, &again)
	if got, want := str(again, "card", "statusInfo", "consent", "id"), str(cards[0], "statusInfo", "consent", "id"); got != want {
		t.Errorf("card %s: consent %s, then %s", str(cards[0], "id"), want, got)
	}
}
