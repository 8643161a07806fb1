// Package data is the emulator's deterministic banking data set: accounts,
// holders, balances, lazily generated transactions, users and their
// memberships, for one environment. Everything derives from a seed, so two
// stores built with the same Config are identical.
package data

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxAccounts bounds Config.Accounts; generation stays well under a second.
const MaxAccounts = 100_000

// DefaultEpoch is the "now" of generated data when Config.Epoch is zero:
// fixed, so tests and their figures never move with the calendar.
func DefaultEpoch() time.Time { return time.Date(2026, time.November, 1, 9, 0, 0, 0, time.UTC) }

// Config chooses what a store contains.
type Config struct {
	Env      string // "sandbox" | "live"
	Seed     int64
	Accounts int
	// Epoch is the "now" of generated data: accounts are created in the
	// three years before it, transactions happen up to it, and what is
	// still in flight, upcoming or due is so relative to it. Dates never
	// depend on the wall clock, so one Seed and one Epoch give one data
	// set. Zero means DefaultEpoch.
	Epoch time.Time
	// Now stamps runtime changes (simulated transfers, created users);
	// nil means time.Now.
	Now func() time.Time
}

// Account is one generated account with its holder. Fields are read-only
// after generation; balance changes live in the store's overlay.
type Account struct {
	idx                int32
	ID                 string
	Number             string
	Name               string
	IBAN               string
	BIC                string
	Currency           string
	Country            string
	Language           string
	PaymentLevel       string
	PaymentAccountType string
	Status             string
	StatusChangedAt    time.Time // closingAt / closedAt for Closing / Closed
	HolderID           string
	HolderType         string // Individual | Company
	HolderName         string
	VerificationStatus string
	RegistrationNumber string
	VATNumber          string
	CreatedAt          time.Time
	UpdatedAt          time.Time
	search             string // lower-cased id, number, name and holder name
	updated            int64  // UpdatedAt in Unix nanoseconds, the sort key
	statusBit          uint8  // 1 << index in accountStatuses, for filters
	levelBit           uint8  // 1 << index in paymentLevels, for filters
	members            uint8  // generated memberships, the legal representative's first
	cards              uint8  // cards of all the account's memberships
	sched              schedule
	txSeed             uint64
}

// User is a platform user who can sign in and be a member of accounts.
type User struct {
	ID               string
	FirstName        string
	LastName         string
	Phone            string
	BirthDate        string // YYYY-MM-DD, empty when unknown
	BirthCity        string
	BirthCountry     string
	Nationality      string
	PVID, QES        bool
	Expert           bool
	Status           string // Active | Blocked | Deactivated
	AutoConsent      bool
	PreferredChannel string
	Email            string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	Demo             bool // listed in the emulator's start banner
}

// FullName joins the known parts of the user's name.
func (u *User) FullName() string {
	return strings.TrimSpace(u.FirstName + " " + u.LastName)
}

// Project is the API consumer's project of this environment.
type Project struct {
	ID                string
	Name              string
	Type              string
	Status            string
	SettingsID        string
	AccentColor       string
	AllowsDesktopAuth bool
}

// membership holds one user's accounts in both orders, so a user token
// pages and seeks exactly like a project token, over fewer accounts, and
// the user's rights on each (profiles, parallel to byCreated).
type membership struct {
	byCreated []int32
	byUpdated []int32
	profiles  []uint8
	demo      int // index in Store.demo, -1 for users without memberships
}

