package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/ui/pagedlist"
)

// What the views of the account's other objects share: what they read
// (virtual IBANs, standing orders, beneficiaries, card spending, account
// holders, merchant profiles and payment links with the environment's
// client; onboardings and capital deposits with its project's), the
// question a change in Sandbox waits for, the answer of that change, a
// detail with a list under it, and a page opened in the browser.

// objectsAPI is what the views of the account's other objects read and,
// in Sandbox, change (*api.Client). Its mutations are refused on a
// read-only client; the views do not offer them there.
type objectsAPI interface {
	VirtualIbans(ctx context.Context, p api.VirtualIbansParams) (*api.Page[api.VirtualIban], error)
	AddVirtualIban(ctx context.Context, accountID string) (*api.VirtualIban, error)
	CancelVirtualIban(ctx context.Context, id string) (*api.VirtualIban, error)
	SetVirtualIbanSDD(ctx context.Context, id string, allow bool) (*api.VirtualIban, error)
	StandingOrders(ctx context.Context, p api.StandingOrdersParams) (*api.Page[api.StandingOrder], error)
	StandingOrder(ctx context.Context, id string) (*api.StandingOrder, error)
	StandingOrderTransactions(ctx context.Context, p api.NestedParams) (*api.Page[api.TransactionDetail], error)
	CancelStandingOrder(ctx context.Context, id string) (*api.StandingOrder, error)
	Beneficiaries(ctx context.Context, p api.BeneficiariesParams) (*api.Page[api.Beneficiary], error)
	Beneficiary(ctx context.Context, id string) (*api.Beneficiary, error)
	BeneficiaryTransfers(ctx context.Context, p api.NestedParams) (*api.Page[api.BeneficiaryTransfer], error)
	CardSpending(ctx context.Context, id string) (*api.CardSpending, error)
	AccountHolders(ctx context.Context, p api.AccountHoldersParams) (*api.Page[api.AccountHolder], error)
	AccountHolder(ctx context.Context, id string) (*api.AccountHolder, error)
	AccountHolderAccounts(ctx context.Context, p api.NestedParams) (*api.Page[api.Account], error)
	MerchantProfiles(ctx context.Context, p api.MerchantProfilesParams) (*api.Page[api.MerchantProfile], error)
	MerchantProfile(ctx context.Context, id string) (*api.MerchantProfile, error)
	PaymentLinks(ctx context.Context, p api.PaymentLinksParams) (*api.Page[api.PaymentLink], error)
	PaymentLink(ctx context.Context, id string) (*api.PaymentLink, error)
}

// projectObjectsAPI is what the platform shows a project token only: the
// onboardings and the capital deposit cases.
type projectObjectsAPI interface {
	Onboardings(ctx context.Context, p api.OnboardingsParams) (*api.Page[api.Onboarding], error)
	Onboarding(ctx context.Context, id string) (*api.Onboarding, error)
	CapitalDeposits(ctx context.Context, p api.CapitalDepositsParams) (*api.Page[api.CapitalDeposit], error)
	CapitalDeposit(ctx context.Context, id string) (*api.CapitalDeposit, error)
}

// An *api.Client reads and changes them all.
var (
	_ objectsAPI        = (*api.Client)(nil)
	_ projectObjectsAPI = (*api.Client)(nil)
)

// changes: the environment takes changes (Sandbox). Live is read-only:
// the keys that would change something are not bound there at all.
func (e *envState) changes() bool { return !e.ReadOnly }

// changedMsg answers a change a screen asked for (a virtual IBAN added or
// canceled, its direct debits switched, a standing order canceled). It is
// an environment's message, so every screen of the environment sees it
// and reads again what it changed: the account's lists and the item's
// screen.
type changedMsg struct {
	envTag
	id        int    // the request of the screen that asked
	accountID string // the account whose lists changed
	itemID    string // the item changed
	item      any    // the item as the change answered it (*api.VirtualIban…)
	done      string // said in the flash line
	err       error
}

func (m changedMsg) msgErr() error { return m.err }

// change runs a change off the event loop and answers it with a
// changedMsg; done words its success.
func change[T any](c *common, env *envState, ctx context.Context, id int, accountID, itemID string,
	run func(context.Context) (*T, error), done func(*T) string) tea.Cmd {
	name := env.Name
	c.log.Info("changing", "env", string(name), "account", accountID, "item", itemID)
	return c.task(func() tea.Msg {
		v, err := run(ctx)
		m := changedMsg{envTag: envTag{name}, id: id, accountID: accountID, itemID: itemID, err: err}
		if err == nil && v != nil {
			m.done, m.item = done(v), v
		}
		return m
	})
}

