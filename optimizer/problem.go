package optimizer

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/shifted"
)

// DataSpec says where the records come from and which bounds the user
// declares for them. The constants of the guarantee (L, β, m) are derived
// from FeatureBound, LabelBound and the radius only — never from the records
// (FMTT18 Def. 12 quantifies over every neighbouring pair, so a constant
// measured on one data set does not hold for its neighbours). Records are
// clipped to the declared bounds before training, one record at a time.
type DataSpec struct {
	// Path is a CSV file with a header line; Label names its label column.
	Path  string `json:"path,omitempty"`
	Label string `json:"label,omitempty"`
	// Synthetic ("logistic", "linear", "quadratic") draws N records in
	// Dimension from a seeded generator instead (‖x‖ ≤ 1 by construction).
	Synthetic string `json:"synthetic,omitempty"`
	N         int    `json:"n,omitempty"`
	Dimension int    `json:"dimension,omitempty"`
	Seed      uint64 `json:"data_seed,omitempty"`
	// Standardize centres and scales each column with the data's own mean
	// and spread: the certificate then covers the transformed records only.
	Standardize bool `json:"standardize"`
	// Scaling names a file of declared per-feature centres and scales
	// (dataset.ScalingFormat): public values applied to every record alike,
	// so the certificate covers the raw records. Exclusive with Standardize.
	Scaling string `json:"scaling,omitempty"`
	// Normalize declares ‖x‖ ≤ 1 (FeatureBound 1) and clips rows to it.
	Normalize bool `json:"normalize"`
	// FeatureBound X declares ‖x‖ ≤ X; longer rows are scaled down to X.
	// Required for CSV data unless Normalize is set.
	FeatureBound float64 `json:"feature_bound,omitempty"`
	// LabelBound Y declares |y| ≤ Y for regression losses (labels are
	// clipped to it); classification labels are ±1.
	LabelBound float64 `json:"label_bound,omitempty"`
}

// LossSpec names the loss and its parameters.
type LossSpec struct {
	Name       string  `json:"name"` // "" : logistic, or the synthetic kind's loss
	HuberDelta float64 `json:"huber_delta,omitempty"`
	Smoothing  float64 `json:"smoothing,omitempty"`
	L2         float64 `json:"l2,omitempty"` // extra ℓ2 weight m
}

// Problem is a set-up run: the (clipped) records, the objective, the
// declared bounds, the constants derived from them, and the configuration.
type Problem struct {
	Data      *dataset.Dataset
	Synthetic *dataset.Synthetic // nil for CSV data
	Objective Objective
	Constants Constants // from the declared bounds only
	Config    Config
	Declared  Declared
	// Clipped counts the rows scaled down to the feature bound and the
	// labels clipped to the label bound.
	ClippedRows, ClippedLabels int
	Notes                      []string
	Assumptions                []string
	Description                string
}

// Declared are the bounds the user states about every possible record and
// the domain; the guarantee's constants are derived from them alone.
type Declared struct {
	FeatureBound       float64 `json:"feature_bound"`
	FeatureBoundSource string  `json:"feature_bound_source"`
	LabelBound         float64 `json:"label_bound"`
	Radius             float64 `json:"-"` // +Inf: no projection
	// RadiusValue is Radius for JSON (null: no projection).
	RadiusValue dp.Num  `json:"radius"`
	Dimension   int     `json:"dimension"`
	Loss        string  `json:"loss"`
	L2          float64 `json:"l2"`
}

// limits of what Build accepts (work, not soundness).
const (
	maxRecords  = 10_000_000
	maxCells    = 50_000_000
	maxEpochs   = 1_000_000
	maxVisits   = 1e9
	maxTasksRun = 1000
)