// Store is one environment's data set. Generated data is immutable;
// runtime changes (transfers, users, endorsements) are guarded by mu.
type Store struct {
	env     string
	seed    int64
	now     func() time.Time
	project Project
	// epoch is the "now" of generated data (Config.Epoch), origin where
	// its timeline starts, creationSpan before it.
	epoch, origin time.Time

	accounts  []Account // sorted by CreatedAt; index order is creation order
	all       []int32   // 0..n-1, the project's createdAt view
	byUpdated []int32
	byID      map[string]int32
	byIBAN    map[string]int32
	// entityWindow is how long after its account's creation memberships
	// and cards may be created: under half the gap between two accounts,
	// so creation order across accounts is index order.
	entityWindow time.Duration
	idSalt       uint64
	permQ        uint64
	// numberOffset shifts the last seven digits of account numbers; the
	// numbers of virtual IBANs continue the same bijection past the
	// accounts, so no two IBANs of the store are equal.
	numberOffset uint64

	// The transaction timeline (schedule.go).
	roundActive []int32
	bucketBase  [len(txGaps) + 1]int32
	bucketOff   []int32
	bucketAcc   []int32
	txTotal     int

	membershipTotal int
	cardTotal       int
	upcoming        func() []upcomingTx // scheduled transfers, by execution date
	holderIdx       holderIndex         // holder ids to accounts, on first use
	onbIdx          onboardingIndex     // every onboarding, on first use
	companies       func() []int32      // Opened company accounts, on first use
	profIdx         profileIndex        // accounts with a merchant profile, on first use

	demo     []*User       // demo users, whose bit in demoMask is their index
	demoM    []*membership // their memberships; immutable after New
	demoMask []uint8       // per account, the demo users who are members

	counts     *cache[filter, int]           // totalCount of filtered account queries
	listCounts *cache[string, int]           // totalCount of other filtered lists, by list, viewer and filters
	matchLists *cache[string, []uint64]      // slots matching root transaction filters on texts
	genStates  *cache[genStateKey, genState] // accounts' summed generated histories

	// genChanged are the changes simulated steps made to generated
	// transactions (genchange.go).
	genChanged atomic.Pointer[genChanges]

	mu        sync.RWMutex
	users     []*User
	userByID  map[string]*User
	userPhone map[string]*User
	members   map[string]*membership
	extraTx   map[int32][]Transaction
	simulated []simRef // every simulated transaction, in creation order
	endorsed  map[string]string
	txCounter int
	payments  map[string]*Payment // by id
	byConsent map[string]string   // payment id by consent id
	idents    map[string]*Identification
	funding   funding // funding sources and their account verifications
	vibans    vibans  // virtual IBANs added and changed at run time
	orders    orders  // standing orders scheduled and changed at run time
	benefs    beneficiaries
	// payeeTokens are the verifications of payee by token.
	payeeTokens map[string]*PayeeToken
	holders     holderChanges // holders' verifications the Testing API set
	deposits    capitalDeposits
	merch       merchantChanges
	newUsers    int // users added at run time, for deterministic ids
	created     int // users added by CreateUser
}

// Sentinel errors of store operations; the GraphQL layer maps them to
// rejections or errors.
var (
	ErrBadCursor = errors.New("the cursor is not valid: pass a cursor returned by a previous page of the same query")
	ErrForbidden = errors.New("the token may not access this resource")
	ErrNotFound  = errors.New("no such resource")
)

