package optimizer

import (
	"errors"
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"os"
	"strconv"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

// PlanSpec is a per-person privacy plan (written by privamp plan) to follow
// and how the records are matched to its positions: by an id column (a
// people plan), by row number, or by a tier column (a tier plan).
type PlanSpec struct {
	Path   string `json:"path"`
	ID     string `json:"id,omitempty"`
	RowIDs bool   `json:"row_ids,omitempty"`
	Tier   string `json:"tier,omitempty"`
	// PublicData is a CSV of the plan's public records (Cor 31), run after
	// the private ones in file order.
	PublicData string `json:"public_data,omitempty"`
}

// PlanResult shows that a plan was followed: every position recomputed
// with package shifted (plan.Verify) and each budget group's ε.
type PlanResult struct {
	Path          string             `json:"path"`
	Match         string             `json:"match"`
	WorstRatio    dp.Loss            `json:"worst_ratio"`
	WorstIndex    int64              `json:"worst_index"`
	Checked       int64              `json:"checked"`
	Groups        []plan.GroupResult `json:"groups,omitempty"`
	PublicData    string             `json:"public_data,omitempty"`
	FileAgreement *float64           `json:"file_agreement,omitempty"`
}

type planFollow struct {
	path        string
	plan        *plan.Plan
	verify      *plan.Verification
	spec        *PlanSpec
	key         string
	assumptions []string
}

// loadPlan reads and verifies the plan and sets the run's training from it.
func loadPlan(ps *PlanSpec, spec *Spec) (*planFollow, error) {
	t := spec.Training
	switch {
	case t.Variant != "":
		return nil, field.New("variant", string(t.Variant), "is set by the plan")
	case t.Sigma != 0 || spec.Rule != "":
		return nil, field.New("sigma", t.Sigma, "is set by the plan (σ, η, variant, batch, epochs, public, tasks, δ)")
	case t.Loss.Eta != 0:
		return nil, field.New("eta", t.Loss.Eta, "is set by the plan")
	case t.Batch > 1 || t.Epochs > 1 || t.Public != 0 || t.Tasks > 1:
		return nil, field.New("batch", t.Batch, "batch, epochs, public and tasks are set by the plan")
	case spec.Data.Synthetic != "":
		return nil, field.New("synthetic", spec.Data.Synthetic, "cannot follow a plan: a plan's people are the rows of a data file")
	}
	f, err := os.Open(ps.Path)
	if err != nil {
		return nil, field.New("plan", ps.Path, "cannot be read: %v", errors.Unwrap(err))
	}
	defer f.Close()
	p, err := plan.Load(f)
	if err != nil {
		return nil, field.New("plan", ps.Path, "%v", err)
	}
	switch {
	case p.People != nil && ps.Tier != "":
		return nil, field.New("tier", ps.Tier, "does not apply: the plan is a people plan; match the rows by an id column or row numbers")
	case p.People != nil && (ps.ID != "") == ps.RowIDs:
		return nil, field.New("id", ps.ID, "or row ids (exactly one) must match the rows to a people plan")
	case p.People == nil && (ps.ID != "" || ps.RowIDs):
		return nil, field.New("id", ps.ID, "does not apply: the plan is a tier plan; match the rows by a tier column")
	case p.People == nil && ps.Tier == "":
		return nil, field.New("tier", "", "must name the column holding each row's tier (a tier plan)")
	case p.Public > 0 && ps.PublicData == "":
		return nil, field.New("public_data", "", "must give the plan's %d public records (Cor 31)", p.Public)
	case p.Public == 0 && ps.PublicData != "":
		return nil, field.New("public_data", ps.PublicData, "does not apply: the plan has no public records")
	case p.Epochs > maxEpochs || p.Tasks > maxTasksRun:
		return nil, field.New("plan", ps.Path, "has %d epochs and %d tasks; run supports at most 10^6 and 1000", p.Epochs, p.Tasks)
	}
	v, err := p.Verify()
	if err != nil {
		return nil, field.New("plan", ps.Path, "%v", err)
	}
	if !v.OK {
		vi := v.Violations[0]
		return nil, field.New("plan", ps.Path, "breaks %d of its own targets (position %d: ε %s > target %g)", v.ViolationCount, vi.Position, dp.Loss(vi.Achieved), vi.Epsilon)
	}
	if spec.Radius > p.Radius || math.IsInf(spec.Radius, 0) {
		if spec.Radius != 1 || math.IsInf(spec.Radius, 0) { // 1: not chosen
			return nil, field.New("radius", spec.Radius, "exceeds the plan's radius R = %g (its η and utility bound assume the domain inside it)", p.Radius)
		}
	}
	if spec.Radius == 1 || spec.Radius > p.Radius {
		spec.Radius = p.Radius
	}
	variant, err := shifted.ParseVariant(string(p.Variant))
	if err != nil {
		return nil, field.New("plan", ps.Path, "%v", err)
	}
	spec.Training = shifted.Training{Variant: variant, Batch: p.Batch, Epochs: p.Epochs, Public: p.Public, Tasks: p.Tasks,
		Delta: p.Delta, Order: shifted.Order(p.Order)}
	if spec.Training.Order != shifted.Shuffled {
		spec.Training.Order = ""
	}
	key := ps.ID
	if p.People == nil {
		key = ps.Tier
	}
	return &planFollow{path: ps.Path, plan: p, verify: v, spec: ps, key: key}, nil
}

func (pl *planFollow) matchDesc() string {
	switch {
	case pl.spec.RowIDs:
		return "matched by row number"
	case pl.plan.People != nil:
		return fmt.Sprintf("matched by the id column %q", pl.key)
	}
	return fmt.Sprintf("matched by the tier column %q", pl.key)
}

// arrange puts the records in the plan's order and appends the public ones.
func (pl *planFollow) arrange(ds *dataset.Dataset) (*dataset.Dataset, error) {
	keys := ds.Keys
	if pl.spec.RowIDs {
		keys = make([]string, ds.N())
		for i := range keys {
			keys[i] = strconv.Itoa(i + 1)
		}
	}
	rows, err := pl.plan.Arrange(keys, ds.Lines)
	var ae dp.Errors
	if errors.As(err, &ae) {
		return nil, field.New("data", ds.Source, "does not match the plan %s: %v", pl.path, err)
	} else if err != nil {
		return nil, field.New("plan", pl.path, "%v", err)
	}
	out := ds.Subset(rows)
	out.Source = ds.Source
	if pl.spec.PublicData != "" {
		pub, err := dataset.ReadCSVFile(pl.spec.PublicData, dataset.CSVOptions{Label: ds.Label, Key: pl.key, OptionalKey: true})
		if err != nil {
			return nil, field.New("public_data", pl.spec.PublicData, "%v", err.(*field.Error).Reason)
		}
		if int64(pub.N()) != pl.plan.Public {
			return nil, field.New("public_data", pl.spec.PublicData, "has %d rows, but the plan has %d public records", pub.N(), pl.plan.Public)
		}
		if err := out.Append(pub); err != nil {
			return nil, field.New("public_data", pl.spec.PublicData, "%v", err)
		}
	}
	return out, nil
}

// checkConstants refuses data whose derived constants break the plan's
// assumptions, and records the checks that they hold. The constants come
// from the declared bounds (Build), so this compares declarations with the
// plan: L ≤ the plan's L (the plan's guarantee scales with L²), β ≤ its β
// and η ≤ 2/β (the step must contract), m ≥ its m (with m > 0 the
// contraction compounds), d ≤ its dimension, R ≤ its radius.
func (pl *planFollow) checkConstants(pr *Problem) error {
	p, c := pl.plan, pr.Constants
	d := int64(pr.Data.D)
	switch {
	case c.Sens > p.Lipschitz*(1+1e-12):
		return field.New("feature_bound", pr.Declared.FeatureBound, "gives L = %.6g, above the plan's %.6g: its privacy assumes every gradient norm ≤ L", c.Sens, p.Lipschitz)
	case p.Smoothness > 0 && c.Beta > p.Smoothness*(1+1e-12) && p.StrongConvexity > 0,
		p.Smoothness > 0 && c.Beta > p.Smoothness*(1+1e-12):
		return field.New("feature_bound", pr.Declared.FeatureBound, "gives β = %.6g, above the plan's %.6g (its step must contract: η ≤ 2/β)", c.Beta, p.Smoothness)
	case p.Eta*c.Beta > 2:
		return field.New("plan", pl.path, "has η = %.6g above 2/β = %.6g for these bounds: the step does not contract (Prop. 18)", p.Eta, 2/c.Beta)
	case c.M < p.StrongConvexity:
		return field.New("l2", c.M, "gives strong convexity below the plan's %.6g", p.StrongConvexity)
	case d > p.Dimension:
		return field.New("data", pr.Data.Source, "has d = %d features; the plan was made for d = %d", d, p.Dimension)
	}
	// Both hold here by construction: a plan that is exceeded is refused
	// above (bad input, status 2), so they are the run's assumptions, not
	// checks that could fail.
	pl.assumptions = []string{
		fmt.Sprintf("declared constants within the plan's (refused otherwise): L = %.6g ≤ %.6g, β = %.6g, η·β = %.6g ≤ 2, m = %.6g ≥ %.6g, d = %d ≤ %d, R = %.6g ≤ %.6g", c.Sens, p.Lipschitz, c.Beta, p.Eta*c.Beta, c.M, p.StrongConvexity, d, p.Dimension, pr.Declared.Radius, p.Radius),
		fmt.Sprintf("achieved/target ≤ 1 at every position (refused otherwise): %d positions recomputed with package shifted, largest ratio %.6g at position %d", pl.verify.Checked, pl.verify.WorstRatio, pl.verify.WorstPosition),
	}
	return nil
}

// result describes the followed plan.
func (pl *planFollow) result() *PlanResult {
	v := pl.verify
	r := &PlanResult{Path: pl.path, Match: pl.matchDesc(), WorstRatio: dp.Loss(v.WorstRatio), WorstIndex: v.WorstPosition,
		Checked: v.Checked, Groups: v.Groups, PublicData: pl.spec.PublicData}
	file := pl.plan.Summary.Groups
	if len(file) > 0 && len(file) == len(v.Groups) {
		var dmax float64
		for i, g := range v.Groups {
			f := file[i]
			if f.First != g.First || f.Last != g.Last {
				return r
			}
			dmax = math.Max(dmax, math.Max(math.Abs(f.AchievedMax/g.AchievedMax-1), math.Abs(f.AchievedMin/g.AchievedMin-1)))
		}
		r.FileAgreement = &dmax
	}
	return r
}
