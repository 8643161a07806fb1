package bind

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// The model's conventions, each on its own: a method per field (case and
// underscores aside), an optional context and arguments struct, an
// optional error, To<Type> methods for abstract types.

type money string

func (m *money) UnmarshalGraphQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("money is a string, got %T", v)
	}
	*m = money("€" + s)
	return nil
}

type common struct{ Label *string }

type inputArgs struct {
	Input struct {
		ID string
		common
		Amount money
		Tags   *[]string
		Nested *struct{ N int32 }
	}
	First int32
	Rate  float64
	Any   any
}

type node struct{ name string }

func (n *node) Name() string                                       { return n.name }
func (n *node) IBAN() *string                                      { return nil }
func (n *node) Is_Ok() bool                                        { return true }
func (n *node) Count() int32                                       { return 7 }
func (n *node) Items() []*node                                     { return nil }
func (n *node) More() *[]string                                    { s := []string{"a"}; return &s }
func (n *node) Ctx(ctx context.Context) (string, error)            { return ctx.Value(ctxKey{}).(string), nil }
func (n *node) Fail() (*node, error)                               { return nil, errors.New("broken") }
func (n *node) Echo(args inputArgs) string                         { return fmt.Sprintf("%+v", args) }
func (n *node) ToHuman() (*node, bool)                             { return n, n.name == "Luke" }
func (n *node) ToDroid() (*node, bool)                             { return n, n.name != "Luke" }
func (n *node) Both(_ context.Context, a inputArgs) (int32, error) { return a.First, nil }

type ctxKey struct{}

func TestField(t *testing.T) {
	t.Parallel()
	b := &Binder{}
	n := &node{name: "Luke"}
	ctx := context.WithValue(context.Background(), ctxKey{}, "from the context")
	for field, want := range map[string]any{
		"name": "Luke", "IBAN": nil, "isOk": true, "count": int64(7), "items": []any{}, "more": []string{"a"}, "ctx": "from the context",
	} {
		got, err := b.Field(ctx, n, field, nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, %v; want %#v", field, got, err, want)
		}
	}
	if _, err := b.Field(ctx, n, "fail", nil); err == nil || err.Error() != "broken" {
		t.Errorf("fail: %v", err)
	}
	if _, err := b.Field(ctx, n, "nope", nil); !errors.Is(err, ErrNoMethod) || !b.Has(n, "NAME") || b.Has(n, "nope") {
		t.Errorf("an unknown field: %v", err)
	}
	got, err := b.Field(ctx, n, "echo", map[string]any{
		"input": map[string]any{"id": "x1", "label": "l", "amount": "12.50", "tags": []any{"a", "b"}, "nested": map[string]any{"n": int32(3)}, "unknown": true},
		"first": int32(20), "rate": int32(2), "any": []any{"raw"},
	})
	want := `{Input:{ID:x1 common:{Label:0x` // the label is a pointer; checked below
	if err != nil || len(got.(string)) < len(want) || got.(string)[:len(want)] != want {
		t.Fatalf("echo = %v, %v", got, err)
	}
	var a inputArgs
	if err := packStruct(reflect.ValueOf(&a).Elem(), map[string]any{
		"input": map[string]any{"label": "l", "amount": "12.50", "tags": []any{"a"}}, "first": int32(20), "rate": 1.5,
	}); err != nil {
		t.Fatal(err)
	}
	if *a.Input.Label != "l" || a.Input.Amount != "€12.50" || (*a.Input.Tags)[0] != "a" || a.First != 20 || a.Rate != 1.5 || a.Input.Nested != nil {
		t.Errorf("packed %+v", a)
	}
	if err := packStruct(reflect.ValueOf(&a).Elem(), map[string]any{"first": "twenty"}); err == nil {
		t.Error("a string was packed into an int32")
	}
	if got, err := b.Field(ctx, n, "both", map[string]any{"first": int32(5)}); err != nil || got != int64(5) {
		t.Errorf("both = %v, %v", got, err)
	}
}

func TestTypeOf(t *testing.T) {
	t.Parallel()
	b := &Binder{}
	for name, want := range map[string]string{"Luke": "Human", "R2-D2": "Droid"} {
		got, v, ok := b.TypeOf(&node{name: name}, []string{"Human", "Droid", "Starship"})
		if !ok || got != want || v.(*node).name != name {
			t.Errorf("%s is a %s (%v), want %s", name, got, ok, want)
		}
	}
	if _, _, ok := b.TypeOf(&node{name: "x"}, []string{"Starship"}); ok {
		t.Error("a type the value has no To method for was chosen")
	}
	if _, _, ok := b.TypeOf(nil, []string{"Human"}); ok {
		t.Error("nil has a type")
	}
}
