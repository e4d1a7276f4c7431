package tables

// CalculatorEntry is one calculator in the list: its name, what it
// computes, its seed paper and theorem.
type CalculatorEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Seed        string `json:"seed"`
	Source      string `json:"source"`
}

// Catalogue lists the calculators, one entry each, in Calculators' order.
func Catalogue() []CalculatorEntry {
	var list []CalculatorEntry
	for _, c := range Calculators() {
		list = append(list, CalculatorEntry{c.Name, c.Short, c.Source.Seed, c.Source.Theorem})
	}
	return list
}
