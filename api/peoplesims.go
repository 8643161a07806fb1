package api

import "context"

// The Testing API's people: Sandbox users changed and deleted, and the
// identifications that give a user its levels (createSandboxUser is in
// simulations.go).

// Operation names of the people simulations.
const (
	OpUpdateSandboxUser           = "UpdateSandboxUser"
	OpDeleteSandboxUser           = "DeleteSandboxUser"
	OpCreateSandboxIdentification = "CreateSandboxIdentification"
	OpUpdateSandboxIdentification = "UpdateSandboxIdentification"
	OpEndorseSandboxUser          = "EndorseSandboxUser"
)

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

func (m *updateSandboxUserMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.NationalityNotFound, m.P.SandboxUserNotFound)
}

// UpdateSandboxUser changes a Sandbox user.
func (c *Client) UpdateSandboxUser(ctx context.Context, in UpdateSandboxUserInput) (*SandboxUser, error) {
	m, err := simulate[updateSandboxUserMutation](ctx, c, OpUpdateSandboxUser, "UpdateSandboxUserSuccessPayload", in)
	if err != nil {
		return nil, err
	}
	return c.sandboxUserOf(m.P.Success.SandboxUser, "updateSandboxUser")
}

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

func (m *deleteSandboxUserMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.LastUser, m.P.SandboxUserNotFound)
}

// DeleteSandboxUser deletes a Sandbox user (never the project's last).
func (c *Client) DeleteSandboxUser(ctx context.Context, id string) error {
	_, err := simulate[deleteSandboxUserMutation](ctx, c, OpDeleteSandboxUser, "DeleteSandboxUserSuccessPayload", DeleteSandboxUserInput{ID: id})
	return err
}

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

func (m *createSandboxIdentificationMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.UserNotFound, m.P.Forbidden, m.P.InvalidLevels, m.P.InvalidErrorReasons)
}

// CreateSandboxIdentification records an identification of a Sandbox
// user, with the levels it gives, and returns its id.
func (c *Client) CreateSandboxIdentification(ctx context.Context, in SandboxIdentificationInput) (string, error) {
	m, err := simulate[createSandboxIdentificationMutation](ctx, c, OpCreateSandboxIdentification, "CreateSandboxIdentificationSuccessPayload", in)
	if err != nil {
		return "", err
	}
	return m.P.Success.id(), nil
}

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

func (m *updateSandboxIdentificationMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.NotFound, m.P.InvalidLevels, m.P.InvalidErrorReasons)
}

// UpdateSandboxIdentification changes an identification's levels.
func (c *Client) UpdateSandboxIdentification(ctx context.Context, in UpdateSandboxIdentificationInput) (string, error) {
	m, err := simulate[updateSandboxIdentificationMutation](ctx, c, OpUpdateSandboxIdentification, "UpdateSandboxIdentificationSuccessPayload", in)
	if err != nil {
		return "", err
	}
	return m.P.Success.id(), nil
}

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

func (m *endorseSandboxUserMutation) outcome() (string, string) {
	return m.P.Typename, message(m.P.Forbidden, m.P.SandboxUserNotFound)
}

// EndorseSandboxUser makes the signed-in user act as the Sandbox user id:
// from then on the same user token reads and simulates as that user, until
// the signed-in user endorses their own id.
func (c *Client) EndorseSandboxUser(ctx context.Context, id string) (*SandboxUser, error) {
	m, err := simulate[endorseSandboxUserMutation](ctx, c, OpEndorseSandboxUser, "EndorseSandboxUserSuccessPayload", EndorseSandboxUserInput{ID: id})
	if err != nil {
		return nil, err
	}
	return c.sandboxUserOf(m.P.Success.SandboxUser, "endorseSandboxUser")
}
