package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/jsonin"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// Format and Version identify a plan file.
const (
	Format  = "privamp-plan"
	Version = 1
)

// Plan is a per-person privacy schedule as written to and read from JSON
// (see the package documentation for the format). Positions are 1-based:
// position t is the t-th private record the run processes.
type Plan struct {
	Format          string          `json:"format"`
	Version         int             `json:"version"`
	Variant         shifted.Variant `json:"variant"`
	N               int64           `json:"n"`
	Public          int64           `json:"public"`
	Batch           int64           `json:"batch"`
	Epochs          int64           `json:"epochs"`
	Tasks           int64           `json:"tasks"`
	Lipschitz       float64         `json:"lipschitz"`
	Smoothness      float64         `json:"smoothness"`
	StrongConvexity float64         `json:"strong_convexity"`
	Radius          float64         `json:"radius"`
	Dimension       int64           `json:"dimension"`
	Delta           float64         `json:"delta"`
	Conversion      string          `json:"conversion"`
	Sigma           float64         `json:"sigma"`
	Eta             float64         `json:"eta"`
	Order           string          `json:"order"`
	Summary         Summary         `json:"summary"`
	Tiers           []Tier          `json:"tiers,omitempty"`
	People          *People         `json:"people,omitempty"`
}

// Summary is what privamp computed with the plan, for people to read; Load
// accepts it as written and never relies on it (Verify recomputes).
type Summary struct {
	Optimal             bool          `json:"optimal"`
	OrderNote           string        `json:"order_note"`
	SigmaSource         string        `json:"sigma_source"`
	EtaSource           string        `json:"eta_source"`
	UtilityBound        *float64      `json:"utility_bound"`
	UtilitySource       string        `json:"utility_source"`
	UniformEpsilon      float64       `json:"uniform_epsilon"`
	UniformDelta        float64       `json:"uniform_delta"`
	UniformSigma        float64       `json:"uniform_sigma"`
	UniformUtilityBound *float64      `json:"uniform_utility_bound"`
	MaxAchievedRatio    float64       `json:"max_achieved_ratio"`
	BindingPosition     int64         `json:"binding_position"` // where MaxAchievedRatio is attained: the budget that sets σ
	Groups              []GroupResult `json:"groups,omitempty"`
}

// GroupResult summarises a run of positions with the same target.
type GroupResult struct {
	First       int64   `json:"first"`
	Last        int64   `json:"last"`
	Tier        string  `json:"tier,omitempty"`
	Epsilon     float64 `json:"epsilon"` // target
	Delta       float64 `json:"delta"`
	AchievedMin float64 `json:"achieved_min"`
	AchievedMax float64 `json:"achieved_max"`
	SlackMin    float64 `json:"slack_min"` // Epsilon − AchievedMax
}

// maxGroupsInSummary bounds the groups a plan file summarises.
const maxGroupsInSummary = 1000

