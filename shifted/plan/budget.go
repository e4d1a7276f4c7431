package plan

import (
	"fmt"
	"sync"

	"math"
	"strconv"
	"strings"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/lines"
)

// MaxPeople is the largest number of private people a plan may hold: every
// person's achieved ε is computed and kept in memory (8 bytes each).
const MaxPeople = int64(200_000_000)

// People are individual privacy budgets, column by column: person i has
// identifier ID.At(i) and target (Epsilon[i], Delta[i])-DP. Delta is nil when
// every person uses the setting's δ; a 0 entry also means the setting's δ.
// In a Plan the columns are in position order (person i is at position
// i + 1) and Delta is either nil or fully resolved. The ids are stored
// compactly (IDs): build them with NewIDs or IDs.Append.
//
// People returned by ReadCSV or in a Plan from Load remember that their ids
// were checked for repeats, and Validate (so Make and Plan.Verify) does not
// check them again while ID holds the same ids (an IDs value can only grow,
// and a reordering keeps the ids; assigning another IDs value, or
// appending, makes Validate check again).
//
// People returned by ReadCSV are also the library's to reorder: the first
// Make that plans them puts them in position order in place and makes them
// its Plan's People (δ resolved, or nil), instead of holding a second copy
// of every column (for 10⁷ people, 240 MB); the ids' bytes never move, only
// an index of positions is set. Other People are copied and never changed.
type People struct {
	ID      IDs       `json:"id"`
	Epsilon []float64 `json:"epsilon"`
	Delta   []float64 `json:"delta,omitempty"`

	checked []uint32 // ID.lo when its ids were checked for repeats
	movable bool     // ReadCSV's: Make may reorder them in place (once)
}

// idsChecked reports that ID holds the ids checked for repeats.
func (p *People) idsChecked() bool {
	n := p.ID.Len()
	return n > 0 && len(p.checked) == n && &p.checked[0] == &p.ID.lo[0]
}

// markChecked records that ID's ids have no repeats.
func (p *People) markChecked() { p.checked = p.ID.lo }

// Len returns the number of people.
func (p *People) Len() int { return p.ID.Len() }

// delta returns person i's δ, def when unset.
func (p *People) delta(i int, def float64) float64 {
	if p.Delta == nil || p.Delta[i] == 0 {
		return def
	}
	return p.Delta[i]
}

// Tier is a group of people with the same budget, given by a count (a tier
// summary carries no identifiers). In a Plan, tiers are in position order
// and First..Last are the positions the tier occupies.
type Tier struct {
	Name    string  `json:"name"`
	Count   int64   `json:"count"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta,omitempty"` // 0: the setting's δ
	First   int64   `json:"first,omitempty"`
	Last    int64   `json:"last,omitempty"`
}

// Budgets is the input of Make: individual People or a tier summary (one of
// the two).
type Budgets struct {
	People *People
	Tiers  []Tier
}

// Len returns the number of people.
func (b Budgets) Len() int64 {
	if b.People != nil {
		return int64(b.People.Len())
	}
	var n int64
	for _, t := range b.Tiers {
		n += t.Count
	}
	return n
}

// checkBudget validates a target; what names it in the message.
func checkBudget(eps, delta float64) error {
	switch {
	case math.IsNaN(eps) || math.IsInf(eps, 0):
		return fmt.Errorf("epsilon must be a finite number > 0, got %v", eps)
	case eps <= 0:
		return fmt.Errorf("epsilon must be > 0, got %v (no finite noise gives ε = 0)", eps)
	case delta != 0 && !(delta > 0 && delta < 1):
		return fmt.Errorf("delta must be in (0, 1), got %v", delta)
	}
	return nil
}

