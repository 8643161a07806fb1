package remedy

import (
	"context"
	"errors"
	"io/fs"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/auth"
	"github.com/partnertui/partnertui/config"
	"github.com/partnertui/partnertui/internal/budget"
	"github.com/partnertui/partnertui/internal/paths"
	"github.com/partnertui/partnertui/internal/usage"
)

// Classify is what to do about err. project says the environment calls
// the API with a project token: nobody signs in, so a refused token is a
// matter of the client's settings.
//
// The order matters where one error wraps another: an interruption wins
// over what it interrupted, an ended session over the token request that
// ended it.
func Classify(err error, project bool) Remedy {
	var (
		advised Advised
		misuse  *usage.Error
	)
	switch {
	case err == nil:
		return Remedy{Kind: None}
	case errors.As(err, &misuse) && misuse.Explained:
		return Remedy{Kind: None} // its message says what to fix
	case errors.As(err, &misuse):
		return Remedy{Kind: ShowUsage, Command: misuse.Suggest}
	case errors.As(err, &advised):
		return advised.Remedy()
	case errors.Is(err, context.Canceled):
		return Remedy{Kind: Interrupted}
	}
	for _, c := range []func(error, bool) (Remedy, bool){localState, session, tokenEndpoint, signIn, unsent, apiAnswer} {
		if r, ok := c(err, project); ok {
			return r
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Remedy{Kind: Retry}
	}
	return Remedy{Kind: Unknown}
}

// localState: this machine's files, locks and configuration.
func localState(err error, _ bool) (Remedy, bool) {
	var (
		invalid *config.ValidationError
		notConf *config.NotConfiguredError
		unsafe  *auth.UnsafeStoreError
		file    *budget.FileError
		dir     *paths.DirError
		path    *fs.PathError
	)
	switch {
	case errors.As(err, &invalid):
		return Remedy{Kind: None}, true // each problem names its line and its fix
	case errors.Is(err, config.ErrNoConfig):
		return Remedy{Kind: WriteConfig}, true
	case errors.As(err, &notConf):
		return Remedy{Kind: FixConfigKey, Env: string(notConf.Env), Keys: notConf.Keys}, true
	case errors.As(err, &unsafe):
		return Remedy{Kind: FixStorePermissions, Path: unsafe.Path}, true
	case errors.Is(err, budget.ErrLink) && errors.As(err, &file):
		return Remedy{Kind: RemoveLink, Path: file.Path}, true
	case errors.Is(err, paths.ErrLink) || errors.Is(err, paths.ErrNotRegular):
		r := Remedy{Kind: RemoveLink}
		if errors.As(err, &path) {
			r.Path = path.Path
		}
		return r, true
	case errors.As(err, &dir) && dir.Mode != 0:
		return Remedy{Kind: TightenStateDir, Path: dir.Path}, true
	case errors.As(err, &dir):
		return Remedy{Kind: FixStateDir, Path: dir.Path}, true
	case errors.As(err, &file) && errors.Is(err, budget.ErrLocked):
		return Remedy{Kind: WaitForProcess}, true
	case errors.As(err, &file):
		return Remedy{Kind: FixStateDir, Path: file.Path}, true
	case errors.As(err, new(*auth.LockTimeoutError)):
		return Remedy{Kind: WaitForProcess}, true
	}
	return Remedy{}, false
}

// session: the stored session or the token it gave was refused.
func session(err error, project bool) (Remedy, bool) {
	var (
		ended  *auth.SessionEndedError
		unauth *api.UnauthorizedError
	)
	switch {
	case errors.As(err, &ended) && project:
		return Remedy{Kind: None}, true // nobody signs in with a project token
	case errors.As(err, &ended):
		return Remedy{Kind: SignIn, Env: ended.Env}, true
	case errors.As(err, &unauth) && project:
		return Remedy{Kind: CheckClient, Env: unauth.Env}, true
	case errors.As(err, &unauth) && unauth.Status == 0:
		return Remedy{Kind: SignIn, Env: unauth.Env}, true
	case errors.As(err, &unauth):
		return Remedy{Kind: SignInAgain, Env: unauth.Env}, true
	}
	return Remedy{}, false
}

// tokenEndpoint: the authorization server refused a token request, or did
// not answer it.
func tokenEndpoint(err error, project bool) (Remedy, bool) {
	var (
		refused  *auth.TokenEndpointError
		noAnswer *auth.TokenEndpointUnreachableError
	)
	isRefused := errors.As(err, &refused)
	env := ""
	if isRefused {
		env = refused.Env
	}
	switch {
	case errors.Is(err, auth.ErrInvalidClient):
		if isRefused && refused.RegisteredAuthMethod != "" && refused.RegisteredAuthMethod != auth.ClientAuthMethod {
			// The secret may be right: the client expects it another way,
			// and partnertui never tries another way.
			return Remedy{Kind: FixAuthMethod, Env: env, Method: refused.RegisteredAuthMethod}, true
		}
		return Remedy{Kind: FixClientSecret, Env: env}, true
	case errors.Is(err, auth.ErrCodeRejected):
		return Remedy{Kind: NewCode, Env: env}, true
	case isRefused && errors.Is(err, auth.ErrRateLimited):
		return Remedy{Kind: RetryAt, Env: env, At: refused.RetryAt}, true
	case isRefused && project:
		return Remedy{Kind: CheckClient, Env: env}, true
	case isRefused:
		return Remedy{Kind: RetryOrSignIn, Env: env}, true
	case errors.As(err, &noAnswer) && noAnswer.Grant == "refresh_token":
		return Remedy{Kind: RefreshLost, Env: noAnswer.Env}, true
	case errors.As(err, &noAnswer):
		return Remedy{Kind: CheckNetwork, Env: noAnswer.Env, URLKey: "auth_url"}, true
	}
	return Remedy{}, false
}

// signIn: the browser sign-in did not complete.
func signIn(err error, _ bool) (Remedy, bool) {
	var (
		failed *auth.SignInError
		listen *auth.CallbackListenError
	)
	env := ""
	if errors.As(err, &failed) {
		env = failed.Env
	}
	switch {
	case errors.Is(err, auth.ErrAccessDenied):
		return Remedy{Kind: Approve, Env: env}, true
	case errors.Is(err, auth.ErrLoginTimeout):
		return Remedy{Kind: SignInWithoutBrowser, Env: env}, true
	case failed != nil:
		return Remedy{Kind: RetrySignIn, Env: env}, true
	case errors.As(err, &listen):
		return Remedy{Kind: FreePort, Addr: listen.Addr}, true
	case errors.As(err, new(*auth.PasteError)):
		return Remedy{Kind: PasteAgain}, true
	}
	return Remedy{}, false
}

// apiAnswer: what the API answered, or why nothing did. Each of these is
// a request the request log keeps (Logged).
func apiAnswer(err error, project bool) (Remedy, bool) {
	r, ok := apiAnswerKind(err, project)
	r.Logged = ok
	return r, ok
}

func apiAnswerKind(err error, _ bool) (Remedy, bool) {
	var (
		limited *api.RateLimitedError
		network *api.NetworkError
		bad     *api.BadResponseError
	)
	switch {
	case errors.As(err, &limited):
		return Remedy{Kind: RetryAt, Env: limited.Env, At: limited.RetryAt}, true
	case errors.Is(err, api.ErrOperationLimit):
		return Remedy{Kind: NarrowQuery}, true
	case errors.Is(err, api.ErrNotFound):
		return Remedy{Kind: CheckID}, true
	case errors.As(err, &network):
		return Remedy{Kind: CheckNetwork, Env: network.Env, URLKey: "api_url"}, true
	case errors.As(err, &bad) && bad.Kind == api.AnswerCutOff:
		// The address is right: the answer was cut on its way.
		return Remedy{Kind: Retry}, true
	case errors.As(err, &bad) && bad.Kind == api.AnswerHTML && bad.Status < 300:
		return Remedy{Kind: CheckPortal, Env: bad.Env}, true
	case errors.As(err, &bad):
		return Remedy{Kind: CheckURL, Env: bad.Env}, true
	case errors.Is(err, api.ErrServer), errors.Is(err, api.ErrGraphQL):
		return Remedy{Kind: Retry}, true
	case errors.Is(err, api.ErrRejected):
		return Remedy{Kind: None}, true // the server's own words say why
	}
	return Remedy{}, false
}

// unsent: a request refused before it left the process, which the
// request log does not keep.
func unsent(err error, _ bool) (Remedy, bool) {
	var foreign *api.EndpointError
	switch {
	case errors.Is(err, api.ErrReadOnly), errors.Is(err, api.ErrNoTestingAPI):
		return Remedy{Kind: UseSandbox}, true
	case errors.As(err, &foreign):
		return Remedy{Kind: CheckURL, Env: foreign.Env}, true
	}
	return Remedy{}, false
}
