package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// SignIn returns the id of the user with this phone, creating a user with
// no accounts when nobody has it (an unknown phone signs up).
func (s *Store) SignIn(phone string) string {
	phone = strings.TrimSpace(phone)
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.userPhone[phone]; ok {
		return u.ID
	}
	s.newUsers++
	now := s.now().UTC()
	u := &User{
		ID:               s.newUserIDLocked(),
		Phone:            phone,
		Status:           "Active",
		PreferredChannel: "Sms",
		CreatedAt:        now,
		UpdatedAt:        now,
	}
	s.addUserLocked(u, nil)
	return u.ID
}

// newUserIDLocked derives ids of runtime users from the seed and a counter,
// so a replayed session creates the same ids.
func (s *Store) newUserIDLocked() string { return s.runtimeID(0x6e6577, s.newUsers) }

// Phone returns the phone number of a user.
func (s *Store) Phone(userID string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.userByID[userID]
	if !ok {
		return "", false
	}
	return u.Phone, true
}

// User returns a copy of the user with this id: a demo or created user,
// or the generated user bound to a membership.
func (s *Store) User(id string) (User, bool) {
	s.mu.RLock()
	u, ok := s.userByID[id]
	s.mu.RUnlock()
	if ok {
		return *u, true
	}
	return s.memberUser(id)
}

// DemoUsers are the generated users, in creation order.
func (s *Store) DemoUsers() []User {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []User
	for _, u := range s.users {
		if u.Demo {
			out = append(out, *u)
		}
	}
	return out
}

// Effective is the user a signed-in user acts as: the sandbox user they
// endorsed last, or themselves.
func (s *Store) Effective(userID string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.effectiveLocked(userID)
}

func (s *Store) effectiveLocked(userID string) string {
	if e, ok := s.endorsed[userID]; ok {
		return e
	}
	return userID
}

// Endorse makes the signed-in user act as the sandbox user target.
func (s *Store) Endorse(userID, target string) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.userByID[target]
	if !ok {
		return User{}, fmt.Errorf("sandbox user %s: %w", target, ErrNotFound)
	}
	if target == userID {
		delete(s.endorsed, userID)
	} else {
		s.endorsed[userID] = target
	}
	return *u, nil
}

// NewUser holds what createSandboxUser supplies.
type NewUser struct {
	FirstName, LastName string
	BirthDate           string
	BirthCountry        string
	Nationality         string
	AutoConsent         bool
}

// MaxCreatedUsers bounds createSandboxUser, so a script in a loop cannot
// grow the emulator's memory without end.
const MaxCreatedUsers = 10_000

// ErrTooManyUsers is returned by CreateUser past MaxCreatedUsers.
var ErrTooManyUsers = errors.New("the emulator holds the maximum number of created sandbox users: restart it to start afresh")

// CreateUser adds a sandbox user with a fresh phone number, so the user can
// sign in on the emulator's forms.
func (s *Store) CreateUser(in NewUser) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.created >= MaxCreatedUsers {
		return User{}, ErrTooManyUsers
	}
	s.created++
	s.newUsers++
	now := s.now().UTC()
	u := &User{
		ID:               s.newUserIDLocked(),
		FirstName:        in.FirstName,
		LastName:         in.LastName,
		BirthDate:        in.BirthDate,
		BirthCountry:     in.BirthCountry,
		Nationality:      in.Nationality,
		AutoConsent:      in.AutoConsent,
		Status:           "Active",
		PreferredChannel: "Sms",
		CreatedAt:        now,
		UpdatedAt:        now,
	}
	for n := s.newUsers; ; n++ {
		phone := "+3375" + fmt.Sprintf("%07d", n)
		if _, taken := s.userPhone[phone]; !taken {
			u.Phone = phone
			break
		}
	}
	s.addUserLocked(u, nil)
	return *u, nil
}

// Users pages through every user of the environment, ordered by createdAt
// or updatedAt; after is a cursor, offset skips that many more.
func (s *Store) Users(first int, after string, offset int, orderBy string, desc bool) (Page[User], error) {
	s.mu.RLock()
	users := make([]User, len(s.users))
	for i, u := range s.users {
		users[i] = *u
	}
	s.mu.RUnlock()
	slices.SortStableFunc(users, func(x, y User) int {
		a, b := x.CreatedAt, y.CreatedAt
		if orderBy == "updatedAt" {
			a, b = x.UpdatedAt, y.UpdatedAt
		}
		c := a.Compare(b)
		if c == 0 {
			c = strings.Compare(x.ID, y.ID)
		}
		if desc {
			c = -c
		}
		return c
	})
	start := 0
	if after != "" {
		id, ok := decodeCursor(after, "user")
		if !ok {
			return Page[User]{}, ErrBadCursor
		}
		i := slices.IndexFunc(users, func(u User) bool { return u.ID == id })
		if i < 0 {
			return Page[User]{}, ErrBadCursor
		}
		start = i + 1
	}
	return window(users, min(start+max(offset, 0), len(users)), first), nil
}

// UserCursor is the opaque cursor of a user.
func UserCursor(u *User) string { return encodeCursor("user", u.ID) }

// Directory serves both environments' users to the authorization server
// (it implements the oauth package's Users interface).
type Directory struct {
	Sandbox, Live *Store
}

func (d Directory) store(env string) *Store {
	if env == "live" {
		return d.Live
	}
	return d.Sandbox
}

// SignIn returns the id of the user with this phone in env.
func (d Directory) SignIn(env, phone string) string { return d.store(env).SignIn(phone) }

// Phone returns the user's phone number in env.
func (d Directory) Phone(env, userID string) (string, bool) { return d.store(env).Phone(userID) }
