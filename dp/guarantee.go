package dp

// Guarantee is an (ε, δ)-DP statement about one event under one
// neighbouring relation: sound (ε is an upper bound on the event's ε at δ),
// with the accountant that proved it, its source and the assumptions it
// rests on.
type Guarantee struct {
	Epsilon  Loss     `json:"epsilon"`
	Delta    Loss     `json:"delta"`
	Relation Relation `json:"-"`
	// Accountant names the accountant whose bound this is ("rdp", "pld",
	// "analytic-gaussian").
	Accountant  string   `json:"accountant"`
	Source      string   `json:"source"`
	Assumptions []string `json:"assumptions,omitempty"`
}
