package composition

import (
	"errors"
	"strconv"
	"strings"

	"github.com/privamp/privamp/dp"
)

// ParseGuarantee reads a guarantee written "e:d" (ε and δ) or "e" (δ = 0),
// as the command line and lists of guarantees write them. It checks only
// the syntax; Compose checks the ranges.
func ParseGuarantee(s string) (dp.Guarantee, error) {
	bad := errors.New("want e:d with numbers e ≥ 0 and d in [0, 1)")
	es, ds, hasD := strings.Cut(strings.TrimSpace(s), ":")
	e, err := strconv.ParseFloat(strings.TrimSpace(es), 64)
	if err != nil {
		return dp.Guarantee{}, bad
	}
	var d float64
	if hasD {
		if d, err = strconv.ParseFloat(strings.TrimSpace(ds), 64); err != nil {
			return dp.Guarantee{}, bad
		}
	}
	return dp.Guarantee{Epsilon: dp.Loss(e), Delta: dp.Loss(d)}, nil
}
