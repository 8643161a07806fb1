// Package ui is partnertui's terminal interface: Bubble Tea v2 screens (the
// sign-in, the account list, an account's tabs, transactions, members,
// cards and statements, the : palette) under a root model that
// routes messages and keys (root.go), draws the chrome around the screens
// (chrome.go) and switches between Sandbox and Live (envswitch.go). Errors
// are worded for the screen in one place (errors.go). Lists are
// ui/pagedlist lists.
//
// It makes no HTTP calls and reads no files itself: everything goes through
// the API and Session interfaces (which *api.Client and *auth.Session
// satisfy), and only inside commands, never on the event loop.
package ui

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/paths"
)

// Stable texts the end-to-end test (tmux capture-pane) can wait for.
const (
	TextSignIn      = "Sign in"         // the sign-in screen's title ("Sign in to Sandbox")
	TextAccounts    = "Accounts"        // the account list's header
	TextIBAN        = "IBAN"            // the account detail
	BadgeSandbox    = "SANDBOX"         // environment badge, header and footer
	BadgeLive       = "LIVE"            // environment badge, header and footer
	TextConfirmLive = "Switch to LIVE?" // the confirmation before switching to Live
)

// maxFPS is Bubble Tea's highest frame rate (tea.WithFPS caps it there).
const maxFPS = 120

// API is what the UI needs from one environment's GraphQL client.
// *api.Client satisfies it.
type API interface {
	// Home is the first page of accounts with who the token belongs to, in
	// one request: what launch and sign-in need.
	Home(ctx context.Context, p api.AccountsParams, project bool) (*api.Home, error)
	Accounts(ctx context.Context, p api.AccountsParams) (*api.Page[api.Account], error)
	// AccountDetail is one account in full; with a user token (project
	// false) it comes with the user's membership of it.
	AccountDetail(ctx context.Context, id string, project bool) (*api.AccountDetail, error)
	// AccountView is an account in full and the first page of each of its
	// tabs, in one request: what opening an account needs.
	AccountView(ctx context.Context, p api.AccountViewParams) (*api.AccountView, error)
	// TransactionList is one account's transactions, or the project's
	// (AccountID "", project token only).
	TransactionList(ctx context.Context, p api.TransactionsParams) (*api.Page[api.TransactionDetail], error)
	// AccountsTransactionPages is a page of each of up to five accounts'
	// transactions in one request: what the user token's list across
	// accounts (api.MergeTransactions) reads.
	AccountsTransactionPages(ctx context.Context, ps []api.TransactionsParams) ([]*api.Page[api.TransactionDetail], error)
	// AccountMemberships is one account's members, or every membership the
	// token sees (AccountID "").
	AccountMemberships(ctx context.Context, p api.MembershipsParams) (*api.Page[api.AccountMembership], error)
	AccountMembership(ctx context.Context, id string) (*api.AccountMembership, error)
	Cards(ctx context.Context, p api.CardsParams) (*api.Page[api.Card], error)
	Card(ctx context.Context, id string) (*api.Card, error)
	Statements(ctx context.Context, p api.StatementsParams) (*api.Page[api.Statement], error)
	SimulateIncomingTransfer(ctx context.Context, in api.IncomingTransfer) (string, error)
	// objectsAPI reads the account's other objects (objects.go).
	objectsAPI
	// PageSize is how many rows one request of a list asks for, 1 to
	// platform.PageMax: the configuration's page_size, else the maximum.
	PageSize() int
	// Do sends an operation built at run time (the view of anything's,
	// checked against the schema first), its answer's strings made safe.
	Do(ctx context.Context, r api.Request) (*api.Response, error)
	Status() api.Status
	Updates() <-chan api.Status
}

// DemoPlace is a running --demo's configuration file and the
// XDG_STATE_HOME of its tokens (internal/app's App.DemoPlace).
type DemoPlace struct{ ConfigFile, StateHome string }

// Snapshot keeps an environment's first screen between runs (internal/app's
// *Snapshot): the UI shows it at launch until the first answer replaces
// it. Its methods read and write files: the UI calls them only inside
// commands.
type Snapshot interface {
	// Load is the current identity's first screen and when it was saved;
	// nil when there is none.
	Load() (*api.Home, time.Time, error)
	Save(h *api.Home) error
}

// Session is what the UI needs from one environment's sign-in state.
// *auth.Session satisfies it. SignedIn and Status read the token store:
// the UI calls them only inside commands.
type Session interface {
	Login(ctx context.Context, opts auth.LoginOptions) (*auth.Identity, error)
	// Logout revokes the refresh token and deletes the stored session
	// (auth.ErrRevocationFailed: deleted, but not revoked).
	Logout(ctx context.Context) error
	SignedIn() bool
	Status() (*auth.StatusInfo, error)
}