// Build reads or draws the records, clips them to the declared bounds,
// parses the loss and derives the constants. The training run's accounting
// fields (variant, batch, epochs, public, tasks, δ) come from tr; N is set
// to the private records. σ and η are not set here (Train sets them).
// keyColumn names a text column of the CSV file (not a feature) and arrange,
// if not nil, reorders (and may extend) the records read before anything
// else happens to them (a privacy plan's order). Errors are
// *dp.Error values.
func Build(ds DataSpec, ls LossSpec, radius float64, tr shifted.Training, keyColumn string, arrange func(*dataset.Dataset) (*dataset.Dataset, error)) (*Problem, error) {
	p := &Problem{}
	if err := field.First(field.OpenUnit("delta", tr.Delta), field.NonNegative("l2", ls.L2)); err != nil {
		return nil, err
	}
	if !(radius > 0) {
		return nil, field.New("radius", radius, "must be > 0")
	}
	switch {
	case ds.Path != "" && ds.Synthetic != "":
		return nil, field.New("synthetic", ds.Synthetic, "cannot be combined with a data file")
	case ds.Path != "":
		if ds.Label == "" {
			return nil, field.New("label", "", "is required with a data file (the name of its label column)")
		}
		data, err := dataset.ReadCSVFile(ds.Path, dataset.CSVOptions{Label: ds.Label, Key: keyColumn})
		if err != nil {
			return nil, err
		}
		if arrange != nil {
			if data, err = arrange(data); err != nil {
				return nil, err
			}
		}
		p.Data = data
		p.Description = fmt.Sprintf("%s (%d × %d, label %q)", filepath.Base(ds.Path), data.N(), data.D, ds.Label)
	case arrange != nil:
		return nil, field.New("data", "", "is required to follow a plan (a CSV file whose rows are the plan's people)")
	default:
		kind := ds.Synthetic
		if kind == "" {
			kind = "logistic"
		}
		if ds.N < 2 || ds.N > maxRecords {
			return nil, field.New("n", ds.N, "must be a whole number in [2, 10^7]")
		}
		if ds.Dimension < 1 || ds.Dimension > 100_000 || float64(ds.N)*float64(ds.Dimension) > maxCells {
			return nil, field.New("dimension", ds.Dimension, "must be in [1, 10^5] with n·d ≤ 5·10^7")
		}
		g, err := dataset.NewSynthetic(kind, ds.Dimension, ds.Seed)
		if err != nil {
			return nil, err
		}
		p.Synthetic = g
		p.Data = g.Sample(dataset.NewRand(ds.Seed), ds.N)
		p.Description = fmt.Sprintf("synthetic %s (%d × %d, data seed %d)", kind, ds.N, ds.Dimension, ds.Seed)
	}
	if err := p.setLoss(ls); err != nil {
		return nil, err
	}
	if err := p.declare(ds, radius); err != nil {
		return nil, err
	}
	n := p.Data.N()
	tr.N = int64(n) - tr.Public
	if tr.Public < 0 || tr.Public >= int64(n) {
		return nil, field.New("public", tr.Public, "must be a whole number in [0, %d] (fewer than the records)", n-1)
	}
	if tr.Epochs < 0 || tr.EpochCount() > maxEpochs || float64(tr.EpochCount())*float64(n) > maxVisits {
		return nil, field.New("epochs", tr.Epochs, "must be a whole number in [1, 10^6] with epochs × records ≤ 10^9")
	}
	if tr.Tasks < 0 || tr.TaskCount() > maxTasksRun {
		return nil, field.New("tasks", tr.Tasks, "must be a whole number in [1, 1000]")
	}
	p.Config = Config{Training: tr, R: p.Declared.Radius}
	return p, nil
}

