package api

import "time"

// Amount is the schema's Amount: a decimal string value and an ISO 4217 code.
type Amount struct {
	Value    string `json:"value"`
	Currency string `json:"currency"`
}

// Balances is the schema's AccountBalances. A balance the operation did
// not fetch (the lists fetch available only) is left out of the JSON.
type Balances struct {
	Available Amount `json:"available,omitzero"`
	Booked    Amount `json:"booked,omitzero"`
	Pending   Amount `json:"pending,omitzero"`
	Reserved  Amount `json:"reserved,omitzero"`
}

// HolderInfo is AccountHolder.info (AccountHolderInfo interface fields).
type HolderInfo struct {
	Type string `json:"type,omitempty"` // Individual | Company
	Name string `json:"name,omitempty"`
}

// Holder is the schema's AccountHolder (the fields we read).
type Holder struct {
	ID                 string     `json:"id,omitempty"`
	VerificationStatus string     `json:"verificationStatus,omitempty"`
	Info               HolderInfo `json:"info,omitzero"`
}

// StatusInfo is Account.statusInfo (AccountStatusInfo interface).
type StatusInfo struct {
	Status string `json:"status"` // Opened | Suspended | Closing | Closed
}

// Account is an account as the UI and the --json output see it. Field names
// and JSON names are the schema's. List queries fill the list fields only
// (id, name, IBAN, BIC, currency, statusInfo, holder.info.name,
// balances.available); Account(id) fills everything. The JSON leaves out
// what was not fetched, and a null IBAN or balances.
type Account struct {
	ID                 string     `json:"id"`
	Number             string     `json:"number,omitempty"`
	Name               string     `json:"name"`
	IBAN               string     `json:"IBAN,omitempty"` // may be empty: IBAN is nullable in the schema
	BIC                string     `json:"BIC,omitempty"`
	Currency           string     `json:"currency,omitempty"`
	Country            string     `json:"country,omitempty"`
	Language           string     `json:"language,omitempty"`
	PaymentLevel       string     `json:"paymentLevel,omitempty"`
	PaymentAccountType string     `json:"paymentAccountType,omitempty"`
	StatusInfo         StatusInfo `json:"statusInfo,omitzero"`
	Holder             Holder     `json:"holder,omitzero"`
	Balances           *Balances  `json:"balances,omitempty"` // nullable in the schema
	CreatedAt          time.Time  `json:"createdAt,omitzero"`
	UpdatedAt          time.Time  `json:"updatedAt,omitzero"`
}

// PageInfo is the schema's PageInfo (cursors of a connection page).
type PageInfo struct {
	HasNextPage     bool   `json:"hasNextPage"`
	HasPreviousPage bool   `json:"hasPreviousPage"`
	StartCursor     string `json:"startCursor"`
	EndCursor       string `json:"endCursor"`
}

// Account list orderings (AccountOrderByFieldInput) and directions.
const (
	OrderCreatedAt = "createdAt"
	OrderUpdatedAt = "updatedAt"
	DirectionAsc   = "Asc"
	DirectionDesc  = "Desc"
)

// AccountsParams are the arguments of one accounts request.
type AccountsParams struct {
	First         int      // page size; 0 means the client's page size (default 100, the API maximum)
	After         string   // cursor; "" for the first page
	Search        string   // filters.search (server side); "" for none
	MainIBAN      string   // filters.mainIBAN, sent compact (no spaces, upper case); "" for none
	Status        []string // filters.status (AccountStatus values)
	PaymentLevels []string // filters.paymentLevels (Limited | Unlimited)
	OrderBy       string   // OrderCreatedAt | OrderUpdatedAt | "" (server default)
	Direction     string   // DirectionAsc | DirectionDesc | ""
	// IBANPart is the start or the last digits of an IBAN (iban.Part),
	// matched here: the platform's filters match a whole IBAN only
	// (ibanpart.go); "" for none.
	IBANPart string
}

// IdentificationLevels is the schema's IdentificationLevels.
type IdentificationLevels struct {
	PVID   bool `json:"PVID"`
	QES    bool `json:"QES"`
	Expert bool `json:"expert"`
}

// User is the schema's User (the fields we read).
type User struct {
	ID                   string               `json:"id"`
	FirstName            string               `json:"firstName"`
	LastName             string               `json:"lastName"`
	FullName             string               `json:"fullName"`
	MobilePhoneNumber    string               `json:"mobilePhoneNumber"`
	BirthDate            string               `json:"birthDate,omitempty"`
	Status               string               `json:"status,omitempty"`
	IdentificationLevels IdentificationLevels `json:"identificationLevels"`
	CreatedAt            time.Time            `json:"createdAt,omitzero"`
}

// ProjectInfo is the schema's ProjectInfo (the fields we read).
type ProjectInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	Status string `json:"status"`
}

// Home is what the app's first screen shows, fetched in one request: the
// first page of accounts and who the token belongs to (User for a user
// token, Project for a project token).
type Home struct {
	User     *User
	Project  *ProjectInfo
	Accounts *Page[Account]
}

// IncomingTransfer is the input of the Testing API's
// simulateIncomingSepaCreditTransferReception (IncomingSepaCreditTransferInput).
type IncomingTransfer struct {
	Amount       Amount
	CreditorIBAN string
	CreditorName string
	DebtorIBAN   string
	DebtorName   string
	Label        string
	Reference    string // endToEndId; optional
}

// Status is a snapshot of one environment client's traffic, for the footer.
type Status struct {
	Env string // "sandbox" | "live"
	// Used counts the requests sent to this client's API host in the
	// current window by every process sharing Options.BudgetDir (by this
	// process alone without it); while the server's X-RateLimit-* count
	// holds, that count plus what was sent since.
	Used        int
	Limit       int           // requests allowed per Window (2000, or the server's X-RateLimit-Limit)
	Window      time.Duration // 5 minutes
	LastStatus  int           // last HTTP status; 0 before any response or after a network error
	LastLatency time.Duration // duration of the last completed request
	InFlight    int           // requests currently on the wire
	// Waiting counts this client's requests held back, not sent, until
	// RetryAt; WaitReason says why. All three are zero when none waits.
	Waiting    int
	WaitReason WaitReason
	RetryAt    time.Time
	// Retrying is true when a waiting request is a query the server
	// answered 429, to be sent again at RetryAt; false when every waiting
	// request is a first send. A mutation is never retried: its 429 is
	// returned at once (a *RateLimitedError) and leaves nothing waiting.
	Retrying bool
}
