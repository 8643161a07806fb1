package app

import (
	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/config"
)

// PublicAPI is an API client of the named environment that sends no token,
// for what the platform serves to anyone: its schema, by introspection
// (`partnertui schema pull`). It needs no credentials, only the
// environment's endpoints; it shares the request budget and the request
// log like every client, and goes only to those endpoints. Built once.
func (a *App) PublicAPI(name config.EnvName) (*api.Client, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.public[name]; c != nil {
		return c, nil
	}
	ec := a.Config.Env(name)
	c, err := api.New(api.Options{
		Env: string(name), GraphQLURL: ec.GraphQLURL(), TestingURL: ec.TestingGraphQLURL(),
		Anonymous: true, ReadOnly: true, BudgetDir: a.StateDir, OnWait: a.onWait, Log: a.Requests,
	})
	if err != nil {
		return nil, err
	}
	if a.public == nil {
		a.public = map[config.EnvName]*api.Client{}
	}
	a.public[name] = c
	return c, nil
}
