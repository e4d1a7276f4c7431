package quantity

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 people"}, {1, "1 person"}, {2, "2 people"}} {
		if got := Count(c.n, "person", "people"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
