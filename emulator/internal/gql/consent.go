package gql

import (
	"context"
	"fmt"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

// consentR is a Consent: what a ConsentPending membership, card or
// payment waits for. A payment's consent may be accepted or refused on
// the emulator's consent page; none is canceled or expires.
type consentR struct {
	r *request
	c data.Consent
}

func (c *consentR) ID() ID              { return ID(c.c.ID) }
func (c *consentR) RequireSCA() bool    { return true }
func (c *consentR) Status() string      { return c.c.Status }
func (c *consentR) CreatedAt() scalar   { return dateTime(c.c.CreatedAt) }
func (c *consentR) UpdatedAt() *scalar  { return optDateTime(c.c.UpdatedAt) }
func (c *consentR) StartedAt() *scalar  { return optDateTime(c.c.StartedAt) }
func (c *consentR) ExpiredAt() *scalar  { return nil }
func (c *consentR) Purpose() string     { return c.c.Purpose }
func (c *consentR) ConsentUrl() string  { return c.c.URL }
func (c *consentR) UserId() string      { return c.c.UserID }
func (c *consentR) Challenge() *string  { return optString(c.c.Challenge) }
func (c *consentR) AcceptedAt() *scalar { return optDateTime(c.c.AcceptedAt) }
func (c *consentR) RefusedAt() *scalar  { return optDateTime(c.c.RefusedAt) }
func (c *consentR) CanceledAt() *scalar { return nil }
func (c *consentR) User() *userR        { return c.r.user(c.c.UserID) }

// RedirectUrl is where the user lands once the consent flow ends: the
// project's registered redirect URI.
func (c *consentR) RedirectUrl() string { return c.r.redirectURI }

// Consent reads a consent by its id: any for a project token, a user's
// own for a user token. The schema's answer is non-null, so an unknown id
// is an error.
func (r *partnerResolver) Consent(ctx context.Context, args struct{ ID ID }) (*consentR, error) {
	req := r.request(ctx)
	c, ok := r.store.ConsentByID(req.viewer, string(args.ID))
	if !ok {
		return nil, fmt.Errorf("no consent has the id %q: pass the id of a consent a mutation answered", string(args.ID))
	}
	return &consentR{r: req, c: c}, nil
}
