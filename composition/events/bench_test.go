package events

import (
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
