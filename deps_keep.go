package main

// Blank imports keep every pinned dependency in go.mod while the packages
// that use them are being written. Removed once each is imported for real.
import (
	_ "charm.land/bubbles/v2/table"
	_ "charm.land/bubbles/v2/textinput"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/fang/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/BurntSushi/toml"
	_ "github.com/adrg/xdg"
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/cli/browser"
	_ "github.com/coreos/go-oidc/v3/oidc"
	_ "github.com/gofrs/flock"
	_ "github.com/graph-gophers/graphql-go"
	_ "github.com/hasura/go-graphql-client"
	_ "github.com/ory/fosite/compose"
	_ "github.com/ory/fosite/storage"
	_ "github.com/pelletier/go-toml/v2"
	_ "github.com/pelletier/go-toml/v2/unstable"
	_ "github.com/skip2/go-qrcode"
	_ "github.com/spf13/cobra"
	_ "github.com/vektah/gqlparser/v2"
	_ "golang.org/x/net/html"
	_ "golang.org/x/oauth2"
	_ "golang.org/x/oauth2/clientcredentials"
)
