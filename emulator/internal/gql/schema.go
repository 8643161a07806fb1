// Package gql is the emulator's GraphQL server: the partner API of each
// environment and the Sandbox's Testing API, with their schemas, resolvers,
// operation limits and the webhook events the Testing API's simulations
// emit. The emulator's root package routes requests here; what it serves
// comes from internal/data and internal/webhooks.
//
// Each API's schema is a folder of SDL files under schema/, embedded, one
// file per subject (accounts, cards, transactions, sandbox users,
// transfers…); the resolvers of a subject are in the Go file of the same
// name (accounts.go, transfers.go…), and schema.graphql's shared types
// (scalars, connections, the caller) in resolvers.go and testingapi.go.
package gql

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// schemaFiles are the schemas as the platform publishes them, a folder per
// API and a file per subject.
//
//go:embed schema
var schemaFiles embed.FS

// sdl is one API's schema: the files of its folder in name order, with
// schema.graphql (the root types and scalars) first.
func sdl(api string) (string, error) {
	dir := path.Join("schema", api)
	entries, err := fs.ReadDir(schemaFiles, dir)
	if err != nil {
		return "", fmt.Errorf("read the %s schema: %w", api, err)
	}
	var b strings.Builder
	files := []string{"schema.graphql"}
	for _, e := range entries {
		if n := e.Name(); n != "schema.graphql" && strings.HasSuffix(n, ".graphql") {
			files = append(files, n)
		}
	}
	for _, n := range files {
		src, err := fs.ReadFile(schemaFiles, path.Join(dir, n))
		if err != nil {
			return "", fmt.Errorf("read the %s schema: %w", api, err)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// The two APIs, as folders of schema/.
const (
	PartnerAPI = "partner"
	TestingAPI = "testing"
)
