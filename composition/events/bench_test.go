package events

import (
	"fmt"
	"strings"
	"testing"
)

func benchAccount(b *testing.B, path string, q Query) {
	ev, err := Load(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Account(ev, q); err != nil {
			b.Fatal(err)
		}
	}
}

// The two-phase example at δ = 1e-6: PLD (sound and optimistic) and RDP.
func BenchmarkTwoPhase(b *testing.B) {
	benchAccount(b, "../../examples/events-two-phase.json", Query{Delta: 1e-6})
}

// RDP only.
func BenchmarkTwoPhaseRDP(b *testing.B) {
	benchAccount(b, "../../examples/events-two-phase.json", Query{Delta: 1e-6, Accountant: "rdp"})
}

func BenchmarkNoiseSchedule(b *testing.B) {
	benchAccount(b, "../../examples/events-noise-schedule.json", Query{Delta: 1e-6})
}

// distinctSchedule is an events file of m distinct Poisson-sampled
// Gaussians run once each, q = 0.01 and noise multipliers z_i = 1 + i/m (a
// per-step noise schedule): the file `privamp compose --events` took over
// 10 minutes and 2.6 GB on at m = 2000 before composeMany.
func distinctSchedule(m int) string { return schedule(m, 1) }

// schedule is distinctSchedule with each mechanism run count times
// (SelfComposed when count > 1).
func schedule(m, count int) string {
	var b strings.Builder
	b.WriteString(`{"event": {"type": "Composed", "events": [`)
	for i := 0; i < m; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		ev := fmt.Sprintf(`{"type": "PoissonSampled", "sampling_probability": 0.01, "event": {"type": "Gaussian", "noise_multiplier": %v}}`, 1+float64(i)/float64(m))
		if count > 1 {
			ev = fmt.Sprintf(`{"type": "SelfComposed", "count": %d, "event": %s}`, count, ev)
		}
		b.WriteString(ev)
	}
	b.WriteString("]}}")
	return b.String()
}

func benchDistinct(b *testing.B, m int) {
	ev, err := Read(strings.NewReader(distinctSchedule(m)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Account(ev, Query{Delta: 1e-6}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDistinct100(b *testing.B)  { benchDistinct(b, 100) }
func BenchmarkDistinct2000(b *testing.B) { benchDistinct(b, 2000) }
