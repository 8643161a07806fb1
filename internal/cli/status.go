package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/app"
	"github.com/partnertui/partnertui/internal/platform"
)

// StatusOptions are `partnertui status`'s.
type StatusOptions struct {
	IO   IO
	F    *Factory
	JSON jsonFlags
	// Timeout bounds the check against the platform.
	Timeout time.Duration
}

// statusCheckTimeout bounds status's own request.
const statusCheckTimeout = 30 * time.Second

// NewCmdStatus reports whether the session works, end to end.
func NewCmdStatus(f *Factory) *cobra.Command {
	opts := &StatusOptions{IO: f.IO, F: f, Timeout: statusCheckTimeout}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Check the session end to end: environment, user or project, token expiry",
		Long: "Gets a token (refreshing it when needed) and asks the platform who it belongs to, then\n" +
			"reports the state after that check: for the environment --env names, or without --env for\n" +
			"every configured environment, the default one first (--json: an array of reports).\n\n" +
			"Exit codes: 0 every session checked works, 4 a sign-in is needed (`partnertui login`), 1\n" +
			"anything else (a rejected client secret, an unreachable platform), 2 usage error; with\n" +
			"several environments, the first one's that does not work.",
		Example: "  partnertui status\n  partnertui status --env live --json\n  partnertui status --project",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.Context(), opts)
		},
	}
	opts.JSON.register(cmd, reflect.TypeFor[statusReport](), "print one JSON object on stdout")
	return f.withSession(cmd, true)
}

// statusReport is status's output; --json writes it as is.
type statusReport struct {
	Env          string           `json:"env"`
	ClientID     string           `json:"client_id"`
	Token        string           `json:"token"` // "user" or "project"
	Works        bool             `json:"works"`
	SignedIn     bool             `json:"signed_in"`
	Subject      string           `json:"subject,omitempty"`
	User         *api.User        `json:"user,omitempty"`
	Project      *api.ProjectInfo `json:"project,omitempty"`
	AccessExpiry time.Time        `json:"access_token_expiry,omitzero"`
	HasRefresh   bool             `json:"has_refresh_token"`
	StorePath    string           `json:"store_path,omitempty"`
	Problem      string           `json:"problem,omitempty"`
}

// runStatus checks the environment --env names, or every configured one.
func runStatus(ctx context.Context, opts *StatusOptions) error {
	if opts.F.Session.Env != "" {
		e, err := opts.F.Env(ctx)
		if err != nil {
			return err
		}
		rep, check := checkStatus(ctx, opts, e)
		return reportStatus(ctx, opts, []statusReport{rep}, []error{check}, false)
	}
	first, err := opts.F.envName()
	if err != nil {
		return err
	}
	var reps []statusReport
	var checks []error
	for _, name := range []config.EnvName{first, first.Other()} {
		e, err := opts.F.App().Env(name)
		if errors.Is(err, config.ErrNotConfigured) && name != first {
			continue // an environment never configured has nothing to check
		}
		if err == nil {
			err = opts.F.App().EnsureSignedIn(ctx, e)
		}
		if err != nil {
			return err
		}
		rep, check := checkStatus(ctx, opts, e)
		reps, checks = append(reps, rep), append(checks, check)
	}
	return reportStatus(ctx, opts, reps, checks, true)
}

// reportStatus writes the reports (one JSON object, or with several an
// array), each problem on stderr, and ends with the first problem's exit
// code.
func reportStatus(ctx context.Context, opts *StatusOptions, reps []statusReport, checks []error, several bool) error {
	var v any = reps[0]
	if several {
		v = reps
	}
	err := opts.F.writeItem(ctx, opts.JSON, v, func(w io.Writer) error {
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(w)
			}
			printStatus(w, rep)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var failed error
	for i, check := range checks {
		if check == nil {
			continue
		}
		if !opts.JSON.on() {
			fmt.Fprintln(opts.IO.Err, envTitle(reps[i].Env)+": "+reps[i].Problem)
		}
		if failed == nil {
			failed = check
		}
	}
	if failed != nil {
		return &exitError{code: exitCode(failed)}
	}
	return nil
}

// envTitle is an environment's name as the platform writes it.
func envTitle(env string) string { return platform.EnvTitle(env) }

// checkStatus checks e's session end to end and reports on it.
func checkStatus(ctx context.Context, opts *StatusOptions, e *app.Env) (statusReport, error) {
	name := e.Name
	rep := statusReport{Env: string(name), ClientID: e.Config.ClientID, Token: "user"}
	if e.Project {
		rep.Token = "project"
	}
	// The check comes first, so what is reported is the state after any
	// refresh it caused.
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	var check error
	if e.Project {
		rep.Project, check = e.API.ProjectInfo(cctx)
	} else {
		rep.User, check = e.API.User(cctx)
	}
	rep.Works = check == nil
	if !e.Project {
		st, err := e.Session.Status()
		if err != nil && check == nil {
			check = err
		}
		if st != nil {
			rep.SignedIn, rep.Subject, rep.AccessExpiry, rep.HasRefresh, rep.StorePath =
				st.SignedIn, st.Subject, st.AccessExpiry, st.HasRefresh, st.StorePath
		}
		if needsSignIn(check) {
			rep.SignedIn = false
		}
	}
	if check != nil {
		rep.Problem = opts.F.describe(check)
	}
	return rep, check
}

func printStatus(w io.Writer, r statusReport) {
	fmt.Fprintf(w, "Environment:  %s\n", r.Env)
	fmt.Fprintf(w, "Client:       %s\n", r.ClientID)
	switch {
	case r.Token == "project" && r.Project != nil:
		fmt.Fprintf(w, "Token:        project token of %s (%s, %s)\n", r.Project.Name, r.Project.ID, r.Project.Status)
	case r.Token == "project":
		fmt.Fprintf(w, "Token:        project token (client credentials)\n")
	case !r.SignedIn:
		fmt.Fprintf(w, "Signed in:    no\n")
	default:
		who := r.Subject
		if r.User != nil {
			who = fmt.Sprintf("%s (%s, %s)", r.User.FullName, r.User.MobilePhoneNumber, r.User.ID)
		}
		fmt.Fprintf(w, "Signed in:    yes, as %s\n", who)
	}
	if r.Token == "user" && r.SignedIn {
		if !r.AccessExpiry.IsZero() {
			left := time.Until(r.AccessExpiry).Round(time.Second)
			if left > 0 {
				fmt.Fprintf(w, "Access token: valid for %s (until %s)\n", left, localTime(r.AccessExpiry))
			} else {
				fmt.Fprintf(w, "Access token: expired\n")
			}
		}
		fmt.Fprintf(w, "Refresh:      %s\n", yesNo(r.HasRefresh))
	}
	if r.StorePath != "" {
		fmt.Fprintf(w, "Token store:  %s\n", r.StorePath)
	}
	if r.Works {
		fmt.Fprintf(w, "Works:        yes, the platform answered\n")
	} else {
		fmt.Fprintf(w, "Works:        no\n")
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
