package gql

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	graphql "github.com/graph-gophers/graphql-go"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/webhooks"
)

// adminResolver is the root of the Sandbox Testing API.
type adminResolver struct {
	store *data.Store
}

// errUserTokenOnly is returned where the platform accepts user tokens only.
var errUserTokenOnly = errors.New("this operation needs a user access token: sign in with the authorization-code flow and retry")

func (r *adminResolver) signedIn(ctx context.Context) (string, error) {
	c := callerFrom(ctx)
	if c.viewer.Project || c.viewer.UserID == "" {
		return "", errUserTokenOnly
	}
	return c.viewer.UserID, nil
}

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

func (r *adminResolver) SandboxUserByID(ctx context.Context, args struct{ ID graphql.ID }) (*sandboxUserR, error) {
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

// payloadR serves every payload union member; only the fields of the
// member it converts to are ever read.
type payloadR struct {
	kind    string // Success | Forbidden | NationalityNotFound | SandboxUserNotFound
	message string
	ident   string
	user    *sandboxUserR
	txID    string
}

func (p *payloadR) Message() string            { return p.message }
func (p *payloadR) Identifier() scalar         { return scalar(p.ident) }
func (p *payloadR) UserID() string             { return p.ident }
func (p *payloadR) SandboxUser() *sandboxUserR { return p.user }
func (p *payloadR) TransactionID() graphql.ID  { return graphql.ID(p.txID) }

func (p *payloadR) as(kind string) (*payloadR, bool) { return p, p.kind == kind }
func (p *payloadR) ToForbiddenRejection() (*payloadR, bool) {
	return p.as("Forbidden")
}
func (p *payloadR) ToNationalityNotFoundRejection() (*payloadR, bool) {
	return p.as("NationalityNotFound")
}
func (p *payloadR) ToSandboxUserNotFoundRejection() (*payloadR, bool) {
	return p.as("SandboxUserNotFound")
}
func (p *payloadR) ToCreateSandboxUserSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToEndorseSandboxUserSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}
func (p *payloadR) ToSimulateIncomingSepaCreditTransferReceptionSuccessPayload() (*payloadR, bool) {
	return p.as("Success")
}

// maxNameLen bounds the names of created sandbox users.
const maxNameLen = 100

// cca3Pattern is compiled on first use: the emulator is linked into every
// partnertui command, and package initialisation runs before each of them.
var cca3Pattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{3}$`) })

type createSandboxUserArgs struct {
	Input struct {
		FirstName        string
		LastName         string
		AllFirstNames    *[]string
		BirthDate        scalar
		BirthCountryCCA3 *scalar
		NationalityCCA3  scalar
		AutoConsent      bool
	}
}

func (r *adminResolver) CreateSandboxUser(ctx context.Context, args createSandboxUserArgs) (*payloadR, error) {
	if _, err := r.signedIn(ctx); err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	in := args.Input
	if strings.TrimSpace(in.FirstName) == "" || strings.TrimSpace(in.LastName) == "" {
		return nil, errors.New("firstName and lastName must not be empty: pass the new user's names")
	}
	if len(in.FirstName) > maxNameLen || len(in.LastName) > maxNameLen {
		return nil, fmt.Errorf("firstName and lastName must be at most %d bytes: shorten them", maxNameLen)
	}
	if _, err := time.Parse("2006-01-02", string(in.BirthDate)); err != nil {
		return nil, fmt.Errorf("birthDate %q is not a date: use YYYY-MM-DD", string(in.BirthDate))
	}
	if !cca3Pattern().MatchString(string(in.NationalityCCA3)) {
		return &payloadR{kind: "NationalityNotFound", message: "nationality not found", ident: string(in.NationalityCCA3)}, nil
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
	u, err := r.store.CreateUser(nu)
	if err != nil {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	return &payloadR{kind: "Success", user: newSandboxUser(u, false)}, nil
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

type simulateArgs struct {
	Input struct {
		Amount struct {
			Value    scalar
			Currency scalar
		}
		CreditorAddress *addressInput
		CreditorIban    scalar
		CreditorName    string
		DebtorAddress   *addressInput
		DebtorIban      scalar
		DebtorName      string
		EndToEndID      *scalar
		Label           *string
		IsInstant       *bool
	}
}

type addressInput struct {
	AddressLine1 *string
	AddressLine2 *string
	City         *string
	PostalCode   *string
	State        *string
	Country      scalar
}

// sepaReference is the SepaReference scalar's character set and length.
var sepaReference = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9/\-?:().,'+ ]{1,35}$`) })

func (r *adminResolver) SimulateIncomingSepaCreditTransferReception(ctx context.Context, args simulateArgs) (*payloadR, error) {
	in := args.Input
	cents, err := data.ParseAmount(string(in.Amount.Value))
	if err != nil || cents == 0 {
		return nil, fmt.Errorf("amount.value %q must be a positive decimal such as \"100.00\"", string(in.Amount.Value))
	}
	if !data.ValidIBAN(strings.ReplaceAll(string(in.DebtorIban), " ", "")) {
		return nil, fmt.Errorf("debtorIban %q is not a valid IBAN: check its check digits", string(in.DebtorIban))
	}
	if strings.TrimSpace(in.CreditorName) == "" || strings.TrimSpace(in.DebtorName) == "" {
		return nil, errors.New("creditorName and debtorName must not be empty")
	}
	t := data.IncomingTransfer{
		CreditorIBAN: string(in.CreditorIban),
		CreditorName: in.CreditorName,
		DebtorIBAN:   string(in.DebtorIban),
		DebtorName:   in.DebtorName,
		Amount:       cents,
		Currency:     string(in.Amount.Currency),
		Instant:      deref(in.IsInstant),
		Label:        deref(in.Label),
	}
	if in.EndToEndID != nil {
		ref := string(*in.EndToEndID)
		if !sepaReference().MatchString(ref) || strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.Contains(ref, "//") {
			return nil, fmt.Errorf("endToEndId %q is not a SEPA reference: use up to 35 Latin letters, digits or /-?:().,'+ and space", ref)
		}
		t.EndToEndID = ref
	}
	tx, err := r.store.ReceiveTransfer(callerFrom(ctx).viewer, t)
	if errors.Is(err, data.ErrForbidden) {
		return &payloadR{kind: "Forbidden", message: err.Error()}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("simulate transfer: %w", err)
	}
	return &payloadR{kind: "Success", txID: tx.ID}, nil
}

// adminRoot is the Testing API's root: the admin resolvers, with the
// mutations that change data wrapped so each change emits its event.
type adminRoot struct {
	*adminResolver
	events *Events
}

func (r *adminRoot) SimulateIncomingSepaCreditTransferReception(ctx context.Context, args simulateArgs) (*payloadR, error) {
	p, err := r.adminResolver.SimulateIncomingSepaCreditTransferReception(ctx, args)
	if err != nil || p.kind != "Success" {
		return p, err
	}
	if a, ok := r.store.AccountByIBAN(callerFrom(ctx).viewer, string(args.Input.CreditorIban)); ok {
		r.events.transferReceived(a.ID, p.txID)
	}
	return p, nil
}

func (r *adminRoot) CreateSandboxUser(ctx context.Context, args createSandboxUserArgs) (*payloadR, error) {
	p, err := r.adminResolver.CreateSandboxUser(ctx, args)
	if err == nil && p.kind == "Success" {
		r.events.hub.Emit(webhooks.UserJoined, p.user.u.ID)
	}
	return p, err
}
