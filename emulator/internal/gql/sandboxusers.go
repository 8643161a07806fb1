package gql

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

func (r *adminResolver) SandboxUser(ctx context.Context) (*sandboxUserR, error) {
	id, err := r.signedIn(ctx)
	if err != nil {
		return nil, err
	}
	eff := r.store.Effective(id)
	u, ok := r.store.User(eff)
	if !ok {
		return nil, fmt.Errorf("the signed-in user %s no longer exists: sign in again", eff)
	}
	return newSandboxUser(u, true), nil
}

func (r *adminResolver) SandboxUserByID(ctx context.Context, args struct{ ID ID }) (*sandboxUserR, error) {
	id, err := r.signedIn(ctx)
	if err != nil {
		return nil, err
	}
	u, ok := r.store.User(string(args.ID))
	if !ok {
		return nil, nil
	}
	return newSandboxUser(u, u.ID == r.store.Effective(id)), nil
}

type sandboxUsersArgs struct {
	First   int32
	After   *string
	Offset  *int32
	OrderBy *orderArgs
}

func (r *adminResolver) SandboxUsers(ctx context.Context, args sandboxUsersArgs) (*connR[data.User, *sandboxUserR], error) {
	id, err := r.signedIn(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkFirst(args.First); err != nil {
		return nil, err
	}
	field, desc := orderOf(args.OrderBy, "createdAt", false)
	page, err := r.store.Users(int(args.First), deref(args.After), int(deref(args.Offset)), field, desc)
	if err != nil {
		return nil, fmt.Errorf("sandboxUsers: %w", err)
	}
	active := r.store.Effective(id)
	return newConn(page, data.UserCursor, func(u *data.User) *sandboxUserR { return newSandboxUser(*u, u.ID == active) }), nil
}

// sandboxUserR shares the fields both schemas name alike with userR and
// adds the Testing API's own.
type sandboxUserR struct {
	userR
	active bool
}

func newSandboxUser(u data.User, active bool) *sandboxUserR {
	return &sandboxUserR{userR: userR{u: u}, active: active}
}

func (s *sandboxUserR) BirthCountryCCA3() *scalar { return optScalar(s.u.BirthCountry) }
func (s *sandboxUserR) AutoConsent() bool         { return s.u.AutoConsent }
func (s *sandboxUserR) IsActive() *bool           { return &s.active }
func (s *sandboxUserR) AllFirstNames() *[]string {
	if s.u.FirstName == "" {
		return nil
	}
	names := strings.Fields(s.u.FirstName)
	return &names
}

// maxNameLen bounds the names of created sandbox users.
const maxNameLen = 100

// cca3Pattern is compiled on first use: the emulator is linked into every
// partnertui command, and package initialisation runs before each of them.
var cca3Pattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{3}$`) })

type createSandboxUserArgs struct {
	Input sandboxUserInput
}

func (r *adminResolver) CreateSandboxUser(ctx context.Context, args createSandboxUserArgs) (*payloadR, error) {
	if _, err := r.signedIn(ctx); err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	nu, p, err := args.Input.newUser()
	if p != nil || err != nil {
		return p, err
	}
	u, err := r.store.CreateUser(nu)
	if err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	return &payloadR{kind: "Success", user: newSandboxUser(u, false)}, nil
}

// sandboxUserInput is what createSandboxUser and updateSandboxUser set.
type sandboxUserInput struct {
	FirstName        string
	LastName         string
	AllFirstNames    *[]string
	BirthDate        scalar
	BirthCountryCCA3 *scalar
	NationalityCCA3  scalar
	AutoConsent      bool
}

// newUser checks the input: an error for a malformed one, a rejection for
// an unknown nationality.
func (in sandboxUserInput) newUser() (data.NewUser, *payloadR, error) {
	if strings.TrimSpace(in.FirstName) == "" || strings.TrimSpace(in.LastName) == "" {
		return data.NewUser{}, nil, errors.New("firstName and lastName must not be empty: pass the user's names")
	}
	if len(in.FirstName) > maxNameLen || len(in.LastName) > maxNameLen {
		return data.NewUser{}, nil, fmt.Errorf("firstName and lastName must be at most %d bytes: shorten them", maxNameLen)
	}
	if _, err := time.Parse("2006-01-02", string(in.BirthDate)); err != nil {
		return data.NewUser{}, nil, fmt.Errorf("birthDate %q is not a date: use YYYY-MM-DD", string(in.BirthDate))
	}
	if !cca3Pattern().MatchString(string(in.NationalityCCA3)) {
		return data.NewUser{}, &payloadR{kind: "NationalityNotFound", message: "nationality not found", ident: string(in.NationalityCCA3)}, nil
	}
	nu := data.NewUser{
		FirstName:   strings.TrimSpace(in.FirstName),
		LastName:    strings.TrimSpace(in.LastName),
		BirthDate:   string(in.BirthDate),
		Nationality: string(in.NationalityCCA3),
		AutoConsent: in.AutoConsent,
	}
	if in.BirthCountryCCA3 != nil {
		nu.BirthCountry = string(*in.BirthCountryCCA3)
	}
	return nu, nil, nil
}

type updateSandboxUserArgs struct {
	Input struct {
		ID ID
		sandboxUserInput
	}
}

func (r *adminResolver) UpdateSandboxUser(ctx context.Context, args updateSandboxUserArgs) (*payloadR, error) {
	signed, err := r.signedIn(ctx)
	if err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	nu, p, err := args.Input.newUser()
	if p != nil || err != nil {
		return p, err
	}
	id := string(args.Input.ID)
	u, err := r.store.UpdateUser(id, nu)
	if err != nil {
		return &payloadR{kind: "SandboxUserNotFound", message: "sandbox user not found", ident: id}, nil
	}
	return &payloadR{kind: "Success", user: newSandboxUser(u, u.ID == r.store.Effective(signed)),
		emits: []emission{{webhooks.UserUpdated, u.ID}}}, nil
}

func (r *adminResolver) DeleteSandboxUser(ctx context.Context, args struct{ Input struct{ ID string } }) (*payloadR, error) {
	if _, err := r.signedIn(ctx); err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	id := args.Input.ID
	switch err := r.store.DeleteUser(id); {
	case errors.Is(err, data.ErrLastUser):
		return &payloadR{kind: "LastSandboxUserCannotBeDeleted", message: err.Error(), ident: id}, nil
	case err != nil:
		return &payloadR{kind: "SandboxUserNotFound", message: "sandbox user not found", ident: id}, nil
	}
	return &payloadR{kind: "Success", emits: []emission{{webhooks.UserDeactivated, id}}}, nil
}

// Success is DeleteSandboxUserSuccessPayload's field.
func (p *payloadR) Success() bool { return p.kind == "Success" }

func (p *payloadR) ToUpdateSandboxUserSuccessPayload() (*payloadR, bool) { return p.as("Success") }
func (p *payloadR) ToDeleteSandboxUserSuccessPayload() (*payloadR, bool) { return p.as("Success") }
func (p *payloadR) ToLastSandboxUserCannotBeDeletedRejection() (*payloadR, bool) {
	return p.as("LastSandboxUserCannotBeDeleted")
}

func (r *adminRoot) UpdateSandboxUser(ctx context.Context, args updateSandboxUserArgs) (*payloadR, error) {
	return r.emitted(r.adminResolver.UpdateSandboxUser(ctx, args))
}
func (r *adminRoot) DeleteSandboxUser(ctx context.Context, args struct{ Input struct{ ID string } }) (*payloadR, error) {
	return r.emitted(r.adminResolver.DeleteSandboxUser(ctx, args))
}

func (r *adminResolver) EndorseSandboxUser(ctx context.Context, args struct{ Input struct{ ID string } }) (*payloadR, error) {
	id, err := r.signedIn(ctx)
	if err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	u, err := r.store.Endorse(id, args.Input.ID)
	if err != nil {
		return &payloadR{kind: "SandboxUserNotFound", message: "sandbox user not found", ident: args.Input.ID}, nil
	}
	return &payloadR{kind: "Success", user: newSandboxUser(u, true)}, nil
}

func (r *adminRoot) CreateSandboxUser(ctx context.Context, args createSandboxUserArgs) (*payloadR, error) {
	p, err := r.adminResolver.CreateSandboxUser(ctx, args)
	if err == nil && p.kind == "Success" {
		r.events.hub.Emit(webhooks.UserJoined, p.user.u.ID)
	}
	return p, err
}