// New generates a store. It is deterministic in cfg.Env, cfg.Seed,
// cfg.Epoch and cfg.Accounts.
func New(cfg Config) (*Store, error) {
	if cfg.Accounts < 0 || cfg.Accounts > MaxAccounts {
		return nil, fmt.Errorf("accounts must be between 0 and %d, got %d: choose a smaller --accounts", MaxAccounts, cfg.Accounts)
	}
	if cfg.Env != "sandbox" && cfg.Env != "live" {
		return nil, fmt.Errorf("environment %q is unknown: use sandbox or live", cfg.Env)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	epoch := cfg.Epoch
	if epoch.IsZero() {
		epoch = DefaultEpoch()
	}
	// Generated times are whole milliseconds, as the API serves them.
	epoch = epoch.UTC().Truncate(time.Millisecond)
	s := &Store{
		env:        cfg.Env,
		seed:       cfg.Seed,
		now:        now,
		epoch:      epoch,
		origin:     epoch.Add(-creationSpan),
		userByID:   map[string]*User{},
		userPhone:  map[string]*User{},
		members:    map[string]*membership{},
		extraTx:    map[int32][]Transaction{},
		payments:   map[string]*Payment{},
		byConsent:  map[string]string{},
		idents:     map[string]*Identification{},
		endorsed:   map[string]string{},
		counts:     newCache[filter, int](256),
		listCounts: newCache[string, int](512),
		matchLists: newCache[string, []uint64](16),
		genStates:  newCache[genStateKey, genState](4096),
	}
	envSalt := uint64(0x5a4e44)
	if cfg.Env == "live" {
		envSalt = 0x4c495645
	}
	pr := rand.New(rand.NewPCG(uint64(cfg.Seed)^envSalt, 0x70726f6a))
	s.idSalt = mix(uint64(cfg.Seed) ^ envSalt ^ 0x69647300)
	s.permQ = mix(s.idSalt) % (1 << 31)
	s.project = Project{
		ID:                uuidFrom(pr.Uint64(), pr.Uint64()),
		Name:              "Partner Demo",
		Type:              "CompanyAndCustomers",
		Status:            "FullLiveAccess",
		SettingsID:        uuidFrom(pr.Uint64(), pr.Uint64()),
		AccentColor:       "#6240B5",
		AllowsDesktopAuth: true,
	}
	if cfg.Env == "sandbox" {
		s.project.Name = "Partner Demo (Sandbox)"
		s.project.Status = "BetaLiveAccess"
	}
	s.generateAccounts(cfg.Accounts, envSalt)
	s.buildTimeline()
	s.upcoming = sync.OnceValue(s.scheduledTransfers)
	s.companies = sync.OnceValue(s.openCompanies)
	s.generateUsers(envSalt)
	s.countEntities()
	return s, nil
}

// Now is the store's clock, which stamps run-time changes.
func (s *Store) Now() time.Time { return s.now() }

// Epoch is the "now" of the generated data, the time it runs up to.
func (s *Store) Epoch() time.Time { return s.epoch }

// Env is the environment the store serves.
func (s *Store) Env() string { return s.env }

// Project returns the environment's project.
func (s *Store) Project() Project { return s.project }

// Len is the number of accounts.
func (s *Store) Len() int { return len(s.accounts) }

func (s *Store) generateAccounts(n int, envSalt uint64) {
	s.accounts = make([]Account, n)
	s.all = make([]int32, n)
	s.byID = make(map[string]int32, n)
	s.byIBAN = make(map[string]int32, n)
	// Creation times are spread over three years and strictly increasing,
	// so index order is creation order and no two accounts tie.
	span := creationSpan
	start := s.origin
	step := time.Duration(1)
	if n > 0 {
		step = span / time.Duration(n)
	}
	s.entityWindow = min(step/2, 30*day)
	pcg := rand.NewPCG(uint64(s.seed)^envSalt, 0)
	r := rand.New(pcg)
	numberOffset := r.Uint64() % 10_000_000
	s.numberOffset = numberOffset
	for i := range n {
		pcg.Seed(uint64(s.seed)^envSalt, uint64(i)+1)
		a := &s.accounts[i]
		a.idx = int32(i)
		s.all[i] = int32(i)
		a.CreatedAt = start.Add(step*time.Duration(i) + time.Duration(r.Int64N(int64(max(step/2, 1))))).Truncate(time.Millisecond)
		a.UpdatedAt = a.CreatedAt.Add(time.Duration(r.Int64N(int64(s.epoch.Sub(a.CreatedAt)) + 1))).Truncate(time.Millisecond)
		a.updated = a.UpdatedAt.UnixNano()
		a.ID = uuidFrom(r.Uint64(), r.Uint64())
		a.txSeed = r.Uint64()
		a.Country = pickWeighted(r, []string{"FRA", "DEU", "ESP", "ITA", "NLD", "BEL"}, []int{50, 15, 12, 10, 8, 5})
		langs := countryLanguages[a.Country]
		a.Language = langs[r.IntN(len(langs))]
		if r.IntN(10) == 0 {
			a.Language = "en"
		}
		a.Currency = pickWeighted(r, []string{"EUR", "GBP", "USD", "CHF"}, []int{94, 2, 3, 1})
		// The last seven digits are a bijection of the index, so numbers
		// and IBANs (even Belgium's, which keep only those seven) never
		// collide; the first four are random.
		a.Number = fmt.Sprintf("%04d%07d", r.IntN(10_000), (uint64(i)*7919+numberOffset)%10_000_000)
		a.IBAN = buildIBAN(a.Country, a.Number)
		a.BIC = bicFor(a.Country)
		a.Status = pickWeighted(r, accountStatuses[:], []int{85, 5, 4, 6})
		a.statusBit = bitOf(accountStatuses[:], a.Status)
		if a.Status == "Closing" || a.Status == "Closed" {
			a.StatusChangedAt = a.UpdatedAt
		}
		a.VerificationStatus = pickWeighted(r, []string{"Verified", "Pending", "WaitingForInformation", "NotStarted", "Refused"}, []int{75, 10, 7, 5, 3})
		if a.VerificationStatus == "Verified" {
			a.PaymentLevel, a.PaymentAccountType = "Unlimited", "PaymentService"
		} else {
			a.PaymentLevel, a.PaymentAccountType = "Limited", "EMoney"
		}
		a.levelBit = bitOf(paymentLevels[:], a.PaymentLevel)
		a.HolderID = uuidFrom(r.Uint64(), r.Uint64())
		first := firstNames[a.Country]
		last := lastNames[a.Country]
		if r.IntN(100) < 65 {
			a.HolderType = "Individual"
			a.HolderName = first[r.IntN(len(first))] + " " + last[r.IntN(len(last))]
			a.Name = pickWeighted(r, []string{a.HolderName, "Main account", "Savings", "Joint account"}, []int{60, 25, 10, 5})
		} else {
			a.HolderType = "Company"
			acts := companyActivities[a.Country]
			forms := companyForms[a.Country]
			a.HolderName = acts[r.IntN(len(acts))] + " " + last[r.IntN(len(last))] + " " + forms[r.IntN(len(forms))]
			a.RegistrationNumber = fmt.Sprintf("%09d", r.IntN(999_999_999))
			a.VATNumber = a.IBAN[:2] + fmt.Sprintf("%011d", r.Int64N(99_999_999_999))
			a.Name = pickWeighted(r, []string{a.HolderName, "Operations", "Payroll", "Treasury"}, []int{55, 20, 15, 10})
		}
		// Ids and numbers are already lower case; only names need folding.
		names := a.HolderName
		if a.Name != a.HolderName {
			names = a.Name + "\x00" + a.HolderName
		}
		a.search = a.ID + "\x00" + a.Number + "\x00" + strings.ToLower(names) + "\x00" + a.HolderID
		h := newHrand(a.txSeed, 0x7363686564)
		a.sched = s.planSchedule(a, &h)
		a.members = uint8(1 + h.index(45, 30, 17, 8))
		s.byID[a.ID] = int32(i)
		s.byIBAN[a.IBAN] = int32(i)
	}
	s.byUpdated = slices.Clone(s.all)
	slices.SortFunc(s.byUpdated, s.cmpUpdated)
}

func (s *Store) cmpUpdated(x, y int32) int {
	if a, b := s.accounts[x].updated, s.accounts[y].updated; a != b {
		if a < b {
			return -1
		}
		return 1
	}
	return int(x) - int(y)
}

// demoUser describes a generated user and the share of accounts they are
// a member of, in percent.
type demoUser struct {
	first, last, phone, nationality, birth, city string
	share                                        int
}

func (s *Store) generateUsers(envSalt uint64) {
	var specs []demoUser
	if s.env == "sandbox" {
		specs = []demoUser{
			{"Camille", "Martin", "+33612345678", "FRA", "1988-04-12", "Lyon", 80},
			{"Lukas", "Schmidt", "+4915112345678", "DEU", "1979-11-03", "Hamburg", 30},
			{"Lucía", "García", "+34612345678", "ESP", "1993-07-21", "Sevilla", 10},
			{"Giulia", "Rossi", "+393471234567", "ITA", "1985-02-28", "Torino", 3},
			{"Daan", "de Vries", "+31612345678", "NLD", "2000-09-09", "Utrecht", 0},
		}
	} else {
		specs = []demoUser{
			{"Sophie", "Laurent", "+33698765432", "FRA", "1982-06-30", "Paris", 70},
			{"Felix", "Wagner", "+4917698765432", "DEU", "1990-01-15", "Berlin", 25},
			{"Marta", "Navarro", "+34698765432", "ESP", "1975-12-02", "Madrid", 5},
		}
	}
	pcg := rand.NewPCG(0, 0)
	r := rand.New(pcg)
	s.demoMask = make([]uint8, len(s.accounts))
	for ui, sp := range specs {
		pcg.Seed(uint64(s.seed)^envSalt^0x75736572, uint64(ui)+1)
		u := &User{
			ID:               uuidFrom(r.Uint64(), r.Uint64()),
			FirstName:        sp.first,
			LastName:         sp.last,
			Phone:            sp.phone,
			BirthDate:        sp.birth,
			BirthCity:        sp.city,
			BirthCountry:     sp.nationality,
			Nationality:      sp.nationality,
			PVID:             ui%2 == 0,
			QES:              ui == 0,
			Expert:           ui != 2,
			Status:           "Active",
			AutoConsent:      true,
			PreferredChannel: "Sms",
			CreatedAt:        s.epoch.Add(-time.Duration(900-ui*100) * 24 * time.Hour),
			Demo:             true,
		}
		u.UpdatedAt = u.CreatedAt.Add(time.Duration(ui+1) * 72 * time.Hour)
		u.Email = emailOf(sp.first, sp.last, sp.nationality)
		m := &membership{demo: -1}
		if sp.share > 0 {
			m.demo = len(s.demo)
			s.demo = append(s.demo, u)
			s.demoM = append(s.demoM, m)
			m.byCreated, m.profiles = s.chooseDemoAccounts(sp.share, r)
			member := make([]bool, len(s.accounts))
			for _, idx := range m.byCreated {
				member[idx] = true
				s.demoMask[idx] |= 1 << m.demo
			}
			// Filtering the global updatedAt order keeps it sorted without
			// a sort per user.
			m.byUpdated = make([]int32, 0, len(m.byCreated))
			for _, idx := range s.byUpdated {
				if member[idx] {
					m.byUpdated = append(m.byUpdated, idx)
				}
			}
		}
		s.addUserLocked(u, m)
	}
}

func (s *Store) addUserLocked(u *User, m *membership) {
	s.users = append(s.users, u)
	s.userByID[u.ID] = u
	if u.Phone != "" {
		s.userPhone[u.Phone] = u
	}
	if m == nil {
		m = &membership{demo: -1}
	}
	s.members[u.ID] = m
}

// uuidFrom formats 128 bits as a version-4-shaped UUID.
func uuidFrom(hi, lo uint64) string {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[:8], hi)
	binary.BigEndian.PutUint64(raw[8:], lo)
	raw[6] = 0x40 | raw[6]&0x0f
	raw[8] = 0x80 | raw[8]&0x3f
	var out [36]byte
	hex.Encode(out[0:8], raw[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], raw[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], raw[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], raw[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], raw[10:16])
	return string(out[:])
}

// Enum values that filters test with bit masks.
var (
	accountStatuses = [...]string{"Opened", "Suspended", "Closing", "Closed"}
	paymentLevels   = [...]string{"Limited", "Unlimited"}
)

// bitOf is 1 << the index of v in vals, or 0 when v is not there.
func bitOf(vals []string, v string) uint8 {
	for i, x := range vals {
		if x == v {
			return 1 << i
		}
	}
	return 0
}

func pickWeighted(r *rand.Rand, vals []string, weights []int) string {
	return vals[weightedIndex(r.IntN, weights)]
}
