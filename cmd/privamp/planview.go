package main

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/shifted/plan"
)

// How a plan's budget groups and people are shown: shared by plan, verify
// and run --plan.

// planGroupTable lists runs of positions with one budget and their achieved ε.
func planGroupTable(p *plan.Plan, groups []plan.GroupResult) *table {
	tb := &table{Header: []string{"positions", "count", "who", "target ε", "δ", "achieved ε (min – max)", "min slack"}}
	for _, gr := range groups {
		tb.Rows = append(tb.Rows, []string{planPositions(gr.First, gr.Last), fmtInt(float64(gr.Last - gr.First + 1)), planWho(p, gr),
			fmtNum(gr.Epsilon), fmtNum(gr.Delta), fmtEps(gr.AchievedMin) + " – " + fmtEps(gr.AchievedMax), fmtDown(gr.SlackMin)})
	}
	return tb
}

// planPositions formats a run of positions.
func planPositions(first, last int64) string {
	if last == first {
		return fmtInt(float64(first))
	}
	return fmt.Sprintf("%d–%d", first, last)
}

// planWhoAt names the person at position t for a parenthesis: `"id", ` or `tier, `.
func planWhoAt(p *plan.Plan, t int64) string {
	if p.People != nil {
		return fmt.Sprintf("%q, ", p.Who(t))
	}
	return p.Who(t) + ", "
}

// planWho names the people of a group: the tier, or up to three ids.
func planWho(p *plan.Plan, gr plan.GroupResult) string {
	if gr.Tier != "" || p.People == nil {
		return gr.Tier
	}
	var ids []string
	for t := gr.First; t <= gr.Last && len(ids) < 3; t++ {
		ids = append(ids, p.People.ID[t-1])
	}
	if rest := gr.Last - gr.First + 1 - int64(len(ids)); rest > 0 {
		ids = append(ids, fmt.Sprintf("+%d more", rest))
	}
	return strings.Join(ids, ", ")
}