// setLoss parses the loss; errors name the parameter at fault.
func (p *Problem) setLoss(ls LossSpec) error {
	name := ls.Name
	if name == "" {
		name = "logistic"
		if p.Synthetic != nil {
			name = p.Synthetic.LossName()
		}
	}
	var loss Loss
	var l2 float64
	switch name {
	case "logistic":
		loss = Logistic{}
	case "squared":
		loss = LeastSquares{}
	case "huber":
		if !(ls.HuberDelta > 0) || math.IsInf(ls.HuberDelta, 0) {
			return field.New("huber_delta", ls.HuberDelta, "must be finite and > 0")
		}
		loss = Huber{Delta: ls.HuberDelta}
	case "smooth-hinge":
		if !(ls.Smoothing > 0) || math.IsInf(ls.Smoothing, 0) {
			return field.New("smoothing", ls.Smoothing, "must be finite and > 0")
		}
		loss = SmoothHinge{Lambda: ls.Smoothing}
	case "quadratic":
		loss, l2 = LinearLoss{}, 1
	case "linear":
		loss = LinearLoss{}
	default:
		return field.New("loss", name, "must be one of %s", strings.Join(LossNames, ", "))
	}
	if math.IsInf(ls.L2, 0) {
		return field.New("l2", ls.L2, "must be finite")
	}
	p.Objective = Objective{Loss: loss, L2: l2 + ls.L2}
	if loss.Classification() {
		if err := p.Data.MapBinaryLabels(); err != nil {
			return field.New("label", p.Data.Label, "%v", err)
		}
	}
	return nil
}

// ScalingDoc describes the scaling input (a flag's help).
const ScalingDoc = "declared centre and scale of each feature (public values, never computed from the data, so the certificate covers the raw records): " + dataset.ScalingFormat

// StandardizeCaveat is what a report says when the records were
// standardized with the data's own statistics.
const StandardizeCaveat = "standardize centres and scales each column with the data's own mean and spread, which are not privatised: the certificate covers the standardized records only, not the raw records (declare the centres and scales with scaling instead)"

// Preprocess centres and scales the records of a data file as ds asks
// (Standardize: the data's own statistics; Scaling: declared values from a
// file) and returns the assumption a report prints about it.
func (ds DataSpec) Preprocess(data *dataset.Dataset) (string, error) {
	switch {
	case ds.Standardize && ds.Scaling != "":
		return "", field.New("scaling", ds.Scaling, "and standardize cannot be combined: give declared centres and scales or the data's own, not both")
	case ds.Scaling != "" && ds.Path == "":
		return "", field.New("scaling", ds.Scaling, "applies to a data file (synthetic data are generated with ‖x‖ ≤ 1)")
	case ds.Standardize:
		data.Standardize()
		return StandardizeCaveat, nil
	case ds.Scaling != "":
		sc, err := dataset.ReadScalingFile(ds.Scaling)
		if err != nil {
			return "", err
		}
		if err := data.ApplyScaling(sc); err != nil {
			return "", err
		}
		return fmt.Sprintf("each feature is centred and scaled by the declared values of %s, (x − center)/scale, the same map for every record (never computed from the data): the certificate covers the raw records", filepath.Base(ds.Scaling)), nil
	}
	return "", nil
}