func optNum(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// plan assembles the Plan of a solved problem. It may use perm up
// (People.moveTo).
func (p *problem) plan(sigma float64, b Budgets, perm []int32, ev *evals, res *Result) (*Plan, error) {
	s, t := p.s, p.s.Training
	eta, etaSrc, _ := s.EtaRule(p.n, sigma)
	pl := &Plan{Format: Format, Version: Version, Variant: t.Variant, N: p.n, Public: t.Public,
		Batch: t.BatchSize(), Epochs: t.EpochCount(), Tasks: t.TaskCount(), Lipschitz: t.Loss.Lipschitz,
		Smoothness: t.Loss.Smoothness, StrongConvexity: t.Loss.StrongConvexity, Radius: s.Radius,
		Dimension: s.Dimension, Delta: t.Delta, Conversion: s.Conversion.String(),
		Sigma: sigma, Eta: eta, Order: res.Order}
	u := s.Utility(p.n, sigma)
	pl.Summary = Summary{Optimal: res.Optimal, OrderNote: res.OrderNote, SigmaSource: res.SigmaSource,
		EtaSource: etaSrc, UtilityBound: optNum(float64(u.Bound)), UtilitySource: u.Source,
		UniformEpsilon: res.Uniform.Epsilon, UniformDelta: res.Uniform.Delta, UniformSigma: float64(res.Uniform.Sigma),
		UniformUtilityBound: optNum(float64(res.Uniform.Utility.Bound))}
	var err error
	if pl.Summary.MaxAchievedRatio, pl.Summary.BindingPosition, err = p.binding(ev); err != nil {
		return nil, err
	}
	if len(p.groups) <= maxGroupsInSummary {
		pl.Summary.Groups = p.groupResults(ev, b)
	}
	if b.People != nil && b.People.movable && b.People.Len() == len(perm) && len(b.People.Epsilon) == len(perm) {
		pl.People = b.People.moveTo(perm, p.groups, p.oneDelta)
	} else if b.People != nil {
		m := len(perm)
		pp := &People{Epsilon: make([]float64, m)}
		pp.ID.grow(m)
		if !p.oneDelta {
			pp.Delta = make([]float64, m)
		}
		for pos, i := range perm {
			pp.ID.appendBytes(b.People.ID.bytes(int(i)))
			pp.Epsilon[pos] = b.People.Epsilon[i]
			if pp.Delta != nil {
				pp.Delta[pos] = b.People.delta(int(i), t.Delta)
			}
		}
		if b.People.idsChecked() {
			pp.markChecked() // the same ids, reordered
		}
		pl.People = pp
	} else {
		for _, gr := range p.groups {
			t := b.Tiers[gr.tier]
			pl.Tiers = append(pl.Tiers, Tier{Name: t.Name, Count: gr.count, Epsilon: gr.eps, Delta: gr.delta,
				First: gr.first, Last: gr.first + gr.count - 1})
		}
	}
	return pl, nil
}

// moveTo puts the people in position order in place and returns them;
// they are no longer movable. The ids' bytes stay where they are: their
// list takes perm as its index of positions (person perm[pos] at pos), so
// perm must not be changed after. ε and δ are written from the groups,
// which newProblem formed from the gathered budgets by exact equality of ε
// and the resolved δ, so position pos's values are its group's. δ is nil
// when oneDelta.
func (pp *People) moveTo(perm []int32, groups []group, oneDelta bool) *People {
	pp.movable = false
	if oneDelta {
		pp.Delta = nil
	}
	pp.ID.reorder(perm)
	eps, dels := pp.Epsilon, pp.Delta
	for _, gr := range groups {
		a, b := gr.first-1, gr.first-1+gr.count
		for i := a; i < b; i++ {
			eps[i] = gr.eps
		}
		for i := a; i < b && dels != nil; i++ {
			dels[i] = gr.delta
		}
	}
	return pp
}

// groupResults summarises each group's achieved ε (positions are
// contiguous, so its extremes are at the group's ends: every position is
// scanned, or on the ends path the ends are read, EvaluateAllMax).
func (p *problem) groupResults(ev *evals, b Budgets) []GroupResult {
	out := make([]GroupResult, len(p.groups))
	for r, gr := range p.groups {
		lo, hi := p.extremes(ev, r)
		g := GroupResult{First: p.firstPos(r), Last: p.lastPos(r), Epsilon: gr.eps, Delta: gr.delta,
			AchievedMin: lo, AchievedMax: hi, SlackMin: gr.eps - hi}
		if gr.tier >= 0 {
			g.Tier = b.Tiers[gr.tier].Name
		}
		out[r] = g
	}
	return out
}

// Training returns the planned run: the plan's variant, counts, loss
// constants, δ, σ and η, with N the number of private people.
func (p *Plan) Training() shifted.Training {
	return shifted.Training{Variant: p.Variant, N: p.N, Public: p.Public, Batch: p.Batch, Epochs: p.Epochs,
		Tasks: p.Tasks, Order: shifted.Fixed, Sigma: p.Sigma, Delta: p.Delta, Radius: p.Radius,
		Loss: shifted.Loss{Lipschitz: p.Lipschitz, Smoothness: p.Smoothness, StrongConvexity: p.StrongConvexity, Eta: p.Eta}}
}

// Options returns the options that plan the same run again (Make), with η
// fixed at the plan's value and no caps.
func (p *Plan) Options() (Options, error) {
	conv, err := rdp.ParseConversion(p.Conversion)
	if err != nil {
		return Options{}, err
	}
	t := p.Training()
	t.N, t.Sigma = 0, 0
	return Options{Training: t, Radius: p.Radius, Dimension: p.Dimension, Conversion: conv}, nil
}

// Guarantee returns the per-person guarantee of the planned run (package
// shifted): position t's curve is Guarantee().Curve(t).
func (p *Plan) Guarantee() (shifted.PerPerson, error) {
	return p.Training().Guarantee()
}

// Target returns the target (ε, δ) of the person at position t (1-based).
func (p *Plan) Target(t int64) (eps, delta float64, err error) {
	if t < 1 || t > p.N {
		return 0, 0, fmt.Errorf("position %d outside [1, %d]", t, p.N)
	}
	if p.People != nil {
		return p.People.Epsilon[t-1], p.People.delta(int(t-1), p.Delta), nil
	}
	for _, tr := range p.Tiers {
		if t >= tr.First && t <= tr.Last {
			return tr.Epsilon, tr.delta(p.Delta), nil
		}
	}
	return 0, 0, fmt.Errorf("position %d is in no tier", t)
}

func (t Tier) delta(def float64) float64 {
	if t.Delta == 0 {
		return def
	}
	return t.Delta
}

// Claim is the privacy a plan promises to positions First..Last: each is
// (Epsilon, Delta)-DP (replace-one neighbours at that position).
type Claim struct {
	First, Last    int64
	Epsilon, Delta float64
}

// Claims returns the plan's promises as runs of consecutive positions with
// the same target, in position order. A verifier may check every position,
// or, since ε_t is monotone in t (Guarantee().Monotone()), only the least
// private position of each run: Last when Monotone() ≥ 0, First otherwise.
func (p *Plan) Claims() []Claim {
	var out []Claim
	if p.People == nil {
		for _, t := range p.Tiers {
			out = append(out, Claim{First: t.First, Last: t.Last, Epsilon: t.Epsilon, Delta: t.delta(p.Delta)})
		}
		return out
	}
	pp := p.People
	for i := 0; i < pp.Len(); {
		e, d := pp.Epsilon[i], pp.delta(i, p.Delta)
		j := i + 1
		for j < pp.Len() && pp.Epsilon[j] == e && pp.delta(j, p.Delta) == d {
			j++
		}
		out = append(out, Claim{First: int64(i) + 1, Last: int64(j), Epsilon: e, Delta: d})
		i = j
	}
	return out
}

// Violation is a position whose recomputed ε exceeds its target.
type Violation struct {
	Position       int64
	ID, Tier       string
	Epsilon, Delta float64 // target
	Achieved       float64
}

// Verification is the result of Verify.
type Verification struct {
	OK             bool
	Checked        int64       // positions checked: each recomputed, or (a tier plan over VerifyAllMax) covered through monotonicity, as Source says
	Violations     []Violation // the first 1000
	ViolationCount int64
	// WorstRatio is the largest ε_t/target_t, at WorstPosition.
	WorstRatio    float64
	WorstPosition int64
	// Groups summarises each claim (a run of positions with one target,
	// Plan.Claims) with its recomputed ε; nil for plans of more than 1000
	// claims.
	Groups      []GroupResult
	Source      string
	Assumptions []string
	// Summary lists the fields of the file's summary that the
	// recomputation contradicts beyond rounding (an edited or stale
	// summary); empty when it agrees. The summary is what people read, so
	// a plan whose summary is false is not OK.
	Summary []Mismatch
}

// Verify recomputes, with package shifted, the ε of every position at the
// plan's σ and η and each person's δ, and checks it against the target; it
// recomputes the file's summary too (Verification.Summary lists the fields
// it contradicts). OK means no position above its target and a true
// summary.
func (p *Plan) Verify() (*Verification, error) { return p.VerifyProgress(nil) }

// VerifyProgress is Verify that reports, if progress is not nil, how many
// positions' ε are recomputed of how many.
func (p *Plan) VerifyProgress(progress dp.Progress) (*Verification, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	s, _ := p.Options()
	s.Progress = progress
	g, err := p.Guarantee()
	if err != nil {
		return nil, err
	}
	q := &problem{s: s, n: p.N, mono: g.Monotone(), oneDelta: true}
	for _, c := range p.Claims() {
		if c.Delta != p.Delta {
			q.oneDelta = false
		}
		q.groups = append(q.groups, group{eps: c.Epsilon, delta: c.Delta, count: c.Last - c.First + 1, first: c.First, tier: -1})
	}
	if p.People == nil && p.N > verifyAllMax {
		return p.verifyEnds(q, g)
	}
	if q.byEnds() {
		// Decided at each group's ends (EvaluateAllMax) unless a target is
		// broken: then every position is recomputed, to list them.
		ev, err := q.evaluate(p.Sigma, p.Summary.BindingPosition)
		if err != nil {
			return nil, err
		}
		if !q.exceeds(ev, func(gr group) float64 { return gr.eps }) {
			return p.verifiedAtEnds(q, g, ev)
		}
	}
	eps, err := q.achieved(p.Sigma)
	if err != nil {
		return nil, err
	}
	v := &Verification{Checked: p.N, Source: g.Source(), Assumptions: g.Assumptions()}
	claims := p.Claims()
	for ci, c := range claims {
		if len(claims) <= maxGroupsInSummary {
			gr := GroupResult{First: c.First, Last: c.Last, Epsilon: c.Epsilon, Delta: c.Delta, AchievedMin: math.Inf(1)}
			if p.People == nil {
				gr.Tier = p.Tiers[ci].Name
			}
			for t := c.First; t <= c.Last; t++ {
				gr.AchievedMin, gr.AchievedMax = math.Min(gr.AchievedMin, eps[t-1]), math.Max(gr.AchievedMax, eps[t-1])
			}
			gr.SlackMin = c.Epsilon - gr.AchievedMax
			v.Groups = append(v.Groups, gr)
		}
		for t := c.First; t <= c.Last; t++ {
			e := eps[t-1]
			if r := e / c.Epsilon; r > v.WorstRatio || math.IsNaN(r) {
				v.WorstRatio, v.WorstPosition = r, t
			}
			if e <= c.Epsilon {
				continue
			}
			v.ViolationCount++
			if len(v.Violations) < 1000 {
				vi := Violation{Position: t, Epsilon: c.Epsilon, Delta: c.Delta, Achieved: e}
				if p.People != nil {
					vi.ID = p.People.ID.At(int(t - 1))
				} else {
					for _, tr := range p.Tiers {
						if t >= tr.First && t <= tr.Last {
							vi.Tier = tr.Name
						}
					}
				}
				v.Violations = append(v.Violations, vi)
			}
		}
	}
	if v.Summary, err = p.summaryNumbers(q, &evals{all: eps, sigma: p.Sigma}, v); err != nil {
		return nil, err
	}
	v.OK = v.ViolationCount == 0 && len(v.Summary) == 0
	return v, nil
}

// verifiedAtEnds is Verify's answer for a plan decided at its groups' ends
// with no target broken (EvaluateAllMax): the same groups, largest ratio
// and summary check as from every position.
func (p *Plan) verifiedAtEnds(q *problem, g shifted.PerPerson, ev *evals) (*Verification, error) {
	v := &Verification{Checked: p.N, Source: g.Source() + fmt.Sprintf("; n = %d > %d with one δ: each group decided at its two ends, since ε_t is monotone in t (PerPerson.Monotone; proof at plan.EvaluateAllMax)", p.N, evaluateAllMax),
		Assumptions: g.Assumptions()}
	claims := p.Claims()
	if len(claims) <= maxGroupsInSummary {
		for ci, c := range claims {
			lo, hi := q.extremes(ev, ci)
			gr := GroupResult{First: c.First, Last: c.Last, Epsilon: c.Epsilon, Delta: c.Delta, AchievedMin: lo, AchievedMax: hi, SlackMin: c.Epsilon - hi}
			if p.People == nil {
				gr.Tier = p.Tiers[ci].Name
			}
			v.Groups = append(v.Groups, gr)
		}
	}
	var err error
	if v.WorstRatio, v.WorstPosition, err = q.binding(ev); err != nil {
		return nil, err
	}
	if v.Summary, err = p.summaryNumbers(q, ev, v); err != nil {
		return nil, err
	}
	v.OK = len(v.Summary) == 0
	return v, nil
}

// VerifyAllMax is the most positions a tier plan's Verify recomputes one by
// one (about 5 s and 80 MB). A larger tier plan (a hand-edited n = 2·10⁸ took
// 71 s and 1.6 GB) is verified by verifyEnds instead; a people plan holds
// every person in memory anyway and is always recomputed in full.
const VerifyAllMax = int64(10_000_000)

// verifyAllMax is VerifyAllMax, lowered by tests.
var verifyAllMax = VerifyAllMax

// verifyEnds verifies a tier plan through the monotonicity of ε_t in t
// (Guarantee.Monotone, which Claims documents): in each tier ε_t lies
// between its values at the tier's two ends, the least private end decides
// the tier, and the positions over the target form a run at that end whose
// other end is found by bisection. O(log n) evaluations per tier; the first
// 1000 violations are evaluated one by one. Checked is n (every position is
// covered); the source says how many were evaluated and how.
func (p *Plan) verifyEnds(q *problem, g shifted.PerPerson) (*Verification, error) {
	gs, err := q.guarantee(p.Sigma)
	if err != nil {
		return nil, err
	}
	conv := q.s.Conversion
	evaluated := int64(0)
	at := func(t int64, delta float64) (float64, error) {
		evaluated++
		e, err := shifted.Epsilons(gs, []int64{t}, delta, conv)
		if err != nil {
			return 0, err
		}
		return e[0], nil
	}
	v := &Verification{Source: g.Source() + fmt.Sprintf("; n = %d > %d: each tier checked at its two ends and the run of violations bisected, since ε_t is monotone in t (PerPerson.Monotone)", p.N, verifyAllMax),
		Assumptions: g.Assumptions()}
	mono := q.mono
	for ci, c := range p.Claims() {
		worst, best := c.Last, c.First
		if mono < 0 {
			worst, best = c.First, c.Last
		}
		ew, err := at(worst, c.Delta)
		if err != nil {
			return nil, err
		}
		eb := ew
		if best != worst && mono != 0 {
			if eb, err = at(best, c.Delta); err != nil {
				return nil, err
			}
		}
		if len(p.Tiers) <= maxGroupsInSummary {
			v.Groups = append(v.Groups, GroupResult{First: c.First, Last: c.Last, Epsilon: c.Epsilon, Delta: c.Delta, Tier: p.Tiers[ci].Name,
				AchievedMin: math.Min(eb, ew), AchievedMax: math.Max(eb, ew), SlackMin: c.Epsilon - math.Max(eb, ew)})
		}
		if r := ew / c.Epsilon; r > v.WorstRatio || math.IsNaN(r) {
			v.WorstRatio, v.WorstPosition = r, worst
		}
		if ew <= c.Epsilon {
			continue
		}
		// The violations are the positions from worst back to the boundary
		// b (the last one over the target, counting from worst).
		over := func(t int64) (bool, error) {
			e, err := at(t, c.Delta)
			return !(e <= c.Epsilon), err
		}
		first, last := c.First, c.Last // the run is [b, Last] (mono ≥ 0) or [First, b]
		if mono == 0 {
			// every position has ε = ew
		} else if mono > 0 {
			lo, hi := c.First, c.Last // hi is over
			if ok, err := over(lo); err != nil {
				return nil, err
			} else if !ok {
				if _, hi, err = narrow(lo, hi, true, over); err != nil {
					return nil, err
				}
				first = hi
			}
		} else {
			lo, hi := c.First, c.Last // lo is over
			if ok, err := over(hi); err != nil {
				return nil, err
			} else if !ok {
				if lo, _, err = narrow(lo, hi, false, over); err != nil {
					return nil, err
				}
				last = lo
			}
		}
		v.ViolationCount += last - first + 1
		for t := first; t <= last && len(v.Violations) < 1000; t++ {
			e, err := at(t, c.Delta)
			if err != nil {
				return nil, err
			}
			v.Violations = append(v.Violations, Violation{Position: t, Tier: p.Tiers[ci].Name, Epsilon: c.Epsilon, Delta: c.Delta, Achieved: e})
		}
	}
	v.Checked = p.N
	v.Source += fmt.Sprintf(" (%d positions evaluated)", evaluated)
	v.OK = v.ViolationCount == 0
	return v, nil
}

// PlanMaxBytes is the largest plan file Load reads: 64 GiB, room for
// MaxPeople people with identifiers of up to 250 bytes and their ε and δ.
const PlanMaxBytes = 64 << 30

// planLimit is PlanMaxBytes, lowered by tests.
var planLimit int64 = PlanMaxBytes

// validate checks a plan read from a file. Errors are *dp.Error values
// (Where: dp.InputFile) naming the key.
func (p *Plan) validate() error {
	bad := func(field string, value any, format string, a ...any) error {
		return &dp.Error{Where: dp.InputFile, Field: field, Value: value, Reason: fmt.Sprintf(format, a...)}
	}
	if p.Format != Format {
		return bad("format", p.Format, "not a privamp plan (want %q, got %q)", Format, p.Format)
	}
	if p.Version < 1 || p.Version > Version {
		return bad("version", p.Version, "plan format version %d is not supported (this privamp reads version %d)", p.Version, Version)
	}
	o, err := p.Options()
	if err != nil {
		return bad("conversion", p.Conversion, "%v", err)
	}
	if err := o.validate(p.N); err != nil {
		return err
	}
	if math.IsNaN(p.Sigma) || math.IsInf(p.Sigma, 0) || !(p.Sigma > 0) {
		return bad("sigma", p.Sigma, "must be a finite number > 0, got %v", p.Sigma)
	}
	if !(p.Eta > 0) {
		return bad("eta", p.Eta, "must be a finite number > 0, got %v", p.Eta)
	}
	if p.Order != "ascending" && p.Order != "descending" {
		return bad("order", p.Order, "must be \"ascending\" or \"descending\", got %q", p.Order)
	}
	if p.N < 1 || p.N > MaxPeople {
		return bad("n", p.N, "must be in [1, %d], got %d", MaxPeople, p.N)
	}
	b := Budgets{People: p.People, Tiers: p.Tiers}
	if err := b.Validate(); err != nil {
		if p.People != nil {
			return bad("people", nil, "%v", err)
		}
		return bad("tiers", nil, "%v", err)
	}
	if b.Len() != p.N {
		return bad("n", p.N, "%d, but the plan lists %d people", p.N, b.Len())
	}
	pos := int64(1)
	for i, t := range p.Tiers {
		if t.First != pos || t.Last != pos+t.Count-1 {
			return bad(fmt.Sprintf("tiers[%d]", i), nil, "tier %q must hold positions %d–%d (count %d), got %d–%d", t.Name, pos, pos+t.Count-1, t.Count, t.First, t.Last)
		}
		pos += t.Count
	}
	return nil
}

// Load reads a plan written by WriteTo and checks its structure: the format
// and version, the setting, σ and η, the budgets (ids unique, ε > 0,
// δ ∈ (0, 1)) and that the positions cover 1..n once. It does not recompute
// the privacy (Verify does). The file is one JSON object of at most
// PlanMaxBytes bytes, decoded as it is read (the people's columns go
// straight into their slices); its keys must be exactly the names of the
// format, each at most once (unknown keys, and keys that differ only by
// case, are refused by name), with whole numbers in any notation where
// integers go. Errors are *dp.Error values naming the key (a path such as
// "tiers[2].count"; empty for the file as a whole) and, where the reader
// knows it, the line.
func Load(r io.Reader) (*Plan, error) {
	p := &Plan{}
	if err := jsonin.DecodeSized(r, planLimit, p, peopleHint(p, inputSize(r))); err != nil {
		if fe, ok := err.(*dp.Error); ok && fe.Field == "" {
			fe.Reason = "not a valid plan file: " + fe.Reason
		}
		return nil, err
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// minPersonBytes is the fewest bytes one person takes in a plan file: an
// element of the id list ("" and a comma) and one of the epsilon list (a
// digit and a comma).
const minPersonBytes = 5

// peopleHint returns the capacity hint of Load's decoder (DecodeSized): the
// people's columns are allocated once from the plan's n when n came before
// them and size bytes of input (−1 unknown: no hint) can hold n people, so
// that a file declaring a huge n cannot make Load allocate more than a few
// times its own size.
func peopleHint(p *Plan, size int64) func(path string) int {
	return func(path string) int {
		switch path {
		case "people.id", "people.epsilon", "people.delta":
		default:
			return 0
		}
		if size < 0 || p.N < 1 || p.N > MaxPeople {
			return 0
		}
		return int(min(p.N, size/minPersonBytes))
	}
}

// WriteTo writes the plan as indented JSON, streaming the people columns
// (one line per column), so plans of 10⁷ people are written without a
// second copy in memory.
func (p *Plan) WriteTo(w io.Writer) (int64, error) {
	head := *p
	people := head.People
	head.People = nil
	hb, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		return 0, err
	}
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<20)}
	if people == nil {
		cw.Write(hb)
		cw.Write([]byte("\n"))
		return cw.n, cw.flush()
	}
	hb = bytes.TrimSuffix(bytes.TrimRight(hb, "\n"), []byte("}"))
	hb = bytes.TrimRight(hb, "\n ")
	cw.Write(hb)
	cw.Write([]byte(",\n  \"people\": {\n    \"id\": ["))
	writeChunks(cw, people.Len(), func(buf []byte, lo, hi int) []byte {
		for i := lo; i < hi; i++ {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, people.ID.At(i))
		}
		return buf
	})
	floats := func(name string, xs []float64) {
		cw.Write([]byte("],\n    \"" + name + "\": ["))
		// A plan's budgets take few values, in runs: the text of the last
		// one is reused while the value repeats (same bits).
		writeChunks(cw, len(xs), func(buf []byte, lo, hi int) []byte {
			var last []byte
			var lastBits uint64
			for i := lo; i < hi; i++ {
				x := xs[i]
				if i == lo || math.Float64bits(x) != lastBits {
					last = strconv.AppendFloat(last[:0], x, 'g', -1, 64)
					lastBits = math.Float64bits(x)
				}
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, last...)
			}
			return buf
		})
	}
	floats("epsilon", people.Epsilon)
	if people.Delta != nil {
		floats("delta", people.Delta)
	}
	cw.Write([]byte("]\n  }\n}\n"))
	return cw.n, cw.flush()
}

