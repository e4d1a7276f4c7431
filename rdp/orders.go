package rdp

// DefaultOrders returns the order grid privamp evaluates curves on before it
// refines over continuous α (down to 1.006 below the grid): 1.1–10.9 in steps
// of 0.1, the integers 11–63, and 64–4096 roughly geometrically
// (64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024, 1536, 2048, 3072,
// 4096). It contains every order of Google dp_accounting's and Opacus's
// default grids, so privamp's ε is never above theirs for the same curve.
// The slice is new on each call.
func DefaultOrders() []float64 {
	out := make([]float64, 0, 180)
	for x := 1; x < 100; x++ {
		out = append(out, 1+float64(x)/10)
	}
	for a := 11; a <= 63; a++ {
		out = append(out, float64(a))
	}
	out = append(out, 64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024, 1536, 2048, 3072, 4096)
	return out
}
