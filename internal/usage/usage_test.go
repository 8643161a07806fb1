package usage

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

// TestErrorfWraps: the message is the format's, and what %w wraps is still
// found through the usage error, itself found through any wrapping.
func TestErrorfWraps(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("listen: %w", Errorf("cannot read %s: %w", "q.graphql", fs.ErrNotExist))
	var ue *Error
	if !errors.As(err, &ue) || ue.Error() != "cannot read q.graphql: file does not exist" {
		t.Fatalf("errors.As = %v, %v", ue, err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("the wrapped error is not found through the usage error")
	}
	if ue.Suggest != "" || ue.Explained {
		t.Errorf("Errorf set %+v", ue)
	}
}
