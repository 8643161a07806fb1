package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/partnertui/partnertui/emulator/internal/data"
	"github.com/partnertui/partnertui/emulator/internal/gql"
	"github.com/partnertui/partnertui/emulator/internal/oauth"
)

// envSpec is what differs between the emulator's environments; everything
// else is built the same way for each.
type envSpec struct {
	name       string // "sandbox" | "live"
	prefix     string // of client ids, as the platform's dashboard gives them
	seedOffset int64  // added to Options.Seed, so the data sets differ
	// sandbox environments have the documented operation limits and the
	// Testing API.
	sandbox bool
}

// liveSeedOffset separates the Live data set's seed from the Sandbox's.
const liveSeedOffset = 1_000_003

// envSpecs are the platform's environments.
func envSpecs() []envSpec {
	return []envSpec{
		{name: "sandbox", prefix: "SANDBOX", sandbox: true},
		{name: "live", prefix: "LIVE", seedOffset: liveSeedOffset},
	}
}

// environment is one environment of the emulator: its data, its OAuth
// client and its webhook events.
type environment struct {
	envSpec
	seed   int64 // of its data and of what it generates
	store  *data.Store
	client oauth.Client
	events *gql.Events
}

// newEnvironments builds every environment. Their data sets are
// independent: generating them side by side divides the start-up time of a
// large emulator.
func newEnvironments(opts Options) ([]*environment, error) {
	specs := envSpecs()
	envs := make([]*environment, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Go(func() { envs[i], errs[i] = newEnvironment(opts, spec) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, e := range envs {
		e.startEvents(opts)
	}
	return envs, nil
}

// startEvents starts the environment's webhook service; closeAll stops it.
func (e *environment) startEvents(opts Options) {
	e.events = gql.NewEvents(e.store, gql.EventsConfig{
		RetryInterval: opts.WebhookRetryInterval, AnswerWindow: opts.WebhookAnswerWindow,
		MaxRetries: opts.WebhookMaxRetries, Now: opts.Now,
		BookingDelay: opts.BookingDelay, DemoSubscription: opts.DemoSubscription,
	})
}

// newEnvironment generates the data set and the client of one environment;
// its events are started once every environment could be built.
func newEnvironment(opts Options, spec envSpec) (*environment, error) {
	store, err := data.New(data.Config{Env: spec.name, Seed: opts.Seed + spec.seedOffset, Accounts: opts.Accounts, Epoch: opts.Epoch, Now: opts.Now})
	if err != nil {
		return nil, err
	}
	id, secret, err := credentials(spec.prefix, store.Project().ID)
	if err != nil {
		return nil, err
	}
	return &environment{
		envSpec: spec,
		seed:    opts.Seed + spec.seedOffset,
		store:   store,
		client:  oauth.Client{ID: id, Secret: secret, Env: spec.name, RedirectURIs: []string{CallbackURI}, AuthMethod: opts.TokenAuthMethod},
	}, nil
}

// credentials makes a client id with the platform's environment prefix and
// a random secret: a secret that outlives the process would be one more
// thing to leak.
func credentials(prefix, projectID string) (id, secret string, err error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("generate the %s client secret: %w", strings.ToLower(prefix), err)
	}
	return prefix + "_" + projectID, hex.EncodeToString(b), nil
}

// graphqlPath is where the environment's partner API answers.
func (e *environment) graphqlPath() string { return "/" + e.name + "-partner/graphql" }

// testingPath is where its Testing API answers; "" when it has none.
func (e *environment) testingPath() string {
	if !e.sandbox {
		return ""
	}
	return "/" + e.name + "-partner-admin/graphql"
}

// mount adds the environment's GraphQL endpoints to mux; schemas are the
// ones a user brought, if any.
func (e *environment) mount(mux *http.ServeMux, tokens gql.Introspector, schemas *served) error {
	partner, err := gql.NewPartnerEndpoint(gql.Partner{
		Store: e.store, ClientID: e.client.ID, RedirectURI: CallbackURI,
		Tokens: tokens, Limited: e.sandbox, Events: e.events, Supplied: schemas.supplied(gql.PartnerAPI, e.seed),
	})
	if err != nil {
		return err
	}
	mux.Handle(e.graphqlPath(), partner)
	mux.Handle(gql.ConsentPath(e.name), gql.NewConsentPage(e.events))
	mux.Handle(gql.StatementPath(e.name), gql.NewStatementDocuments(e.store))
	if p := e.testingPath(); p != "" {
		h, err := gql.NewTestingEndpoint(e.store, tokens, e.events, schemas.supplied(gql.TestingAPI, e.seed))
		if err != nil {
			return err
		}
		mux.Handle(p, h)
	}
	return nil
}

// info is what a client needs to use the environment at base.
func (e *environment) info(base string) EnvInfo {
	i := EnvInfo{ClientID: e.client.ID, ClientSecret: e.client.Secret, RedirectURI: CallbackURI, GraphQLURL: base + e.graphqlPath()}
	if p := e.testingPath(); p != "" {
		i.TestingGraphQLURL = base + p
	}
	return i
}

// interruptAll stops every environment's pending work without waiting.
func interruptAll(envs []*environment) {
	for _, e := range envs {
		e.events.Interrupt()
	}
}

// closeAll stops every environment's pending work and waits for it.
func closeAll(envs []*environment) {
	for _, e := range envs {
		e.events.Close()
	}
}

// WebhookRecorded returns a channel closed when the webhook event log of
// env ("sandbox" or "live") records its next entry, so a client's test
// waits for a delivery to be logged without polling: take the channel,
// read the log, and wait on the channel while the entry is not there. For
// any other env it returns nil, which never fires.
func (s *Server) WebhookRecorded(env string) <-chan struct{} {
	for _, e := range s.envs {
		if e.name == env {
			return e.events.Hub().Recorded()
		}
	}
	return nil
}

// checkWebhookOptions refuses negative waits, which have no meaning.
func checkWebhookOptions(o Options) error {
	if o.WebhookRetryInterval < 0 || o.WebhookAnswerWindow < 0 || o.BookingDelay < 0 {
		return fmt.Errorf("webhook retry interval %s, answer window %s and booking delay %s must not be negative: use 0 for the defaults", o.WebhookRetryInterval, o.WebhookAnswerWindow, o.BookingDelay)
	}
	return nil
}
