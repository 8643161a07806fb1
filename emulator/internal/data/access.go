package data

import "fmt"

// MemberOf is the membership through which a user token acts on an
// account: the effective user's (a demo user's, or the sandbox user they
// endorse). A project token has none.
func (s *Store) MemberOf(v Viewer, a *Account) (Membership, bool) {
	if v.Project {
		return Membership{}, false
	}
	s.mu.RLock()
	m := s.members[s.effectiveLocked(v.UserID)]
	s.mu.RUnlock()
	if m == nil || m.demo < 0 || s.demoMask[a.idx]&(1<<m.demo) == 0 {
		return Membership{}, false
	}
	return s.membership(a, s.slotOfDemo(a, m.demo)), true
}

// Right is a membership permission an action needs.
type Right int

// The rights of AccountMembership the families' actions check.
const (
	RightViewAccount Right = iota
	RightInitiatePayments
	RightManageBeneficiaries
)

func (r Right) String() string {
	switch r {
	case RightInitiatePayments:
		return "canInitiatePayments"
	case RightManageBeneficiaries:
		return "canManageBeneficiaries"
	}
	return "canViewAccount"
}

// actingAccount is the account an action names, when the viewer sees it
// and may act on it: a project token always, a user token through an
// Enabled membership with the right (and canViewAccount, which every
// account action of the platform's web app asks for too).
func (s *Store) actingAccount(v Viewer, accountID string, right Right) (*Account, error) {
	a, ok := s.Account(v, accountID)
	if !ok {
		return nil, fmt.Errorf("account %s: %w", accountID, ErrNotFound)
	}
	if v.Project {
		return a, nil
	}
	m, ok := s.MemberOf(v, a)
	has := map[Right]bool{RightViewAccount: m.CanViewAccount, RightInitiatePayments: m.CanInitiatePayments, RightManageBeneficiaries: m.CanManageBeneficiaries}
	if !ok || m.Status != MemberEnabled || !m.CanViewAccount || !has[right] {
		return nil, fmt.Errorf("the membership of this user on account %s lacks %s or is not Enabled: %w", accountID, right, ErrForbidden)
	}
	return a, nil
}
