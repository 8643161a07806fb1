package schemadiff

import (
	"slices"
	"strings"
	"testing"

	"github.com/partnertui/partnertui/internal/schemafile"
	"github.com/partnertui/partnertui/internal/testkit/reference"
)

// plant replaces the first old after the line block (a type's opening
// line) with new, within that type's definition; the test fails when old
// is not there, so a reference schema that moves on is noticed.
func plant(t *testing.T, sdl, block, old, new string) string {
	t.Helper()
	start := strings.Index(sdl, "\n"+block+"\n")
	if start < 0 {
		t.Fatalf("no %q in the reference schema", block)
	}
	end := start + 1 + strings.Index(sdl[start+1:], "\n}\n")
	if block[len(block)-1] != '{' {
		end = start + len(block) + 2 // a one-line definition: a union, a scalar
	}
	i := strings.Index(sdl[start:end], old)
	if i < 0 {
		t.Fatalf("no %q in %q of the reference schema", old, block)
	}
	return sdl[:start+i] + new + sdl[start+i+len(old):]
}

func load(t *testing.T, name, sdl string) *schemafile.Schema {
	t.Helper()
	s, err := schemafile.Load(name, []byte(sdl))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type want struct {
	level Level
	rule  Rule
	path  string
	says  string // in the message
}

func checkChanges(t *testing.T, got []Change, wants []want) {
	t.Helper()
	matched := make([]bool, len(got))
	for _, w := range wants {
		i := slices.IndexFunc(got, func(c Change) bool { return c.Rule == w.rule && c.Path == w.path })
		if i < 0 {
			t.Errorf("no %s change at %s", w.rule, w.path)
			continue
		}
		matched[i] = true
		if c := got[i]; c.Level != w.level || !strings.Contains(c.Message, w.says) {
			t.Errorf("%s: %s %q, want %s saying %q", w.path, c.Level, c.Message, w.level, w.says)
		}
	}
	for i, c := range got {
		if !matched[i] {
			t.Errorf("unexpected change: %v", c)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i].Level > got[i-1].Level {
			t.Errorf("%v is listed after %v: the most harmful come first", got[i], got[i-1])
		}
	}
}

func TestReferenceAgainstItselfHasNoChange(t *testing.T) {
	t.Parallel()
	for _, name := range []string{reference.PartnerSchema, reference.TestingSchema} {
		sdl := string(reference.Read(t, name))
		if got := Diff(load(t, "old", sdl), load(t, "new", sdl)); len(got) != 0 {
			t.Errorf("%s against itself: %d changes, first %v", name, len(got), got[0])
		}
	}
}

func TestPlantedChangesAreClassified(t *testing.T) {
	t.Parallel()
	old := string(reference.Read(t, reference.PartnerSchema))
	s := old
	s = plant(t, s, "type Account {", "  \"\"\"Created date\"\"\"\n  createdAt: DateTime!\n", "")
	s = plant(t, s, "type Account {", "updatedAt: DateTime!", "updatedAt: DateTime")
	s = plant(t, s, "type Account {", "name: String!", "name: String! @deprecated(reason: \"Use `holder.info.name` instead\")\n  nickname: String")
	s = plant(t, s, "type Account {", `"""Unique identifier of an account"""`, `"""The account's identifier"""`)
	s = plant(t, s, "type Account {", "first: Int! = 50", "first: Int! = 20")
	s = plant(t, s, "type Account {", "after: String", "after: String!\n    region: String!")
	s = plant(t, s, "input AccountMembershipsFilterInput {", "email: String", "email: String!")
	s = plant(t, s, "enum AccountStatus {", "  \"\"\"When the account is currently closing\"\"\"\n  Closing\n", "  Frozen\n")
	s = plant(t, s, "union AccountHolderOnboarding = IndividualAccountHolderOnboarding | CompanyAccountHolderOnboarding", "CompanyAccountHolderOnboarding", "CompanyAccountHolderOnboarding | Account")
	s = plant(t, s, "union AddExternalAccountBalancePayload = AddExternalAccountBalanceSuccessPayload | ValidationRejection | ExternalAccountBalanceAlreadyExistsRejection | ForbiddenRejection", " | ForbiddenRejection", "")
	s = plant(t, s, "scalar HexColorCode", "scalar HexColorCode", "enum HexColorCode { Black White }")
	s += "\ntype PlantedType { id: ID! }\n"

	checkChanges(t, Diff(load(t, "old.graphql", old), load(t, "new.graphql", s)), []want{
		{Breaking, FieldRemoved, "Account.createdAt", "field removed"},
		{Breaking, FieldMadeNullable, "Account.updatedAt", "DateTime! → DateTime"},
		{Breaking, ArgumentMadeRequired, "Account.virtualIbanEntries(after:)", "String → String!"},
		{Breaking, RequiredArgumentAdded, "Account.virtualIbanEntries(region:)", "String!"},
		{Breaking, InputFieldMadeRequired, "AccountMembershipsFilterInput.email", "String → String!"},
		{Breaking, EnumValueRemoved, "AccountStatus.Closing", "removed"},
		{Breaking, UnionMemberRemoved, "AddExternalAccountBalancePayload", "ForbiddenRejection"},
		{Breaking, TypeKindChanged, "HexColorCode", "was a scalar, is now an enum"},
		{Dangerous, ArgumentDefaultChanged, "Account.virtualIbanEntries(first:)", "50 → 20"},
		{Dangerous, EnumValueAdded, "AccountStatus.Frozen", "added"},
		{Dangerous, UnionMemberAdded, "AccountHolderOnboarding", "member Account added"},
		{Dangerous, Deprecated, "Account.name", "Use `holder.info.name` instead"},
		{Safe, FieldAdded, "Account.nickname", "String"},
		{Safe, DescriptionChanged, "Account.id", "description changed"},
		{Safe, TypeAdded, "PlantedType", "object type added"},
	})
}

func TestRenamedSimulationIsCalledOutAsARename(t *testing.T) {
	t.Parallel()
	old := string(reference.Read(t, reference.TestingSchema))
	s := strings.ReplaceAll(old, "simulateOutgoingCardCredit(input: SimulateOutgoingCardCreditInput!)", "simulateCardCreditReceived(input: SimulateCardCreditReceivedInput!)")
	s = strings.Replace(s, "\ninput SimulateOutgoingCardCreditInput {", "\ninput SimulateCardCreditReceivedInput {", 1)
	// A simulation removed outright stays a removal.
	s = plant(t, s, "type Mutation {", "  simulateOutgoingCardCreditReverse(", "  removedOnPurpose(")
	oldS, newS := load(t, "old", old), load(t, "new", s)
	if oldS.Endpoint != schemafile.Testing || newS.Endpoint != schemafile.Testing {
		t.Fatalf("endpoints %s, %s: the Testing API's schema is not recognised", oldS.Endpoint, newS.Endpoint)
	}
	checkChanges(t, Diff(oldS, newS), []want{
		{Breaking, SimulationRenamed, "Mutation.simulateOutgoingCardCredit", "Testing API simulation renamed simulateCardCreditReceived"},
		{Breaking, TypeRemoved, "SimulateOutgoingCardCreditInput", "renamed SimulateCardCreditReceivedInput with the simulation simulateOutgoingCardCredit → simulateCardCreditReceived"},
		{Safe, TypeAdded, "SimulateCardCreditReceivedInput", "input type added"},
		{Breaking, FieldRemoved, "Mutation.simulateOutgoingCardCreditReverse", "field removed"},
		{Safe, FieldAdded, "Mutation.removedOnPurpose", "field added"},
	})
}

func TestTypeChangesFollowGraphQLJS(t *testing.T) {
	t.Parallel()
	base := `type Query { f(a: Int, b: [Int!]!, c: Int! = 1, d: String): Int }
input I { x: Int y: Int! = 3 }
type T { a: [Int] b: Int! c: String }
`
	old := load(t, "old", base)
	changed := strings.NewReplacer(
		"a: Int,", "a: [Int],", // argument type changed
		"b: [Int!]!", "b: [Int]", // relaxed: every value accepted before still is
		"c: Int! = 1", "c: Int = 1", // relaxed too
		"d: String)", "d: String = \"x\")", // default added
		"x: Int y", "x: Int! = 0 y", // non-null, but with a default: only null is refused
		"a: [Int]", "a: [Int!]!", // narrowed: safe for an output
		"b: Int!", "b: [Int!]", // changed
		"c: String", "c: String!",
	).Replace(base)
	checkChanges(t, Diff(old, load(t, "new", changed)), []want{
		{Breaking, ArgumentTypeChanged, "Query.f(a:)", "Int → [Int]"},
		{Safe, ArgumentTypeRelaxed, "Query.f(b:)", "[Int!]! → [Int]"},
		{Safe, ArgumentTypeRelaxed, "Query.f(c:)", "Int! → Int"},
		{Dangerous, ArgumentDefaultChanged, "Query.f(d:)", `none → "x"`},
		{Dangerous, InputFieldNullRefused, "I.x", "Int → Int!"},
		{Dangerous, InputFieldDefaultChange, "I.x", "none → 0"},
		{Safe, FieldTypeNarrowed, "T.a", "[Int] → [Int!]!"},
		{Breaking, FieldTypeChanged, "T.b", "Int! → [Int!]"},
		{Safe, FieldTypeNarrowed, "T.c", "String → String!"},
	})
}

func TestRulesAreComplete(t *testing.T) {
	t.Parallel()
	seen := map[Rule]bool{}
	for _, r := range Rules() {
		if seen[r.Rule] || r.Why == "" {
			t.Errorf("rule %s listed twice or without a reason", r.Rule)
		}
		seen[r.Rule] = true
	}
	if Info("nonsense").Why != "unknown rule" {
		t.Error("an unknown rule is not said to be one")
	}
}
