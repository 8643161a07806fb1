package api

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/partnertui/partnertui/internal/safetext"
)

// ErrInvalidParam matches a *ParamError.
var ErrInvalidParam = errors.New("invalid parameter")

// ParamError is a parameter the schema would refuse, caught before anything
// is sent. Param is the GraphQL name ("filters.status", "orderBy.field").
type ParamError struct {
	Param   string
	Value   string   // sanitised and bounded
	Allowed []string // the schema's values, when the parameter is an enum
	Reason  string   // when it is not an enum
}

func (e *ParamError) Error() string {
	if len(e.Allowed) > 0 {
		return fmt.Sprintf("%s: %q is not one of %s", e.Param, e.Value, strings.Join(e.Allowed, ", "))
	}
	return fmt.Sprintf("%s: %q %s", e.Param, e.Value, e.Reason)
}

func (e *ParamError) Is(target error) bool { return target == ErrInvalidParam }

func paramError(param, value, reason string, allowed []string) error {
	return &ParamError{Param: param, Value: safetext.Truncate(value, 80), Reason: reason, Allowed: allowed}
}

// checkEnum refuses any value that is not one of allowed.
func checkEnum(param string, allowed []string, values ...string) error {
	for _, v := range values {
		if !slices.Contains(allowed, v) {
			return paramError(param, v, "", allowed)
		}
	}
	return nil
}

// checkOrder checks an orderBy pair; both may be empty (the server's
// default order).
func checkOrder(fields []string, field, direction string) error {
	if field != "" {
		if err := checkEnum("orderBy.field", fields, field); err != nil {
			return err
		}
	}
	if direction != "" {
		return checkEnum("orderBy.direction", OrderDirections(), direction)
	}
	return nil
}

// checkAmount refuses what is not of the form of the schema's AmountValue:
// a decimal with a dot, signed when negative (its precision is left to the
// server).
func checkAmount(param, v string) error {
	whole, frac, dot := strings.Cut(strings.TrimPrefix(v, "-"), ".")
	if v == "" || (digits(whole) && (!dot || digits(frac))) {
		return nil
	}
	return paramError(param, v, "is not an amount (digits with an optional decimal dot, such as 12.50)", nil)
}

func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// The schema's enum values that parameters take, for validation and for
// the surfaces' completions. Each call returns a fresh slice.

// OrderDirections is OrderByDirection.
func OrderDirections() []string { return []string{DirectionAsc, DirectionDesc} }

// TransactionStatuses is TransactionStatus.
func TransactionStatuses() []string {
	return []string{"Booked", "Deferred", "Rejected", "Pending", "Canceled", "Upcoming", "Released", "Settled"}
}

// PaymentProducts is PaymentProduct.
func PaymentProducts() []string {
	return []string{"SEPACreditTransfer", "SEPADirectDebit", "Card", "Fees", "InternalDirectDebit", "Check",
		"InternationalCreditTransfer", "InPersonCard", "OnlineCard"}
}

// TransactionTypes is TransactionTypeEnum.
func TransactionTypes() []string {
	return []string{
		"InternalCreditTransferOut", "InternalCreditTransferOutReturn", "InternalCreditTransferOutRecall",
		"InternalCreditTransferIn", "InternalCreditTransferInReturn", "InternalCreditTransferInRecall",
		"SepaCreditTransferOut", "SepaInstantCreditTransferOut", "SepaInstantCreditTransferIn",
		"SepaCreditTransferOutReturn", "SepaInstantCreditTransferOutRecall", "SepaInstantCreditTransferInRecall",
		"SepaCreditTransferOutRecall", "SepaCreditTransferIn", "SepaCreditTransferInReturn", "SepaCreditTransferInRecall",
		"FeesOut", "FeesIn",
		"SepaDirectDebitIn", "SepaDirectDebitInReturn", "SepaDirectDebitInReversal",
		"SepaDirectDebitOut", "SepaDirectDebitOutReturn", "SepaDirectDebitOutReversal",
		"CardOutAuthorization", "CardOutDebit", "CardOutDebitReversal", "CardOutCredit", "CardOutCreditReversal",
		"InternalDirectDebitIn", "InternalDirectDebitInReturn", "InternalDirectDebitOut", "InternalDirectDebitOutReturn",
		"CheckIn", "CheckInReturn",
		"InternationalCreditTransferIn", "InternationalCreditTransferOut",
		"InternationalCreditTransferInReturn", "InternationalCreditTransferOutReturn",
		"CardInCredit", "CardInChargeback", "CardInChargebackReversal",
	}
}