// changeFlash says what a change did, or why it did not.
func changeFlash(m changedMsg, at where) tea.Cmd {
	if m.err != nil {
		text := "Nothing changed. " + explain(m.err, at)
		return func() tea.Msg { return flashMsg{text: text, bad: true} }
	}
	return func() tea.Msg { return flashMsg{text: m.done} }
}

// asking is a change that waits for its confirmation on the status line:
// y runs it, any other key keeps things as they are.
type asking struct {
	question string
	run      func() tea.Cmd
	yes      key.Binding
}

func newAsking() *asking {
	return &asking{yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "confirm · any other key keeps it"))}
}

// open asks question before run.
func (a *asking) open(question string, run func() tea.Cmd) {
	a.question, a.run = question, run
}

func (a *asking) waiting() bool { return a.run != nil }

// answer takes the key after the question.
func (a *asking) answer(msg tea.KeyPressMsg) tea.Cmd {
	run := a.run
	a.question, a.run = "", nil
	if !key.Matches(msg, a.yes) {
		return func() tea.Msg { return flashMsg{text: "Nothing changed"} }
	}
	return run()
}

// line is the question as the status line shows it.
func (a *asking) line(c *common, w int) string {
	return trunc(c.styles.warn.Render(a.question), w)
}

// cycle is a filter key that goes through choices, then back to any.
type cycle struct {
	key     key.Binding
	noun    string // "status"
	choices []string
	cur     string // "" for any
}

func newCycle(k, noun string, choices []string) *cycle {
	c := &cycle{key: key.NewBinding(key.WithKeys(k)), noun: noun, choices: choices}
	c.sync()
	return c
}

func (c *cycle) next() {
	c.cur = nextOf(c.choices, c.cur)
	c.sync()
}

func (c *cycle) sync() {
	desc := c.noun + ": any"
	if c.cur != "" {
		desc = c.noun + ": " + strings.ToLower(c.cur)
	}
	c.key.SetHelp(c.key.Keys()[0], desc)
}

// values are the filter's values for the request: none for any.
func (c *cycle) values() []string {
	if c.cur == "" {
		return nil
	}
	return []string{c.cur}
}

// note is the filter on the status line; "" for any.
func (c *cycle) note() string {
	if c.cur == "" {
		return ""
	}
	return c.noun + " " + c.cur
}

// emptyOr is the empty list's text under the filter.
func (c *cycle) emptyOr(what, none string) string {
	if c.cur == "" {
		return none
	}
	return fmt.Sprintf("No %s %s here: press %s for the next %s.", c.cur, what, c.key.Help().Key, c.noun)
}

// detailList is the screen of one item with a list of what it holds
// under it: a beneficiary's transfers, a standing order's transactions,
// a holder's accounts, a merchant profile's payment links.
type detailList[T, R any] struct {
	*itemScreen[T]
	rows    *listScreen[R]
	heading string // the list's: "Transfers"
	refresh key.Binding
	heads   func(*T) string
	fields  func(*T) []field
	// below are lines drawn between the fields and the list (payment
	// methods, documents); nil for none.
	below func(*T) []string
}

func newDetailList[T, R any](item *itemScreen[T], rows *listScreen[R], heading string, head func(*T) string, fields func(*T) []field) *detailList[T, R] {
	return &detailList[T, R]{itemScreen: item, rows: rows, heading: heading, refresh: refreshKey(), heads: head, fields: fields}
}

func (s *detailList[T, R]) title() string {
	if it := s.item.item; it != nil {
		if t := s.heads(it); t != "" {
			return t
		}
	}
	return strings.ToUpper(s.noun[:1]) + s.noun[1:]
}

func (s *detailList[T, R]) init() tea.Cmd { return tea.Batch(s.itemScreen.init(), s.rows.init()) }
func (s *detailList[T, R]) busy() bool    { return s.itemScreen.busy() || s.rows.busy() }
func (s *detailList[T, R]) close()        { s.itemScreen.close(); s.rows.close() }

func (s *detailList[T, R]) ShortHelp() []key.Binding {
	return []key.Binding{s.rows.keys.Open, s.refresh}
}

