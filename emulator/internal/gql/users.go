package gql

import (
	"context"
	"errors"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

func (r *partnerResolver) User(ctx context.Context, args struct{ ID *string }) (*userR, error) {
	c := callerFrom(ctx)
	var id string
	switch {
	case c.viewer.Project && (args.ID == nil || *args.ID == ""):
		return nil, errors.New("a project token must pass the user id: call user(id: \"…\")")
	case c.viewer.Project:
		id = *args.ID
	default:
		// A user token always reads the signed-in user (or the sandbox
		// user they endorsed), whatever the id.
		id = r.store.Effective(c.viewer.UserID)
	}
	u, ok := r.store.User(id)
	if !ok {
		return nil, nil
	}
	return &userR{r: r.request(ctx), u: u}, nil
}

func (r *partnerResolver) ProjectInfo() *projectR {
	return &projectR{p: r.store.Project(), clientID: r.clientID}
}

// projectR is ProjectInfo.
type projectR struct {
	p        data.Project
	clientID string
}

func (p *projectR) ID() ID                            { return ID(p.p.ID) }
func (p *projectR) Name() string                      { return p.p.Name }
func (p *projectR) Type() string                      { return p.p.Type }
func (p *projectR) LogoUri() *string                  { return nil }
func (p *projectR) AccentColor() *string              { return optString(p.p.AccentColor) }
func (p *projectR) OAuthClientID() *string            { return optString(p.clientID) }
func (p *projectR) Status() string                    { return p.p.Status }
func (p *projectR) AllowsDesktopAuthentication() bool { return p.p.AllowsDesktopAuth }
func (p *projectR) ProjectSettingsID() ID             { return ID(p.p.SettingsID) }

// userR is a User.
type userR struct {
	r *request
	u data.User
}

func (u *userR) ID() ID                                { return ID(u.u.ID) }
func (u *userR) FirstName() *string                    { return optString(u.u.FirstName) }
func (u *userR) LastName() *string                     { return optString(u.u.LastName) }
func (u *userR) FullName() *string                     { return optString(u.u.FullName()) }
func (u *userR) MobilePhoneNumber() *scalar            { return optScalar(u.u.Phone) }
func (u *userR) BirthDate() *scalar                    { return optScalar(u.u.BirthDate) }
func (u *userR) NationalityCCA3() *scalar              { return optScalar(u.u.Nationality) }
func (u *userR) BirthCity() *string                    { return optString(u.u.BirthCity) }
func (u *userR) BirthCountry() *scalar                 { return optScalar(u.u.BirthCountry) }
func (u *userR) PreferredNotificationChannel() *string { return optString(u.u.PreferredChannel) }
func (u *userR) Status() *string                       { return optString(u.u.Status) }
func (u *userR) CreatedAt() scalar                     { return dateTime(u.u.CreatedAt) }
func (u *userR) UpdatedAt() scalar                     { return dateTime(u.u.UpdatedAt) }
func (u *userR) JoinedAt() scalar                      { return dateTime(u.u.CreatedAt) }
func (u *userR) IdentificationLevels() *idLevelsR      { return &idLevelsR{u: u.u} }

func (u *userR) AllFirstNames() *[]string {
	if u.u.FirstName == "" {
		return nil
	}
	names := []string{u.u.FirstName}
	return &names
}

func (u *userR) VerifiedEmails() []string {
	if u.u.Email == "" {
		return []string{}
	}
	return []string{u.u.Email}
}

type userMembershipsArgs struct {
	First   int32
	Before  *string
	After   *string
	Filters *membershipFilterArgs
}

func (u *userR) AccountMemberships(args userMembershipsArgs) (*membershipConnR, error) {
	q, err := membershipsArgs{First: args.First, Before: args.Before, After: args.After, Filters: args.Filters}.query()
	if err != nil {
		return nil, err
	}
	page, err := u.r.store.UserMemberships(u.r.viewer, u.u.ID, q)
	if err != nil {
		return nil, fmt.Errorf("accountMemberships: %w", err)
	}
	return u.r.memberships(page), nil
}

type idLevelsR struct{ u data.User }

func (l *idLevelsR) PVID() bool   { return l.u.PVID }
func (l *idLevelsR) QES() bool    { return l.u.QES }
func (l *idLevelsR) Expert() bool { return l.u.Expert }