// TransactionOrderFields is TransactionsOrderByField.
func TransactionOrderFields() []string {
	return []string{TxOrderID, TxOrderCreatedAt, TxOrderUpdatedAt, TxOrderExecutionDate}
}

// MembershipStatuses is AccountMembershipStatus.
func MembershipStatuses() []string {
	return []string{"ConsentPending", "InvitationSent", "BindingUserError", "Enabled", "Suspended", "Disabled"}
}

// MembershipOrderFields is AccountMembershipOrderByFieldInput.
func MembershipOrderFields() []string { return []string{OrderCreatedAt, OrderUpdatedAt} }

// CardStatuses is CardStatus.
func CardStatuses() []string {
	return []string{"ConsentPending", "Processing", "Enabled", "Canceled", "Canceling"}
}

// CardTypes is CardType.
func CardTypes() []string { return []string{"Virtual", "VirtualAndPhysical", "SingleUseVirtual"} }

// CardOrderFields is CardOrderByFieldInput.
func CardOrderFields() []string { return []string{"id", OrderCreatedAt, OrderUpdatedAt} }

// StatementPeriods is StatementPeriod.
func StatementPeriods() []string { return []string{"Monthly", "Custom"} }

// StatementOrderFields is StatementsOrderByField.
func StatementOrderFields() []string { return []string{"openingDate", "closingDate"} }

// WebhookStatusTexts is StatusText (a webhook delivery's outcome).
func WebhookStatusTexts() []string { return []string{"Success", "Failure"} }

// WebhookCreationStatuses is WebhookSubscriptionCreationStatus.
func WebhookCreationStatuses() []string { return []string{"Enabled", "Disabled"} }

// ---- variable helpers ----

// cursorVar is the after variable: null for the first page.
func cursorVar(after string) *string {
	if after == "" {
		return nil
	}
	return &after
}

// dateTimeVar renders a DateTime input; the zero time is "" (omitted).
func dateTimeVar(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// orderByInput is the shape of every *OrderByInput; N names the schema's
// input type.
type orderByInput[N inputName] struct {
	Field     string `json:"field,omitempty"`
	Direction string `json:"direction,omitempty"`
}

// inputName is a zero-size type naming one input type of the schema, so
// that even a nil pointer to the input declares its type in the query text.
type inputName interface{ graphQLType() string }

// GetGraphQLType names the variable's type in the query text. The pointer
// receiver lets a nil pointer declare the nullable type.
func (*orderByInput[N]) GetGraphQLType() string {
	var n N
	return n.graphQLType()
}

// orderVar is nil (server default) when neither part is set.
func orderVar[N inputName](field, direction string) *orderByInput[N] {
	if field == "" && direction == "" {
		return nil
	}
	return &orderByInput[N]{Field: field, Direction: direction}
}

// statusFilterInput is the shape of a filters input whose one filter is
// the status (an account's standing orders', its virtual IBANs', the
// merchant profiles'); N names the schema's input type, as orderByInput's.
type statusFilterInput[N inputName] struct {
	Status []string `json:"status,omitempty"`
}

// GetGraphQLType names the variable's type in the query text.
func (*statusFilterInput[N]) GetGraphQLType() string {
	var n N
	return n.graphQLType()
}

// statusFilterVar is nil (no filter) without statuses.
func statusFilterVar[N inputName](statuses []string) *statusFilterInput[N] {
	if len(statuses) == 0 {
		return nil
	}
	return &statusFilterInput[N]{Status: statuses}
}
