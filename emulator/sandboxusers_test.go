package emulator

import "testing"

const opUpdateUser = `mutation($input: UpdateSandboxUserInput!) { updateSandboxUser(input: $input) {
  __typename ... on Rejection { message } ... on UpdateSandboxUserSuccessPayload { sandboxUser { id firstName autoConsent } } } }`

type userResult struct {
	Typename    string `json:"__typename"`
	Message     string
	SandboxUser struct {
		ID, FirstName string
		AutoConsent   bool
	}
	Success bool
}

func (e *simEnv) updateUser(token string, in map[string]any) userResult {
	e.t.Helper()
	var out struct {
		U userResult `json:"updateSandboxUser"`
	}
	e.mustData(pathAdmin, token, opUpdateUser, map[string]any{"input": in}, &out)
	return out.U
}

func (e *simEnv) deleteUser(id string) userResult {
	e.t.Helper()
	var out struct {
		U userResult `json:"deleteSandboxUser"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, `mutation($id: String!) { deleteSandboxUser(input: {id: $id}) {
  __typename ... on Rejection { message } ... on DeleteSandboxUserSuccessPayload { success } } }`, map[string]any{"id": id}, &out)
	return out.U
}

// createUser creates a sandbox user, Ada Lovelace, and returns its id.
func (e *simEnv) createUser() string {
	e.t.Helper()
	var created struct {
		C struct{ SandboxUser struct{ ID string } } `json:"createSandboxUser"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, opCreateUser, map[string]any{"input": map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "birthDate": "1990-12-10", "nationalityCCA3": "GBR", "autoConsent": true}}, &created)
	if created.C.SandboxUser.ID == "" {
		e.t.Fatal("createSandboxUser answered no user")
	}
	return created.C.SandboxUser.ID
}

func TestUpdateAndDeleteSandboxUser(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	id := e.createUser()
	in := map[string]any{"id": id, "firstName": "Augusta", "lastName": "King", "birthDate": "1990-12-10", "nationalityCCA3": "GBR", "autoConsent": false}
	r := e.updateUser(tokSandboxUser0, in)
	if r.Typename != "UpdateSandboxUserSuccessPayload" || r.SandboxUser.FirstName != "Augusta" || r.SandboxUser.AutoConsent {
		t.Fatalf("update: %+v", r)
	}
	if u, _ := e.sandbox.User(id); u.LastName != "King" || u.AutoConsent {
		t.Fatalf("stored user %+v", u)
	}
	in["nationalityCCA3"] = "gb"
	if r := e.updateUser(tokSandboxUser0, in); r.Typename != "NationalityNotFoundRejection" {
		t.Fatalf("bad nationality: %+v", r)
	}
	in["nationalityCCA3"], in["id"] = "GBR", "no-such-user"
	if r := e.updateUser(tokSandboxUser0, in); r.Typename != "SandboxUserNotFoundRejection" {
		t.Fatalf("unknown user: %+v", r)
	}
	// The Testing API's user operations need a user token.
	if r := e.updateUser(tokSandboxProject, in); r.Typename != "ForbiddenRejection" {
		t.Fatalf("with a project token: %+v", r)
	}

	if r := e.deleteUser(id); r.Typename != "DeleteSandboxUserSuccessPayload" || !r.Success {
		t.Fatalf("delete: %+v", r)
	}
	if _, ok := e.sandbox.User(id); ok {
		t.Fatal("the deleted user is still there")
	}
	if r := e.deleteUser(id); r.Typename != "SandboxUserNotFoundRejection" {
		t.Fatalf("second delete: %+v", r)
	}
	e.expectEvents(ev("User.Joined", id), ev("User.Updated", id), ev("User.Deactivated", id))
}

const (
	opCreateIdentification = `mutation($input: CreateSandboxIdentificationInput!) { createSandboxIdentification(input: $input) {
  __typename ... on Rejection { message } ... on UserNotFoundRejection { id }
  ... on CreateSandboxIdentificationSuccessPayload { sandboxIdentification { identificationId: id } } } }`
	opUpdateIdentification = `mutation($input: UpdateSandboxIdentificationInput!) { updateSandboxIdentification(input: $input) {
  __typename ... on Rejection { message } ... on UpdateSandboxIdentificationSuccessPayload { sandboxIdentification { identificationId: id } } } }`
)

