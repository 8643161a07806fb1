package gql

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// OperationLog is what the request log records of a GraphQL request: the
// operation, its name and its variables with every webhook secret
// redacted. The emulator's middleware puts an empty one in the request's
// context (WithOperationLog) and the endpoint fills it.
type OperationLog struct {
	Query     string
	Name      string
	Variables json.RawMessage
}

type operationLogKey struct{}

// WithOperationLog returns ctx carrying log, for the endpoint to fill.
func WithOperationLog(ctx context.Context, log *OperationLog) context.Context {
	return context.WithValue(ctx, operationLogKey{}, log)
}

func operationLogFrom(ctx context.Context) *OperationLog {
	l, _ := ctx.Value(operationLogKey{}).(*OperationLog)
	return l
}

func (o *OperationLog) set(query, name string, vars json.RawMessage) {
	o.Query, o.Name = query, name
	if len(vars) > 0 && json.Valid(vars) && string(vars) != "null" {
		o.Variables = redactSecrets(vars)
	}
}

// redactSecrets replaces the value of every member named "secret" (a
// webhook subscription's shared secret) at any depth of the variables.
// A secret written inline in the operation text is not found: clients
// send input as variables.
func redactSecrets(vars json.RawMessage) json.RawMessage {
	if !bytes.Contains(bytes.ToLower(vars), []byte(`"secret"`)) {
		return vars
	}
	var v any
	if err := json.Unmarshal(vars, &v); err != nil {
		return nil
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				if strings.EqualFold(k, "secret") && val != nil {
					x[k] = "[redacted]"
					continue
				}
				walk(val)
			}
		case []any:
			for _, val := range x {
				walk(val)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return out
}
