package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/partnertui/partnertui/internal/safetext"
)

// MaxRawAnswer bounds the answer to an operation written by hand: the
// emulator's own bound (100,000 connection nodes) answers in a few MB.
const MaxRawAnswer = 64 << 20

// Request is an operation written by hand (`partnertui api`): its text is
// sent as it is.
type Request struct {
	Query         string
	OperationName string         // "" when the document has one operation
	Variables     map[string]any // nil for none
	Testing       bool           // to the Sandbox Testing API instead of the partner API
	// Verbatim keeps the answer's strings as the server sent them, for an
	// answer kept in a file rather than drawn: a schema read by
	// introspection, whose descriptions span lines. Whoever draws one of
	// its strings strips it then (internal/safetext), as it would a
	// file's; the request log's copy of its errors is stripped here.
	Verbatim bool
}

// Body is the request's JSON body, exactly as Do sends it.
func (r Request) Body() ([]byte, error) {
	payload := struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables,omitempty"`
		OperationName string         `json:"operationName,omitempty"`
	}{r.Query, r.Variables, r.OperationName}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(payload); err != nil {
		return nil, fmt.Errorf("could not encode the request: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Response is the answer to a Request sent with Do.
type Response struct {
	Status int
	// Body is the answer's JSON, members in the server's order, with every
	// string made safe for a terminal.
	Body []byte
}

// Endpoint is the URL a request goes to: the partner API's, or the
// Testing API's (ErrNoTestingAPI on Live).
func (c *Client) Endpoint(testing bool) (string, error) {
	if !testing {
		return c.gqlURL, nil
	}
	if c.testingURL == "" {
		return "", fmt.Errorf("%s has no Testing API: %w", c.env, ErrNoTestingAPI)
	}
	return c.testingURL, nil
}

// Do sends an operation written by hand through the whole stack: the
// request budget, waits and 429 retries of a query, the environment guard,
// the token, the request log. A mutation is refused on a read-only
// environment before anything is sent. An answer with "errors" and HTTP
// 200 is not an error here: its body carries them, with whatever data
// came along.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	url, err := c.Endpoint(r.Testing)
	if err != nil {
		return nil, err
	}
	mutation, err := changes(r.Query, r.OperationName)
	if err != nil {
		return nil, err
	}
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	var out *Response
	err = c.run(ctx, mutation, func(ctx context.Context) error {
		resp, err := c.send(ctx, url, body, r.Verbatim)
		out = resp
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// changes reports whether the operation to send is anything but a query:
// the read-only policy is decided here, on the text that is sent, not on
// what a caller says of it.
func changes(query, name string) (bool, error) {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return false, fmt.Errorf("could not read the operation: %w", err)
	}
	var op *ast.OperationDefinition
	switch {
	case name != "":
		op = doc.Operations.ForName(name)
	case len(doc.Operations) == 1:
		op = doc.Operations[0]
	}
	if op == nil {
		return false, errors.New("could not tell which operation of the document to send: name it")
	}
	return op.Operation != ast.Query, nil
}

func (c *Client) send(ctx context.Context, url string, body []byte, verbatim bool) (*Response, error) {
	resp, err := c.post(ctx, url, body)
	if err != nil {
		return nil, err
	}
	defer drainClose(resp)
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxRawAnswer+1))
	if err != nil {
		return nil, &bodyError{err: err}
	}
	if len(raw) > MaxRawAnswer {
		return nil, &bodyError{err: fmt.Errorf("the answer is larger than %d MB: ask for smaller pages", MaxRawAnswer>>20)}
	}
	clean := raw
	if verbatim {
		if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) == 0 || b[0] != '{' || !json.Valid(raw) {
			return nil, &bodyError{err: errors.New("the response is not a JSON object")}
		}
	} else if clean, err = sanitizeJSON(raw); err != nil {
		return nil, &bodyError{err: err}
	}
	noteErrors(ctx, clean)
	return &Response{Status: resp.StatusCode, Body: clean}, nil
}

// sanitizeJSON re-encodes a JSON object with every string, member names
// included, made safe for a terminal, keeping the members' order.
func sanitizeJSON(raw []byte) ([]byte, error) {
	if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return nil, errors.New("the response is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	out := bytes.NewBuffer(make([]byte, 0, len(raw)))
	if err := copyValue(dec, out); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the response has more than one JSON value")
	}
	return out.Bytes(), nil
}

func copyValue(dec *json.Decoder, out *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		closing := byte(']')
		if v == '{' {
			closing = '}'
		}
		out.WriteByte(byte(v))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				writeString(out, k.(string))
				out.WriteByte(':')
			}
			if err := copyValue(dec, out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		out.WriteByte(closing)
	case string:
		writeString(out, v)
	case json.Number:
		out.WriteString(v.String())
	case bool:
		if v {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	}
	return nil
}

// writeString quotes s made safe: Strip leaves no control character, so
// only the quote and the backslash need escaping.
func writeString(out *bytes.Buffer, s string) {
	s = safetext.Strip(s)
	out.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			out.WriteByte('\\')
		}
		out.WriteByte(s[i])
	}
	out.WriteByte('"')
}
