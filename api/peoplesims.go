package api

// The Testing API's people: Sandbox users created, changed, endorsed and
// deleted, and the identifications that give a user its levels.

// SandboxUserInput is the Testing API's CreateSandboxUserInput.
type SandboxUserInput struct {
	FirstName        string `json:"firstName"`
	LastName         string `json:"lastName"`
	BirthDate        string `json:"birthDate"`                  // YYYY-MM-DD
	BirthCountryCCA3 string `json:"birthCountryCCA3,omitempty"` // FRA
	NationalityCCA3  string `json:"nationalityCCA3"`
	// AutoConsent lets the user's consents be given without a browser.
	AutoConsent bool `json:"autoConsent"`
}

// GetGraphQLType names the variable's type in the query text.
func (SandboxUserInput) GetGraphQLType() string { return "CreateSandboxUserInput" }

// SandboxUser is the Testing API's SandboxUser (the fields we read).
type SandboxUser struct {
	ID          string `json:"id"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	AutoConsent bool   `json:"autoConsent"`
}

type sandboxUserQL struct {
	ID          string  `graphql:"id"`
	FirstName   *string `graphql:"firstName"`
	LastName    *string `graphql:"lastName"`
	AutoConsent bool    `graphql:"autoConsent"`
}

func (u *sandboxUserQL) user() *SandboxUser {
	return &SandboxUser{ID: u.ID, FirstName: deref(u.FirstName), LastName: deref(u.LastName), AutoConsent: u.AutoConsent}
}

// sandboxUserOf is the user a success payload of op names; a success
// without one is a bad response.
func sandboxUserOf(env string, u *sandboxUserQL, op string) (*SandboxUser, error) {
	if u == nil {
		return nil, &BadResponseError{Env: env, Status: 200, Kind: AnswerShape, Reason: op + " succeeded without its sandboxUser"}
	}
	return u.user(), nil
}

// userOutputs are a simulation's whose success names a Sandbox user.
var userOutputs = named(func(u *SandboxUser) []string { return []string{u.ID} }, "sandboxUser.id")

type createSandboxUserMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			SandboxUser *sandboxUserQL `graphql:"sandboxUser"`
		} `graphql:"... on CreateSandboxUserSuccessPayload"`
		NationalityNotFound rejectionQL `graphql:"... on NationalityNotFoundRejection"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
	} `graphql:"createSandboxUser(input: $input)"`
}

// CreateSandboxUser creates a Sandbox user (the Testing API's
// createSandboxUser; the platform wants a user token for it).
var CreateSandboxUser = simulation[SandboxUserInput](
	func(env string, m *createSandboxUserMutation) (*SandboxUser, error) {
		return sandboxUserOf(env, m.P.Success.SandboxUser, "createSandboxUser")
	}, userOutputs)

// UpdateSandboxUserInput is the Testing API's UpdateSandboxUserInput: the
// user's fields, all given again.
type UpdateSandboxUserInput struct {
	ID string `json:"id"`
	SandboxUserInput
}

// GetGraphQLType names the variable's type in the query text.
func (UpdateSandboxUserInput) GetGraphQLType() string { return "UpdateSandboxUserInput" }

// DeleteSandboxUserInput is the Testing API's DeleteSandboxUserInput.
type DeleteSandboxUserInput struct {
	ID string `json:"id"`
}

// GetGraphQLType names the variable's type in the query text.
func (DeleteSandboxUserInput) GetGraphQLType() string { return "DeleteSandboxUserInput" }

// EndorseSandboxUserInput is the Testing API's EndorseSandboxUserInput.
type EndorseSandboxUserInput struct {
	ID string `json:"id"`
}

// GetGraphQLType names the variable's type in the query text.
func (EndorseSandboxUserInput) GetGraphQLType() string { return "EndorseSandboxUserInput" }

// IdentificationLevelsInput is IdentificationLevelStatusesInput: a
// SwanIdentificationStatus (Valid, Invalid, Pending…) per level.
type IdentificationLevelsInput struct {
	Expert string `json:"expert,omitempty"`
	PVID   string `json:"pvid,omitempty"`
	QES    string `json:"qes,omitempty"`
}

// SandboxIdentificationInput is CreateSandboxIdentificationInput (without
// errorReasons).
type SandboxIdentificationInput struct {
	UserID  string                    `json:"userId"`
	Process string                    `json:"process"` // Expert | QES | PVID
	Levels  IdentificationLevelsInput `json:"levels"`
}

// GetGraphQLType names the variable's type in the query text.
func (SandboxIdentificationInput) GetGraphQLType() string { return "CreateSandboxIdentificationInput" }

// UpdateSandboxIdentificationInput is UpdateSandboxIdentificationInput
// (without errorReasons).
type UpdateSandboxIdentificationInput struct {
	IdentificationID string                    `json:"identificationId"`
	Process          string                    `json:"process"`
	Levels           IdentificationLevelsInput `json:"levels"`
}

