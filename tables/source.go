package tables

// Source is where a calculator's statement comes from and when it applies.
type Source struct {
	Paper       string   `json:"paper"`       // authors, short title
	Seed        string   `json:"seed"`        // e.g. "000"
	Theorem     string   `json:"theorem"`     // e.g. "Lemma 2.2, Lemma 3.1"
	Assumptions []string `json:"assumptions"` // what the statement relies on
	Validity    string   `json:"validity"`    // the input range it is valid for
	Notes       []string `json:"notes"`       // paper errors, reconstructions, approximations
}

const (
	paperGTU  = "Ganesh, Thakurta, Upadhyay, DP Sampling from Rashomon Sets and the Universality of Langevin Diffusion"
	paperBST  = "Bassily, Smith, Thakurta 2014, Differentially Private ERM: Efficient Algorithms and Tight Error Bounds"
	paperGGP  = "González, Guzmán, Paquette, Mirror Descent with Nearly Dimension-Independent Rates for DP Stochastic Saddle-Points"
	paperLR   = "Lowy, Razaviyayn, Private Stochastic Optimization with Large Worst-Case Lipschitz Parameter"
	paperFMTT = "Feldman, Mironov, Talwar, Thakurta 2018, Privacy Amplification by Iteration"
)