// writeChunk is the number of list elements writeChunks formats at once.
const writeChunk = 1 << 16

// writeChunks writes to cw, in order, the text format appends to buf for
// each chunk [lo, hi) of [0, n) (writeChunk elements), formatting up to
// GOMAXPROCS chunks at once and a few ahead of the writing, so a list of
// 10⁷ elements is formatted on all cores while memory holds a few chunks.
func writeChunks(cw *countWriter, n int, format func(buf []byte, lo, hi int) []byte) {
	workers := runtime.GOMAXPROCS(0)
	if n <= writeChunk || workers < 2 {
		var buf []byte
		for lo := 0; lo < n; lo += writeChunk {
			buf = format(buf[:0], lo, min(n, lo+writeChunk))
			cw.Write(buf)
		}
		return
	}
	type job struct {
		lo, hi int
		out    chan []byte
	}
	jobs := make(chan job)
	queue := make(chan job, 2*workers) // in order, for the writer
	free := make(chan []byte, 3*workers)
	go func() {
		for lo := 0; lo < n; lo += writeChunk {
			j := job{lo, min(n, lo+writeChunk), make(chan []byte, 1)}
			queue <- j
			jobs <- j
		}
		close(jobs)
		close(queue)
	}()
	for range workers {
		go func() {
			for j := range jobs {
				var buf []byte
				select {
				case buf = <-free:
				default:
				}
				j.out <- format(buf[:0], j.lo, j.hi)
			}
		}()
	}
	for j := range queue {
		buf := <-j.out
		cw.Write(buf)
		select {
		case free <- buf:
		default:
		}
	}
}

// jsonPlain marks the bytes a JSON string holds as they are (encoding/json's
// output, with its HTML escaping): printable ASCII but ", \, <, > and &.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			b, _ := json.Marshal(s)
			return append(buf, b...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

type countWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	k, err := c.w.Write(b)
	c.n += int64(k)
	c.err = err
	return k, err
}

func (c *countWriter) flush() error {
	if c.err != nil {
		return c.err
	}
	return c.w.Flush()
}

// narrow bisects [lo, hi] down to adjacent positions across which over
// changes: over is true at hi and false at lo when overAtHi, the reverse
// otherwise, and stays so at the returned ends.
func narrow(lo, hi int64, overAtHi bool, over func(int64) (bool, error)) (int64, int64, error) {
	for hi-lo > 1 {
		m := lo + (hi-lo)/2
		ok, err := over(m)
		if err != nil {
			return lo, hi, err
		}
		if ok == overAtHi {
			hi = m
		} else {
			lo = m
		}
	}
	return lo, hi, nil
}