// Validate checks the budgets: exactly one of People and Tiers, equal
// column lengths, finite ε > 0, δ in (0, 1) (or 0: the default), unique
// non-empty identifiers and tier names, counts ≥ 1, at most MaxPeople
// people.
func (b Budgets) Validate() error {
	switch {
	case b.People != nil && len(b.Tiers) > 0:
		return fmt.Errorf("give people or tiers, not both")
	case b.People == nil && len(b.Tiers) == 0:
		return fmt.Errorf("no people and no tiers")
	}
	if p := b.People; p != nil {
		n := p.Len()
		if n == 0 {
			return fmt.Errorf("no people")
		}
		if len(p.Epsilon) != n || (p.Delta != nil && len(p.Delta) != n) {
			return fmt.Errorf("people columns have different lengths (id %d, epsilon %d, delta %d)", n, len(p.Epsilon), len(p.Delta))
		}
		if int64(n) > MaxPeople {
			return fmt.Errorf("%d people: at most %d", n, MaxPeople)
		}
		// The first invalid person, checked in parts on all cores.
		bad := func(i int) error {
			d := 0.0
			if p.Delta != nil {
				d = p.Delta[i]
			}
			if err := checkBudget(p.Epsilon[i], d); err != nil {
				return fmt.Errorf("person %q: %v", p.ID.At(i), err)
			}
			if len(p.ID.bytes(i)) == 0 {
				return fmt.Errorf("person %d has an empty id", i+1)
			}
			return nil
		}
		var mu sync.Mutex
		first, firstErr := n, error(nil)
		parallel(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if err := bad(i); err != nil {
					mu.Lock()
					if i < first {
						first, firstErr = i, err
					}
					mu.Unlock()
					return
				}
			}
		})
		if firstErr != nil {
			return firstErr
		}
		if p.idsChecked() {
			return nil
		}
		if dups := duplicates(&p.ID); len(dups) > 0 {
			return fmt.Errorf("duplicate id %q", p.ID.At(dups[0][1]))
		}
		p.markChecked()
		return nil
	}
	names := map[string]bool{}
	var n int64
	for i, t := range b.Tiers {
		if t.Count < 1 {
			return fmt.Errorf("tier %q: count must be ≥ 1, got %d", t.Name, t.Count)
		}
		if err := checkBudget(t.Epsilon, t.Delta); err != nil {
			return fmt.Errorf("tier %q: %v", t.Name, err)
		}
		if t.Name == "" {
			return fmt.Errorf("tier %d has no name", i+1)
		}
		if names[t.Name] {
			return fmt.Errorf("two tiers are named %q", t.Name)
		}
		names[t.Name] = true
		n += t.Count
		if n > MaxPeople {
			return fmt.Errorf("the tiers hold more than %d people", MaxPeople)
		}
	}
	return nil
}

// TierSpec is one tier as written on the command line: Size is a share of
// the people (with a total n) or a count (without one).
type TierSpec struct {
	Name           string
	Size           float64
	Epsilon, Delta float64 // Delta 0: the default δ
}

// ParseTier parses "[NAME=]SIZE:EPSILON[:DELTA]", for example "0.01:0.1",
// "strict=0.01:0.1:1e-8" or "1000:0.1". SIZE is a share in (0, 1] or a
// count, as the caller decides (ResolveTiers).
func ParseTier(s string) (TierSpec, error) {
	var t TierSpec
	body := s
	if name, rest, ok := strings.Cut(s, "="); ok {
		t.Name = strings.TrimSpace(name)
		body = rest
		if t.Name == "" {
			return t, fmt.Errorf("tier %q: empty name before '='", s)
		}
		if strings.ContainsAny(t.Name, ",\"\n") {
			return t, fmt.Errorf("tier %q: a name may not contain commas, quotes or newlines", s)
		}
	}
	parts := strings.Split(body, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return t, fmt.Errorf("tier %q: want [NAME=]SIZE:EPSILON[:DELTA], e.g. 0.01:0.1", s)
	}
	num := func(what, v string) (float64, error) {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, fmt.Errorf("tier %q: %s %q is not a number", s, what, v)
		}
		return x, nil
	}
	var err error
	if t.Size, err = num("size", parts[0]); err != nil {
		return t, err
	}
	if t.Epsilon, err = num("epsilon", parts[1]); err != nil {
		return t, err
	}
	if len(parts) == 3 {
		if t.Delta, err = num("delta", parts[2]); err != nil {
			return t, err
		}
		if !(t.Delta > 0 && t.Delta < 1) {
			return t, fmt.Errorf("tier %q: delta must be in (0, 1), got %v", s, t.Delta)
		}
	}
	if err := checkBudget(t.Epsilon, t.Delta); err != nil {
		return t, fmt.Errorf("tier %q: %v", s, err)
	}
	if math.IsNaN(t.Size) || math.IsInf(t.Size, 0) || !(t.Size > 0) {
		return t, fmt.Errorf("tier %q: size must be > 0, got %v", s, t.Size)
	}
	return t, nil
}

