package app

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/emulator"
)

// demoBookingDelay is how long a transfer simulated under --demo stays
// Pending.
const demoBookingDelay = 3 * time.Second

// demo is --demo's embedded emulator and its temporary token directory.
type demo struct {
	srv      *emulator.Server
	info     emulator.Info
	stateDir string
}

// startDemo starts the emulator on a random loopback port, with tokens in a
// temporary directory that close removes: a demo writes nothing that
// outlives it (the log file excepted, see LogPath). The directory is made
// in tmp ("" is the system's temporary directory). schemas, if any, are
// served whole.
func startDemo(ctx context.Context, tmp string, schemas []emulator.Source) (*demo, error) {
	// A simulated transfer stays Pending for a moment, so the demo shows
	// both of its states and their webhook events.
	srv, err := emulator.Start(context.WithoutCancel(ctx), emulator.Options{BookingDelay: demoBookingDelay, DemoSubscription: true, Schemas: schemas})
	if err != nil {
		return nil, wrapDemo(err)
	}
	dir, err := os.MkdirTemp(tmp, "partnertui-demo-*")
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("could not create a temporary token directory for --demo: %w", err)
	}
	return &demo{srv: srv, info: srv.Info(), stateDir: dir}, nil
}

func (d *demo) close() {
	d.srv.Close()
	os.RemoveAll(d.stateDir)
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
