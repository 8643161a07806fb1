package reference

import (
	"strings"
	"testing"
)

func TestMissingFailsOnlyInCI(t *testing.T) {
	t.Parallel()
	for ci, wantFail := range map[string]bool{"true": true, "1": true, "": false, "false": false, "0": false} {
		fail, msg := Missing(ci, "x/partner-schema.graphql")
		if fail != wantFail || !strings.Contains(msg, "x/partner-schema.graphql") {
			t.Errorf("CI=%q: fail %v (%s), want %v", ci, fail, msg, wantFail)
		}
	}
}

func TestReadFindsTheSchemas(t *testing.T) {
	t.Parallel()
	for _, name := range []string{PartnerSchema, TestingSchema} {
		if b := Read(t, name); !strings.Contains(string(b), "type Mutation") {
			t.Errorf("%s holds no Mutation type", name)
		}
	}
}
