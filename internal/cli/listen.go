package cli

import (
	"context"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"github.com/partnertui/partnertui/internal/listen"
)

// ListenOptions are `partnertui listen`'s flags.
type ListenOptions struct {
	IO           IO
	ForwardTo    string
	Subscription string
	Types        []string
	Create       bool
	Since        string // as given; the engine is given when it means
	Resume       bool
	Secrets      secretFlags // --secret, --secret-env, --secret-file
	Secret       string      // the secret they give, once read
	PrintJSON    bool
	Interval     time.Duration
}

// NewCmdListen forwards webhook events to a local endpoint, with no tunnel.
func NewCmdListen(f *Factory) *cobra.Command {
	opts := &ListenOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "listen --forward-to URL",
		Short: "Forward webhook events to a local URL as they happen, with no tunnel",
		Long: "Follows the platform's webhook event log and POSTs each new event's payload to --forward-to,\n" +
			"once per eventId, with the subscription's secret in the x-swan-secret header, as the platform\n" +
			"would. Each event is delivered and retried on its own (a failing event never holds up the\n" +
			"others) and gets a line per attempt with the local answer. Redirects are never followed: a 3xx\n" +
			"is the endpoint's answer. --create makes a subscription for the run (removed when listen\n" +
			"stops), with the secret of --secret-env, --secret-file or --secret, or a generated one printed\n" +
			"once. --since first forwards what\n" +
			"the log holds since then, oldest first; --resume keeps listen's position in the state directory\n" +
			"and forwards, when started again, the events it missed meanwhile, each eventId once. The log is\n" +
			"read with the project's token (client credentials). Ctrl+C stops it.",
		Example: "  partnertui listen --create --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui listen --create --secret-env HANDLER_SECRET --print-json --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui listen --create --secret-file ~/.config/myapp/webhook-secret --forward-to http://localhost:8080/webhooks\n" +
			"  partnertui listen --subscription 1c3f… --type Transaction.Booked --forward-to http://localhost:3000/hook\n" +
			"  partnertui listen --subscription 1c3f… --resume --since 2h --forward-to http://localhost:3000/hook",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkForwardURL(opts.ForwardTo); err != nil {
				return err
			}
			if err := opts.readSecret(f.env); err != nil {
				return err
			}
			lo, err := opts.engineOptions(time.Now())
			if err != nil {
				return err
			}
			return runListen(cmd.Context(), f, lo)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.ForwardTo, "forward-to", "", "POST each event to this `url` (http or https)")
	fl.StringVar(&opts.Subscription, "subscription", "", "only events of this webhook subscription (`id`)")
	fl.StringSliceVar(&opts.Types, "type", nil, "only these event types (`type`, repeat or comma-separate; any case)")
	fl.BoolVar(&opts.Create, "create", false, "create a subscription for this run, removed when listen stops")
	opts.Secrets.register(cmd, "with --create, the subscription's secret, sent in x-swan-secret (default: generated and printed)")
	fl.StringVar(&opts.Since, "since", "", timeFlagUsage("first forward what the log holds since", false))
	fl.BoolVar(&opts.Resume, "resume", false, "keep the position in the state directory, and start from it: the events missed while stopped are forwarded")
	fl.BoolVar(&opts.PrintJSON, "print-json", false, "print each event's payload as it is forwarded")
	fl.DurationVar(&opts.Interval, "interval", listen.DefaultInterval, "time between two reads of the event log (`duration`)")
	_ = fl.MarkHidden("interval")
	return f.withSession(cmd, true)
}

// engineOptions refuses flags that do not go together, reads --since,
// and gives the engine its options, with its defaults for what has no
// flag.
func (o *ListenOptions) engineOptions(now time.Time) (listen.Options, error) {
	lo := listen.Options{ForwardTo: o.ForwardTo, Subscription: o.Subscription, Types: o.Types, Create: o.Create,
		Resume: o.Resume, Secret: o.Secret, PrintJSON: o.PrintJSON, Interval: o.Interval,
		Backoff: listen.DefaultBackoff, Timeout: listen.DefaultTimeout, RemoveTimeout: listen.DefaultRemoveTimeout, Now: time.Now}
	if err := checkForwardURL(o.ForwardTo); err != nil {
		return lo, err
	}
	switch {
	case o.Create && o.Subscription != "":
		return lo, usageErrorf("--create and --subscription cannot be used together: --create makes a new subscription")
	case o.Resume && o.Create:
		return lo, usageErrorf("--resume cannot follow --create's subscription, which is removed when listen stops: " +
			"make one that stays (partnertui subscriptions lists them) and use --subscription ID, or follow them all")
	case o.Since != "" && o.Create:
		return lo, usageErrorf("--since forwards what the log holds for the subscription followed, and --create's is new, with nothing logged yet: " +
			"use --subscription ID (partnertui subscriptions lists them), or follow them all")
	}
	if err := foldEventTypes("--type", lo.Types); err != nil {
		return lo, err
	}
	if flag, ok := o.Secrets.given(); ok && !o.Create {
		return lo, usageErrorf("%s sets the secret of the subscription --create makes: add --create, or leave %s out to use the secret --subscription's subscription has", flag, flag)
	}
	var err error
	lo.Since, err = parseSince(o.Since, now)
	return lo, err
}

// readSecret reads the secret the flags give: from stdin (--secret -),
// a variable (as getenv reads the process's), a file, or the flag itself.
func (o *ListenOptions) readSecret(getenv func(string) string) error {
	if _, ok := o.Secrets.given(); ok && !o.Create {
		return nil // engineOptions refuses it, naming the flag
	}
	s, err := o.Secrets.read(o.IO.In, getenv)
	o.Secret = s
	return err
}

// parseSince reads --since as every command does (parseTime).
func parseSince(v string, now time.Time) (time.Time, error) {
	return parseTime("--since", v, now, false)
}

func checkForwardURL(raw string) error {
	if raw == "" {
		return usageErrorf("listen needs --forward-to URL, the local endpoint to POST events to")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErrorf("--forward-to %q is not an http(s) URL such as http://localhost:8080/webhooks", raw)
	}
	return nil
}

// runListen runs the engine on the environment the flags select: the event
// log and the subscriptions belong to the project.
func runListen(ctx context.Context, f *Factory, opts listen.Options) error {
	e, err := f.Env(ctx)
	if err != nil {
		return err
	}
	return listen.Run(ctx, opts, listen.Env{Name: string(e.Name), Host: e.Config.APIURL, API: e.ProjectAPI,
		StateDir: f.app.StateDir, Demo: f.Session.Demo, Config: f.Session.Config}, listen.Streams{Out: f.IO.Out, Err: f.IO.Err})
}