// Environment is one platform environment as the UI drives it.
type Environment struct {
	Name     config.EnvName // config.Sandbox or config.Live
	ClientID string
	API      API     // *api.Client
	Session  Session // *auth.Session
	// ProjectAPI is the environment's project-token client (*api.Client):
	// the event log and transactions by id. It is API itself in project
	// mode; nil when the environment has none.
	ProjectAPI ProjectAPI
	// DemoApprove, when set (--demo only), plays the browser on the
	// emulator's sign-in forms: the sign-in screen offers "a" and passes it
	// as auth.LoginOptions.Open.
	DemoApprove func(ctx context.Context, url string) error
	// PrefilledPhone is the config's auth_params.phoneNumber; after sign-in
	// the UI warns when the signed-in user has another number.
	PrefilledPhone string
	// Snapshot, when set, keeps the first screen between runs; nil when
	// the configuration turns it off.
	Snapshot Snapshot
	// ReadOnly hides Testing-API actions; internal/app sets it from its
	// Live read-only policy.
	ReadOnly bool
	// Schema is the schema the app knows of the partner API, which the
	// view of anything reads (anything.go); nil leaves that view out.
	Schema SchemaSource
	// Project: the API is called with a project token (client
	// credentials). There is no sign-in: the home screen is the project's
	// accounts, the footer names the project, and a refused token is an
	// error on screen with its remedy. Session is not used.
	Project bool
}

// Options configure the UI. The UI keeps copies of the environments: it
// changes nothing the caller gave it.
type Options struct {
	Envs  map[config.EnvName]*Environment
	Start config.EnvName // environment shown first; default Sandbox if configured
	// FirstScreen is the first screen's request that Prefetch sent before
	// the UI started; the account list of its environment takes its
	// answer, once. nil: the account list asks.
	FirstScreen *FirstScreen
	// LogPath is the log file, in the state directory the process was
	// given. Run opens it; the UI never logs to the screen.
	LogPath string
	// Logger overrides LogPath (tests); nil discards when used through New.
	Logger *slog.Logger
	// Clipboard copies text; nil means tea.SetClipboard (OSC 52).
	Clipboard func(text string) tea.Cmd
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// NoColor drops all colours (the command line sets it when NO_COLOR
	// is non-empty).
	NoColor bool
	// LoginTimeout bounds one browser sign-in; 0 means the auth default.
	LoginTimeout time.Duration
	// Requests is the process's request log (*api.RequestLog), which L
	// shows; nil leaves L unbound.
	Requests RequestLog
	// Getenv reads the variables that tell a session without a browser
	// (SSH_CONNECTION, DISPLAY…; see auth.Headless); nil means os.Getenv.
	Getenv func(string) string
	// OpenURL starts the user's browser on a page (a payment's consent
	// page); nil means auth.OpenBrowser.
	OpenURL func(ctx context.Context, url string) error
	// ConsentRedirect is the address a payment's consent sends the
	// browser back to once answered: a page that loads and says to go
	// back to the terminal (internal/app serves one); nil, or an error,
	// leaves simRedirectURL, which no browser loads.
	ConsentRedirect func() (string, error)

	// Demo, under --demo, is where a request copied from the request log
	// (L) runs: the demo's configuration file and state home, which exist
	// only while it runs; nil: the user's own setup.
	Demo *DemoPlace

	// tick replaces tea.Tick in tests, which fire timers by hand.
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

// Run starts the terminal UI and blocks until the user quits or ctx ends.
// A panic restores the terminal and the returned error names the log file.
func Run(ctx context.Context, opts Options) (err error) {
	logPath := opts.LogPath
	if logPath == "" {
		return errors.New("ui: no log file given")
	}
	if err := paths.EnsureDir(filepath.Dir(logPath)); err != nil {
		return err
	}
	f, err := paths.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("could not open the log file %s: %w; check its permissions", logPath, err)
	}
	defer f.Close()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	m := New(opts)
	defer m.Close()
	// A frame waits for the renderer's next tick: at Bubble Tea's most
	// (120 a second, against 60 by default) an answer reaches the screen
	// 4 ms sooner on average, for a wake-up every 8 ms that finds nothing
	// to draw when idle.
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(maxFPS)}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	} else {
		// lipgloss detected stdout's profile when the process started;
		// Bubble Tea would detect it again, which inside tmux runs
		// `tmux info` once more before the first frame.
		popts = append(popts, tea.WithColorProfile(lipgloss.Writer.Profile))
	}
	defer func() {
		if r := recover(); r != nil {
			opts.Logger.Error("panic outside the event loop", "panic", r, "stack", string(stackTrace()))
			err = fmt.Errorf("partnertui stopped after an internal error; the details are in %s", logPath)
		}
	}()
	_, err = tea.NewProgram(m, popts...).Run()
	switch {
	case m.crashed != nil:
		return fmt.Errorf("partnertui stopped after an internal error (%v); the terminal was restored and the details are in %s", m.crashed, logPath)
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("partnertui stopped after an internal error; the terminal was restored and the details are in %s: %w", logPath, err)
	case err != nil && ctx.Err() != nil:
		// The caller cancelled (signal): a normal way to end.
		return nil
	case err != nil:
		return fmt.Errorf("the terminal UI failed: %w; the log is in %s", err, logPath)
	}
	return nil
}

// discardLogger is used when the caller gives no logger.
func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
