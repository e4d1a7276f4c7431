package pld

import (
	"math"
	"strings"
	"testing"
)

// Issue 23 item 8: a loss range without finite ends is said as such,
// never "needs NaN grid points for losses in [+Inf, +Inf]".
func TestGridErrorNeverNaN(t *testing.T) {
	o := Options{TailMass: 1e-15, MaxPoints: 1 << 24}
	inf := math.Inf(1)
	for _, c := range [][3]float64{{math.NaN(), inf, inf}, {inf, -0.01, inf}, {math.NaN(), -inf, -inf}, {inf, -inf, 3}} {
		msg := gridError(1e-3, c[0], c[1], c[2], o).Error()
		if strings.Contains(msg, "NaN") || strings.Contains(msg, "Inf") || !strings.Contains(msg, "no finite bound") {
			t.Errorf("n %v, losses [%v, %v]: %q", c[0], c[1], c[2], msg)
		}
	}
	if msg := gridError(1e-3, 3e7, -1, 3e4, o).Error(); !strings.Contains(msg, "needs 3e+07 grid points") {
		t.Errorf("finite: %q", msg)
	}
}
