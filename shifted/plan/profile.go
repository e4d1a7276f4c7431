package plan

import (
	"bufio"
	"fmt"
	"github.com/privamp/privamp/dp"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/privamp/privamp/shifted"
)

// Point is one position of a feasible plan: the person's target, the ε
// they achieve under the plan and the ε the uniform plan (everyone at the
// strictest budget) would give them.
type Point struct {
	Index    int64   `json:"index"`
	ID       string  `json:"id,omitempty"`
	Tier     string  `json:"tier,omitempty"`
	Epsilon  float64 `json:"epsilon"` // target
	Delta    float64 `json:"delta"`
	Achieved dp.Loss `json:"achieved"`
	Uniform  dp.Loss `json:"uniform"`
}

// Profile returns the plan at about k log-spaced positions (shifted.LogSpaced)
// and, when the plan has at most k budget groups, at both ends of each group
// and just before it: enough to draw target and achieved ε against the
// position. The uniform plan's ε is computed with package shifted at its σ
// and each person's δ.
func (r *Result) Profile(k int) ([]Point, error) {
	p := r.Plan
	if p == nil {
		return nil, nil
	}
	ts := shifted.LogSpaced(p.N, k)
	if claims := p.Claims(); len(claims) <= k {
		for _, c := range claims {
			ts = append(ts, c.First, c.Last)
			if c.First > 1 {
				ts = append(ts, c.First-1)
			}
		}
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	g, _, err := r.opt.Guarantee(p.N, float64(r.Uniform.Sigma))
	if err != nil {
		return nil, err
	}
	ach, err := r.achievedAt(ts)
	if err != nil {
		return nil, err
	}
	out := make([]Point, len(ts))
	for i, t := range ts {
		e, d, _ := p.Target(t)
		u, err := shifted.Epsilon(g, t, d, r.opt.Conversion)
		if err != nil {
			return nil, err
		}
		out[i] = Point{Index: t, ID: p.id(t), Tier: p.tier(t), Epsilon: e, Delta: d,
			Achieved: dp.Loss(ach[i]), Uniform: dp.Loss(u.Epsilon)}
	}
	return out, nil
}

// id returns the identifier at position t ("" for a tier plan).
func (p *Plan) id(t int64) string {
	if p.People == nil {
		return ""
	}
	return p.People.ID.At(int(t - 1))
}

// tier returns the tier holding position t ("" for a people plan).
func (p *Plan) tier(t int64) string {
	i, ok := slices.BinarySearchFunc(p.Tiers, t, func(tr Tier, t int64) int {
		switch {
		case tr.Last < t:
			return -1
		case tr.First > t:
			return 1
		}
		return 0
	})
	if !ok {
		return ""
	}
	return p.Tiers[i].Name
}

// Who names the person at position t: their id, or their tier.
func (p *Plan) Who(t int64) string {
	if p.People != nil {
		return p.id(t)
	}
	return p.tier(t)
}

// WhoIn names the people of positions first..last for a table: their tier,
// or up to three ids and how many more.
func (p *Plan) WhoIn(first, last int64, tier string) string {
	if tier != "" || p.People == nil {
		return tier
	}
	var ids []string
	for t := first; t <= last && len(ids) < 3; t++ {
		ids = append(ids, p.People.ID.At(int(t-1)))
	}
	if rest := last - first + 1 - int64(len(ids)); rest > 0 {
		ids = append(ids, fmt.Sprintf("+%d more", rest))
	}
	return strings.Join(ids, ", ")
}

// Positions prints a run of positions: "7", or "1–36".
func Positions(first, last int64) string {
	if last == first {
		return strconv.FormatInt(first, 10)
	}
	return fmt.Sprintf("%d–%d", first, last)
}

// WriteCSV writes one line per person of a feasible plan, in position
// order: position,id,tier,target_epsilon,delta,achieved_epsilon,slack, every
// number with all its digits ("inf": no finite guarantee); slack is
// target − achieved.
func (r *Result) WriteCSV(w io.Writer) error {
	p := r.Plan
	all, err := r.AchievedAll()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("position,id,tier,target_epsilon,delta,achieved_epsilon,slack\n")
	var buf []byte
	for t := int64(1); t <= p.N; t++ {
		e, d, _ := p.Target(t)
		a := all[t-1]
		buf = strconv.AppendInt(buf[:0], t, 10)
		buf = append(append(append(append(buf, ','), csvField(p.id(t))...), ','), csvField(p.tier(t))...)
		buf = appendNums(buf, e, d, a, e-a)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteCSV writes one line per unreachable run of positions:
// first,last,id,tier,target_epsilon,delta,achievable_epsilon_min,achievable_epsilon.
func (inf *Infeasibility) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("first,last,id,tier,target_epsilon,delta,achievable_epsilon_min,achievable_epsilon\n")
	var buf []byte
	for _, u := range inf.Unreachable {
		buf = strconv.AppendInt(buf[:0], u.First, 10)
		buf = strconv.AppendInt(append(buf, ','), u.Last, 10)
		buf = append(append(append(append(buf, ','), csvField(u.ID)...), ','), csvField(u.Tier)...)
		buf = appendNums(buf, u.Epsilon, u.Delta, float64(u.AchievableMin), float64(u.Achievable))
		bw.Write(buf)
	}
	return bw.Flush()
}

// appendNums appends ",x" for each x with every digit ("inf" for +Inf or
// NaN), then a newline.
func appendNums(buf []byte, xs ...float64) []byte {
	for _, x := range xs {
		buf = append(buf, ',')
		if math.IsInf(x, 1) || math.IsNaN(x) {
			buf = append(buf, "inf"...)
			continue
		}
		buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
	}
	return append(buf, '\n')
}

// csvField quotes a CSV field when needed.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
