package api

import (
	"context"
	"errors"
	"testing"
)

// simulationOperations runs the Testing API's simulations on the
// emulator, as a partner's Sandbox tests would, and checks what each
// returns; a rejection comes back as a *RejectionError naming its type.
func simulationOperations(t *testing.T, cov *opCoverage, user *Client) {
	ctx := context.Background()
	u, err := user.CreateSandboxUser(ctx, SandboxUserInput{FirstName: "Ada", LastName: "Ops", BirthDate: "1990-04-12", NationalityCCA3: "FRA", AutoConsent: true})
	cov.ok(t, OpCreateSandboxUser, err)
	if u.ID == "" || u.FirstName != "Ada" || u.LastName != "Ops" || !u.AutoConsent {
		t.Errorf("%s = %+v", OpCreateSandboxUser, u)
	}
	_, err = user.CreateSandboxUser(ctx, SandboxUserInput{FirstName: "Ada", LastName: "Ops", BirthDate: "1990-04-12", NationalityCCA3: "XX1"})
	var rej *RejectionError
	if !errors.As(err, &rej) || rej.Type != "NationalityNotFoundRejection" || rej.Message == "" {
		t.Errorf("%s with nationality XX1: %v, want a NationalityNotFoundRejection", OpCreateSandboxUser, err)
	}
}