// declare fixes the bounds, clips the records to them (a per-record map)
// and derives the constants from the bounds.
func (p *Problem) declare(ds DataSpec, radius float64) error {
	d := &p.Declared
	d.Radius, d.RadiusValue, d.Dimension, d.Loss, d.L2 = radius, dp.Num(radius), p.Data.D, p.Objective.Name(), p.Objective.L2
	if ds.Standardize || ds.Scaling != "" {
		a, err := ds.Preprocess(p.Data)
		if err != nil {
			return err
		}
		p.Assumptions = append(p.Assumptions, a)
	}
	switch {
	case ds.FeatureBound != 0 && (!(ds.FeatureBound > 0) || math.IsInf(ds.FeatureBound, 0)):
		return field.New("feature_bound", ds.FeatureBound, "must be finite and > 0")
	case ds.Normalize && ds.FeatureBound != 0 && ds.FeatureBound != 1:
		return field.New("feature_bound", ds.FeatureBound, "must be 1 or absent with normalize (which declares ‖x‖ ≤ 1)")
	case ds.Normalize:
		d.FeatureBound, d.FeatureBoundSource = 1, "declared by normalize: rows longer than 1 are scaled to norm 1"
	case ds.FeatureBound > 0:
		d.FeatureBound, d.FeatureBoundSource = ds.FeatureBound, fmt.Sprintf("declared: rows longer than %g are scaled to norm %g", ds.FeatureBound, ds.FeatureBound)
	case p.Synthetic != nil:
		d.FeatureBound, d.FeatureBoundSource = 1, "the generator draws ‖x‖ ≤ 1"
	default:
		return field.New("feature_bound", nil, "must be declared (or use normalize, which declares 1): the constants L, β of the guarantee may not be measured on the private records")
	}
	p.ClippedRows = p.Data.NormalizeRows(d.FeatureBound)
	switch {
	case p.Objective.Loss.Classification():
		d.LabelBound = 1
	case isLinear(p.Objective.Loss):
		d.LabelBound = 0 // the linear loss ignores labels
	case ds.LabelBound > 0 && !math.IsInf(ds.LabelBound, 0):
		d.LabelBound = ds.LabelBound
	case ds.LabelBound != 0:
		return field.New("label_bound", ds.LabelBound, "must be finite and > 0")
	case p.Synthetic != nil:
		d.LabelBound = p.Synthetic.LabelBound()
	default:
		return field.New("label_bound", nil, "must be declared for the %s loss: its constants depend on |y|, which may not be measured on the private records", p.Objective.Loss.Name())
	}
	for i, y := range p.Data.Y {
		if c := math.Max(-d.LabelBound, math.Min(d.LabelBound, y)); c != y && !isLinear(p.Objective.Loss) {
			p.Data.Y[i] = c
			p.ClippedLabels++
		}
	}
	p.Constants = p.Objective.Constants(d.FeatureBound, d.LabelBound, radius)
	if math.IsInf(p.Constants.Sens, 0) || math.IsNaN(p.Constants.Sens) {
		return field.New("no_projection", true, "leaves the %s loss with unbounded gradients; give a radius", p.Objective.Name())
	}
	if math.IsInf(p.Constants.Beta, 0) {
		return field.New("loss", p.Objective.Name(), "is not smooth on this domain (β = ∞)")
	}
	if p.ClippedRows > 0 || p.ClippedLabels > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("measured on the private records (not covered by the certificate): %s scaled to the feature bound %g and %s clipped to ±%g (each record on its own)", quantity.Count(p.ClippedRows, "row", "rows"), d.FeatureBound, quantity.Count(p.ClippedLabels, "label", "labels"), d.LabelBound))
	}
	return nil
}

// TrivialRisk is the range of the objective on the domain, sup − inf of
// f(w; x, y) over ‖w‖ ≤ R, ‖x‖ ≤ X, |y| ≤ Y: any output has excess risk at
// most this, so a utility bound above it says nothing (vacuous). φ is
// convex in u = ⟨w, x⟩ ∈ [−XR, XR], so its supremum is at an end; the
// infimum is taken over a fine grid (never below the true one, so the
// range is at most the true range: a bound is never called informative
// because of the grid). The ℓ2 term adds (m/2)R².
func (p *Problem) TrivialRisk() float64 {
	d := p.Declared
	U := d.FeatureBound * d.Radius
	if math.IsInf(U, 0) {
		return math.Inf(1)
	}
	ys := []float64{-d.LabelBound, 0, d.LabelBound}
	if p.Objective.Loss.Classification() {
		ys = []float64{-1, 1}
	}
	sup, inf := math.Inf(-1), math.Inf(1)
	const k = 400
	for _, y := range ys {
		sup = math.Max(sup, math.Max(p.Objective.Loss.Phi(-U, y), p.Objective.Loss.Phi(U, y)))
		for i := 0; i <= k; i++ {
			inf = math.Min(inf, p.Objective.Loss.Phi(-U+2*U*float64(i)/k, y))
		}
	}
	return sup - inf + p.Objective.L2*d.Radius*d.Radius/2
}