type identResult struct {
	Typename              string `json:"__typename"`
	Message, ID           string
	SandboxIdentification struct{ IdentificationID string }
}

func (e *simEnv) identification(op, field string, in map[string]any) identResult {
	e.t.Helper()
	var out map[string]identResult
	e.mustData(pathAdmin, tokSandboxUser0, op, map[string]any{"input": in}, &out)
	return out[field]
}

// levels are a sandbox user's identification levels, as the Testing API
// shows them.
func (e *simEnv) levels(id string) struct{ PVID, QES, Expert bool } {
	e.t.Helper()
	var out struct {
		U struct {
			IdentificationLevels struct{ PVID, QES, Expert bool }
		} `json:"sandboxUserById"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, `query($id: ID!) { sandboxUserById(id: $id) { identificationLevels { PVID QES expert } } }`,
		map[string]any{"id": id}, &out)
	return out.U.IdentificationLevels
}

func TestSandboxIdentifications(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	user := e.createUser()
	if l := e.levels(user); l.PVID || l.QES || l.Expert {
		t.Fatalf("a new user's levels %+v", l)
	}

	const create, update = "createSandboxIdentification", "updateSandboxIdentification"
	r := e.identification(opCreateIdentification, create, map[string]any{"userId": user, "process": "PVID",
		"levels": map[string]any{"expert": "Valid", "pvid": "Valid"}})
	ident := r.SandboxIdentification.IdentificationID
	if r.Typename != "CreateSandboxIdentificationSuccessPayload" || ident == "" {
		t.Fatalf("create: %+v", r)
	}
	// A valid PVID awards PVID and Expert.
	if l := e.levels(user); !l.PVID || l.QES || !l.Expert {
		t.Fatalf("levels after a valid PVID: %+v", l)
	}
	r = e.identification(opUpdateIdentification, update, map[string]any{"identificationId": ident, "process": "PVID",
		"levels": map[string]any{"pvid": "Invalid"}, "errorReasons": []string{"ExpiredDocument"}})
	if r.Typename != "UpdateSandboxIdentificationSuccessPayload" || r.SandboxIdentification.IdentificationID != ident {
		t.Fatalf("update: %+v", r)
	}
	if l := e.levels(user); l.PVID || !l.Expert {
		t.Fatalf("levels after an invalid PVID: %+v", l)
	}
	e.expectEvents(ev("User.Joined", user), ev("User.Updated", user), ev("User.Updated", user))

	for _, c := range []struct {
		op, field string
		in        map[string]any
		want      string
	}{
		{opCreateIdentification, create, map[string]any{"userId": user, "process": "Expert", "levels": map[string]any{"qes": "Valid"}}, "InvalidIdentificationLevelsRejection"},
		{opCreateIdentification, create, map[string]any{"userId": user, "process": "QES", "levels": map[string]any{}}, "InvalidIdentificationLevelsRejection"},
		{opCreateIdentification, create, map[string]any{"userId": user, "process": "QES", "levels": map[string]any{"qes": "Valid"}, "errorReasons": []string{"FraudDetected"}}, "InvalidIdentificationErrorReasonsRejection"},
		{opCreateIdentification, create, map[string]any{"userId": "nobody", "process": "QES", "levels": map[string]any{"qes": "Valid"}}, "UserNotFoundRejection"},
		{opUpdateIdentification, update, map[string]any{"identificationId": "nothing", "process": "QES", "levels": map[string]any{"qes": "Valid"}}, "SandboxIdentificationNotFoundRejection"},
	} {
		if r := e.identification(c.op, c.field, c.in); r.Typename != c.want || r.Message == "" {
			t.Errorf("%s %v: %+v, want %s", c.field, c.in, r, c.want)
		}
	}
	// Rejected, nothing changed.
	e.expectEvents()
}
