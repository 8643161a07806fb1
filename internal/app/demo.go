package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/internal/paths"
)

// demoBookingDelay is how long a transfer simulated under --demo stays
// Pending.
const demoBookingDelay = 3 * time.Second

// demo is --demo's embedded emulator and its temporary directory: the
// state directory (tokens, budget) under partnertui/, as under any
// XDG_STATE_HOME, and a configuration file of the emulator's clients, so
// that another partnertui can reach this demo while it runs (Place).
type demo struct {
	srv        *emulator.Server
	info       emulator.Info
	root       string // the temporary directory, removed by close
	stateDir   string // root/partnertui
	configFile string // root/config.toml
}

// startDemo starts the emulator on a random loopback port, with tokens in a
// temporary directory that close removes: a demo writes nothing that
// outlives it (the log file excepted, see LogPath). The directory is made
// in tmp ("" is the system's temporary directory). schemas, if any, are
// served whole. The data is generated up to epoch, the start of the
// app's day (UTC): the demo's accounts look alive whatever the day, and
// are the same all day long.
func startDemo(ctx context.Context, tmp string, schemas []emulator.Source, epoch time.Time) (*demo, error) {
	// A simulated transfer stays Pending for a moment, so the demo shows
	// both of its states and their webhook events.
	srv, err := emulator.Start(context.WithoutCancel(ctx), emulator.Options{BookingDelay: demoBookingDelay, DemoSubscription: true, Schemas: schemas,
		Epoch: epoch})
	if err != nil {
		return nil, wrapDemo(err)
	}
	dir, err := os.MkdirTemp(tmp, "partnertui-demo-*")
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("could not create a temporary token directory for --demo: %w", err)
	}
	d := &demo{srv: srv, info: srv.Info(), root: dir, stateDir: filepath.Join(dir, "partnertui"), configFile: filepath.Join(dir, "config.toml")}
	if err := d.writeFiles(); err != nil {
		d.close()
		return nil, fmt.Errorf("could not prepare --demo's temporary directory: %w", err)
	}
	return d, nil
}

// writeFiles makes the state directory and writes the configuration file
// (0600, in the 0700 temporary directory): the clients' secrets are the
// emulator's, new on every start and useless once it stops.
func (d *demo) writeFiles() error {
	if err := paths.EnsureDir(d.stateDir); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# The configuration of a running `partnertui --demo`: its emulator, its clients and its\n" +
		"# tokens exist only while it runs, and this file goes with them.\n")
	fmt.Fprintf(&b, "default_env = %q\n", string(config.Sandbox))
	for _, name := range []config.EnvName{config.Sandbox, config.Live} {
		e := d.info.Environments[string(name)]
		fmt.Fprintf(&b, "\n[%s]\napi_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret = %q\nredirect_uri = %q\n",
			name, d.info.APIURL, d.info.AuthURL, e.ClientID, e.ClientSecret, e.RedirectURI)
	}
	return paths.WriteFile(d.configFile, []byte(b.String()))
}

func (d *demo) close() {
	d.srv.Close()
	os.RemoveAll(d.root)
}

// config points both environments at the emulator, with its demo clients.
func (d *demo) config() *config.Config {
	env := func(name config.EnvName) config.Environment {
		e := d.info.Environments[string(name)]
		return config.Environment{
			Name: name, APIURL: d.info.APIURL, AuthURL: d.info.AuthURL,
			ClientID: e.ClientID, ClientSecret: e.ClientSecret, RedirectURI: e.RedirectURI,
			Token: config.TokenUser,
		}
	}
	return &config.Config{DefaultEnv: config.Sandbox, Sandbox: env(config.Sandbox), Live: env(config.Live)}
}

// approver plays the browser on the emulator's sign-in forms as the first
// demo user of env.
func (d *demo) approver(env config.EnvName) func(context.Context, string) error {
	for _, u := range d.info.DemoUsers {
		if u.Env == string(env) {
			return auth.ApproveWithForms(demoHTTPClient(), u.Phone, false)
		}
	}
	return func(context.Context, string) error { return errNoDemoUser }
}