// ResolveTiers turns tier specifications into tiers with counts. With
// n > 0 the sizes are shares of n: they must sum to 1 (within 1e−9) and are
// rounded to counts by the largest-remainder method, so the counts sum to n
// exactly; a note names every tier whose share·n was not a whole number.
// With n = 0 the sizes are counts and must be whole numbers. Unnamed tiers
// are called tier1, tier2, … in the order given. Every tier must hold at
// least one person.
func ResolveTiers(specs []TierSpec, n int64) ([]Tier, []string, error) {
	if len(specs) == 0 {
		return nil, nil, fmt.Errorf("no tiers")
	}
	tiers := make([]Tier, len(specs))
	for i, s := range specs {
		name := s.Name
		if name == "" {
			name = "tier" + strconv.Itoa(i+1)
		}
		tiers[i] = Tier{Name: name, Epsilon: s.Epsilon, Delta: s.Delta}
	}
	var notes []string
	if n <= 0 {
		var total float64
		for i, s := range specs {
			if s.Size != math.Trunc(s.Size) || s.Size < 1 {
				return nil, nil, field.New("tier", s.Size, "%s: without a total number of people the size is a count and must be a whole number ≥ 1 (give the total n to use shares)", tiers[i].Name)
			}
			total += s.Size
			if total > float64(MaxPeople) {
				return nil, nil, fmt.Errorf("the tiers hold more than %d people", MaxPeople)
			}
			tiers[i].Count = int64(s.Size)
		}
	} else {
		var sum float64
		for i, s := range specs {
			if s.Size > 1 {
				return nil, nil, field.New("tier", s.Size, "%s: with a total number of people n the size is a share in (0, 1]", tiers[i].Name)
			}
			sum += s.Size
		}
		if math.Abs(sum-1) > 1e-9 {
			return nil, nil, field.New("tier", sum, "shares must sum to 1")
		}
		// Largest remainder: floor every share·n, then give the people
		// left to the largest remainders (ties: the earlier tier).
		rem := make([]float64, len(specs))
		var given int64
		for i, s := range specs {
			x := s.Size * float64(n)
			c := int64(math.Floor(x))
			tiers[i].Count, rem[i] = c, x-float64(c)
			given += c
		}
		for given < n {
			best := 0
			for i := range rem {
				if rem[i] > rem[best] {
					best = i
				}
			}
			tiers[best].Count++
			rem[best] = -1
			given++
		}
		for given > n { // only through rounding of the shares' sum
			for i := len(tiers) - 1; i >= 0; i-- {
				if tiers[i].Count > 1 {
					tiers[i].Count--
					given--
					break
				}
			}
		}
		for i, s := range specs {
			x := s.Size * float64(n)
			if math.Abs(x-math.Round(x)) > 1e-6*math.Max(1, x) || float64(tiers[i].Count) != math.Round(x) {
				notes = append(notes, fmt.Sprintf("tier %s: share %v of n = %d is %v people, rounded to %d (largest remainder)", tiers[i].Name, s.Size, n, x, tiers[i].Count))
			}
		}
	}
	seen := map[string]bool{}
	for _, t := range tiers {
		if t.Count < 1 {
			return nil, nil, fmt.Errorf("tier %s holds no one (its share of n = %d rounds to 0); every tier needs at least one person", t.Name, n)
		}
		if seen[t.Name] {
			return nil, nil, fmt.Errorf("two tiers are named %q", t.Name)
		}
		seen[t.Name] = true
	}
	return tiers, notes, nil
}

// ParseTiers parses tiers as written ("[NAME=]SIZE:EPSILON[:DELTA]", ParseTier)
// and resolves them (ResolveTiers: shares of n, or counts when n = 0).
func ParseTiers(specs []string, n int64) ([]Tier, []string, error) {
	ts := make([]TierSpec, len(specs))
	for i, s := range specs {
		var err error
		if ts[i], err = ParseTier(s); err != nil {
			return nil, nil, err
		}
	}
	return ResolveTiers(ts, n)
}

// InputLimits states the limits on a plan's inputs, for a command's help.
func InputLimits() string {
	return fmt.Sprintf("Input limits: at most %d people; a CSV line of at most %d bytes; a plan file of at most %d GiB (each refused with the limit named).",
		MaxPeople, lines.MaxBytes, PlanMaxBytes>>30)
}