// GetGraphQLType names the variable's type in the query text.
func (UpdateSandboxIdentificationInput) GetGraphQLType() string {
	return "UpdateSandboxIdentificationInput"
}

type updateSandboxUserMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			SandboxUser *sandboxUserQL `graphql:"sandboxUser"`
		} `graphql:"... on UpdateSandboxUserSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		NationalityNotFound rejectionQL `graphql:"... on NationalityNotFoundRejection"`
		SandboxUserNotFound rejectionQL `graphql:"... on SandboxUserNotFoundRejection"`
	} `graphql:"updateSandboxUser(input: $input)"`
}

// UpdateSandboxUser changes a Sandbox user.
var UpdateSandboxUser = simulation[UpdateSandboxUserInput](
	func(env string, m *updateSandboxUserMutation) (*SandboxUser, error) {
		return sandboxUserOf(env, m.P.Success.SandboxUser, "updateSandboxUser")
	}, userOutputs)

type deleteSandboxUserMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			Success bool `graphql:"success"`
		} `graphql:"... on DeleteSandboxUserSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		LastUser            rejectionQL `graphql:"... on LastSandboxUserCannotBeDeletedRejection"`
		SandboxUserNotFound rejectionQL `graphql:"... on SandboxUserNotFoundRejection"`
	} `graphql:"deleteSandboxUser(input: $input)"`
}

// DeleteSandboxUser deletes a Sandbox user (never the project's last).
var DeleteSandboxUser = simulation[DeleteSandboxUserInput](
	func(string, *deleteSandboxUserMutation) (struct{}, error) { return struct{}{}, nil },
	named(func(struct{}) []string { return nil }))

type identificationQL struct {
	SandboxIdentification *struct {
		ID string `graphql:"id"`
	} `graphql:"sandboxIdentification"`
}

func (q identificationQL) id() string {
	if q.SandboxIdentification == nil {
		return ""
	}
	return q.SandboxIdentification.ID
}

type createSandboxIdentificationMutation struct {
	P struct {
		Typename            string           `graphql:"__typename"`
		Success             identificationQL `graphql:"... on CreateSandboxIdentificationSuccessPayload"`
		UserNotFound        rejectionQL      `graphql:"... on UserNotFoundRejection"`
		Forbidden           rejectionQL      `graphql:"... on ForbiddenRejection"`
		InvalidLevels       rejectionQL      `graphql:"... on InvalidIdentificationLevelsRejection"`
		InvalidErrorReasons rejectionQL      `graphql:"... on InvalidIdentificationErrorReasonsRejection"`
	} `graphql:"createSandboxIdentification(input: $input)"`
}

// CreateSandboxIdentification records an identification of a Sandbox
// user, with the levels it gives, and returns its id.
var CreateSandboxIdentification = simulation[SandboxIdentificationInput](
	func(_ string, m *createSandboxIdentificationMutation) (string, error) { return m.P.Success.id(), nil }, identificationOutputs)

// identificationOutputs are a simulation's whose success names an
// identification.
var identificationOutputs = named(func(id string) []string { return []string{id} }, "sandboxIdentification.id")

type updateSandboxIdentificationMutation struct {
	P struct {
		Typename            string           `graphql:"__typename"`
		Success             identificationQL `graphql:"... on UpdateSandboxIdentificationSuccessPayload"`
		Forbidden           rejectionQL      `graphql:"... on ForbiddenRejection"`
		NotFound            rejectionQL      `graphql:"... on SandboxIdentificationNotFoundRejection"`
		InvalidLevels       rejectionQL      `graphql:"... on InvalidIdentificationLevelsRejection"`
		InvalidErrorReasons rejectionQL      `graphql:"... on InvalidIdentificationErrorReasonsRejection"`
	} `graphql:"updateSandboxIdentification(input: $input)"`
}

// UpdateSandboxIdentification changes an identification's levels.
var UpdateSandboxIdentification = simulation[UpdateSandboxIdentificationInput](
	func(_ string, m *updateSandboxIdentificationMutation) (string, error) { return m.P.Success.id(), nil }, identificationOutputs)

type endorseSandboxUserMutation struct {
	P struct {
		Typename string `graphql:"__typename"`
		Success  struct {
			SandboxUser *sandboxUserQL `graphql:"sandboxUser"`
		} `graphql:"... on EndorseSandboxUserSuccessPayload"`
		Forbidden           rejectionQL `graphql:"... on ForbiddenRejection"`
		SandboxUserNotFound rejectionQL `graphql:"... on SandboxUserNotFoundRejection"`
	} `graphql:"endorseSandboxUser(input: $input)"`
}

// EndorseSandboxUser makes the signed-in user act as the Sandbox user of
// its input: from then on the same user token reads and simulates as that
// user, until the signed-in user endorses their own id.
var EndorseSandboxUser = simulation[EndorseSandboxUserInput](
	func(env string, m *endorseSandboxUserMutation) (*SandboxUser, error) {
		return sandboxUserOf(env, m.P.Success.SandboxUser, "endorseSandboxUser")
	}, userOutputs)