func (s *detailList[T, R]) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.rows.list.Bindings(), s.ShortHelp()}
}

// update takes the item's answer, else the list's.
func (s *detailList[T, R]) update(msg tea.Msg) tea.Cmd {
	defer s.layout()
	if s.item.apply(msg) {
		return nil
	}
	return s.rows.update(msg)
}

// handleKey refreshes both, or moves in the list.
func (s *detailList[T, R]) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if key.Matches(msg, s.refresh) {
		return tea.Batch(s.load(), s.rows.list.Refresh()), true
	}
	return s.rows.handleKey(msg)
}

func (s *detailList[T, R]) setSize(w, h int) {
	s.itemScreen.setSize(w, h)
	s.layout()
}

// layout gives the list what the item's lines leave.
func (s *detailList[T, R]) layout() {
	s.rows.setSize(s.w, max(s.h-len(s.top()), 0))
}

// top are the lines above the list: the item, then the list's heading
// with its count.
func (s *detailList[T, R]) top() []string {
	lines := s.lines(s.title(), s.fields, s.refresh)
	if it := s.item.item; it != nil && s.below != nil {
		lines = append(lines, s.below(it)...)
	}
	head := s.heading
	if s.rows.list.Ready() {
		head = fmt.Sprintf("%s (%d)", s.heading, s.rows.list.Len())
	}
	return append(lines, "", s.c.styles.bold.Render(head))
}

func (s *detailList[T, R]) view() string {
	if s.h <= 0 {
		return ""
	}
	top := s.top()
	if len(top) >= s.h {
		return fit(strings.Join(top, "\n"), s.w, s.h)
	}
	return strings.Join(top, "\n") + "\n" + s.rows.view()
}

// nestedPages reads the pages of a list an object holds
// (api.NestedParams), size rows a request.
func nestedPages[T any](get func(context.Context, api.NestedParams) (*api.Page[T], error), id string, size int) pagedlist.Fetch[T] {
	return fetchList(api.ListOf(get, api.NestedParams{ID: id}, size))
}

// pageKeys open a page (an onboarding's, a payment link's) in the
// browser and copy its address.
type pageKeys struct {
	Open, Copy key.Binding
}

func newPageKeys(what string) pageKeys {
	return pageKeys{
		Open: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the "+what+" page")),
		Copy: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the "+what+" link")),
	}
}

// sync offers the copy wherever there is an address, the browser only
// where a page opened would reach the user (auth.CanOpen: not over SSH
// nor without a display, unless $BROWSER says otherwise).
func (k *pageKeys) sync(c *common, address string) {
	k.Copy.SetEnabled(address != "")
	k.Open.SetEnabled(address != "" && c.opens)
}

// handle opens or copies address; what names the page in the flash line.
func (k *pageKeys) handle(c *common, ctx context.Context, msg tea.KeyPressMsg, address, what string) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, k.Open):
		return openPage(c, ctx, address, what), true
	case key.Matches(msg, k.Copy):
		return copyCmd(c, address, strings.ToUpper(what[:1])+what[1:]+" link copied"), true
	}
	return nil, false
}

// openPage starts the browser on address, which must be a web page:
// https, or http on this machine (the emulator's), never a scheme the
// system would hand to another program.
func openPage(c *common, ctx context.Context, address, what string) tea.Cmd {
	if !webPage(address) {
		return func() tea.Msg {
			return flashMsg{text: "The " + what + " address is not a web page, so no browser opens it; c copies it.", bad: true}
		}
	}
	openURL := c.openURL
	return c.task(func() tea.Msg {
		if err := openURL(ctx, address); err != nil {
			return flashMsg{text: "The browser did not open (" + err.Error() + "); c copies the " + what + " link.", bad: true}
		}
		return flashMsg{text: "The " + what + " page is open in your browser"}
	})
}

// The kinds of the account's other objects that open by ID.
const (
	resourceStandingOrder   resourceKind = "standing order"
	resourceBeneficiary     resourceKind = "beneficiary"
	resourceHolder          resourceKind = "account holder"
	resourceOnboarding      resourceKind = "onboarding"
	resourceCapitalDeposit  resourceKind = "capital deposit"
	resourceMerchantProfile resourceKind = "merchant profile"
	resourcePaymentLink     resourceKind = "payment link"
)
