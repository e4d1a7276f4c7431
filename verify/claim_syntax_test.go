package verify

import (
	"os"
	"strings"
	"testing"
)

// TestBrokenDPSGDClaimNamesTheFault: a copy of examples/dpsgd-claim.json
// broken as a user breaks it (a trailing comma, a missing comma, a
// misspelt or missing algorithm) is refused for that fault, not for a
// "sampling" key the pnsgd format does not know (issue 27, trap 3).
func TestBrokenDPSGDClaimNamesTheFault(t *testing.T) {
	b, err := os.ReadFile("../examples/dpsgd-claim.json")
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	for _, c := range []struct{ name, old, new, want string }{
		{"trailing comma", `"add-remove"`, `"add-remove",`, "line 12: invalid JSON: unexpected '}' where a key belongs"},
		{"missing comma", `"poisson",`, `"poisson"`, "line 5: invalid JSON: a string after a value (expected ',' or '}')"},
		{"misspelt algorithm", `"dpsgd"`, `"dp-sgd"`, `line 3: field "algorithm": unknown algorithm "dp-sgd": must be one of pnsgd, skip, stop, dpsgd, bst14-sgd; did you mean "dpsgd"?`},
		{"missing algorithm", "  \"algorithm\": \"dpsgd\",\n", "", `field "algorithm": is required`},
		{"algorithm not a string", `"dpsgd"`, `7`, `line 3: field "algorithm": expected a string, got the number 7`},
	} {
		t.Run(c.name, func(t *testing.T) {
			broken := strings.Replace(good, c.old, c.new, 1)
			if broken == good {
				t.Fatalf("the example no longer holds %q", c.old)
			}
			_, err := ParseClaim(strings.NewReader(broken))
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "sampling") {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	if _, err := ParseClaim(strings.NewReader(good)); err != nil {
		t.Fatalf("the example itself: %v", err)
	}
}
