package gql

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/partnertui/partnertui/emulator/internal/data"
)

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
