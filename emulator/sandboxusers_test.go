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

func TestUpdateAndDeleteSandboxUser(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t)
	var created struct {
		C struct{ SandboxUser struct{ ID string } } `json:"createSandboxUser"`
	}
	e.mustData(pathAdmin, tokSandboxUser0, opCreateUser, map[string]any{"input": map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "birthDate": "1990-12-10", "nationalityCCA3": "GBR", "autoConsent": true}}, &created)
	id := created.C.SandboxUser.ID
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
