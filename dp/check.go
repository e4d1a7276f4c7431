package dp

import "fmt"

// Status is the outcome of one Check, printed and encoded in JSON as its
// word ("PASS", "FAIL", …). It is the one status type of privamp's checks:
// a run's and every catalogued algorithm's, a claim verification's and an
// audit's.
type Status string

// The statuses of a check.
const (
	// Pass: the check holds.
	Pass Status = "PASS"
	// Fail: the check does not hold. A failed check makes a run's OK false
	// (exit 1); a claim with a failed check is never VALID.
	Fail Status = "FAIL"
	// NA: the check does not apply.
	NA Status = "N/A"
	// Assumed: a declared value the result relies on that nothing the
	// inputs bring can check; it is taken as declared, never shown as PASS,
	// and does not fail a run or change a verdict.
	Assumed Status = "ASSUMED"
	// Vacuous: a bound at or above the trivial one (the largest value the
	// measured quantity can take): it says nothing. Reported, not a failure.
	Vacuous Status = "VACUOUS"
	// Worse: the output does worse than the data-free output: a fact about
	// utility, not a broken assumption, so not a failure.
	Worse Status = "WORSE"
	// Above: one run is above a bound on the mean but within the Markov
	// factor of it (one run may exceed a bound on its mean): reported, not a
	// failure.
	Above Status = "ABOVE"
	// Unmet: declared constants that are consistent but do not meet an
	// assumption of the analysis (claim verification: amplification by
	// iteration's η ≤ 2/β, a β, a fixed order); another analysis decides.
	Unmet Status = "UNMET"
)

// Check is one test of a result against what is proven, with its numbers:
// the one check type of `privamp run`, the catalogued algorithms,
// `privamp verify` and `privamp audit`.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	// Basis says how the value was established (claim verification:
	// checked against the trajectory, by arithmetic, or declared and taken
	// on trust); empty, and absent from JSON, for the other checks.
	Basis  string `json:"basis,omitempty"`
	Value  Num    `json:"value"` // measured or stated value (NaN: none)
	Bound  Num    `json:"bound"` // the bound it is compared with (NaN: none)
	Detail string `json:"detail"`
}

// NewCheck is a check comparing a value with a bound: PASS when ok holds,
// FAIL otherwise.
func NewCheck(name string, ok bool, value, bound float64, detail string) Check {
	st := Pass
	if !ok {
		st = Fail
	}
	return Check{Name: name, Status: st, Value: Num(value), Bound: Num(bound), Detail: detail}
}

// UtilityCheck compares a measured utility value (a risk, a gap, or the
// upper confidence limit of their mean) with a bound on it. trivial is
// the largest value the measured quantity can take given the declared
// bounds (the loss range on the domain, 2LR, the range of a duality gap):
// a bound at or above it says nothing and the check is VACUOUS; otherwise
// it PASSes when value ≤ bound and FAILs when not.
func UtilityCheck(name string, value, bound, trivial float64, detail string) Check {
	if !(bound < trivial) {
		return Check{Name: name, Status: Vacuous, Value: Num(value), Bound: Num(bound),
			Detail: detail + fmt.Sprintf("; VACUOUS: the bound is not below the trivial bound %.6g (the largest value the measured quantity can take): it says nothing", trivial)}
	}
	return NewCheck(name, value <= bound, value, bound, detail)
}

// BaselineCheck compares the measured risk (or gap) of the output with
// that of the data-free output (w = 0, the domain centre, the uniform
// pair): PASS when not above it, WORSE when above (a fact about utility,
// not a broken assumption: it does not fail the run).
func BaselineCheck(name string, value, baseline float64, detail string) Check {
	if value <= baseline {
		return Check{Name: name, Status: Pass, Value: Num(value), Bound: Num(baseline), Detail: detail}
	}
	return Check{Name: name, Status: Worse, Value: Num(value), Bound: Num(baseline),
		Detail: detail + "; WORSE: the output does worse than the data-free output, so it does not help at these parameters (more data, a larger ε or other parameters may)"}
}

// AllPass reports whether no check FAILED (N/A, ASSUMED, VACUOUS, WORSE,
// ABOVE and UNMET do not fail a run): the OK of every run's result.
func AllPass(checks []Check) bool {
	for _, ch := range checks {
		if ch.Status == Fail {
			return false
		}
	}
	return true
}

// Verdict is the answer to a question a result is checked against, printed
// and encoded in JSON as its word. It is the one verdict type of privamp:
// a run's checks (Passed, Failed), a claim's verification (Valid, Invalid,
// Unsupported) and an audit's comparison of its lower bound with an upper
// bound (Consistent, Violated). ExitStatus maps each to privamp's exit
// status, in one place.
type Verdict string

// The verdicts.
const (
	// Passed: no check of a run FAILED.
	Passed Verdict = "PASSED"
	// Failed: a check of a run FAILED.
	Failed Verdict = "FAILED"
	// Valid: the claimed ε is at least a bound privamp can prove.
	Valid Verdict = "VALID"
	// Invalid: the assumptions hold but the claimed ε is below the smallest
	// ε privamp can certify.
	Invalid Verdict = "INVALID"
	// Unsupported: a declared value is contradicted (a failed check), or an
	// assumption of the analysis is unmet and no other analysis supports
	// the claim either.
	Unsupported Verdict = "UNSUPPORTED"
	// Consistent: an audit's lower bound does not exceed the upper bound.
	Consistent Verdict = "CONSISTENT"
	// Violated: an audit's lower bound exceeds the upper bound, which is
	// therefore false with probability ≥ the audit's confidence.
	Violated Verdict = "VIOLATED"
)

// Exit statuses of a verdict (2 is bad input, never a verdict).
const (
	ExitOK          = 0 // Passed, Valid, Consistent
	ExitFailed      = 1 // Failed, Invalid, Violated
	ExitUnsupported = 3 // Unsupported
)

// ExitStatus is the exit status privamp gives the verdict: 0 for Passed,
// Valid and Consistent, 1 for Failed, Invalid and Violated, 3 for
// Unsupported.
func (v Verdict) ExitStatus() int {
	switch v {
	case Failed, Invalid, Violated:
		return ExitFailed
	case Unsupported:
		return ExitUnsupported
	}
	return ExitOK
}

func (v Verdict) String() string { return string(v) }

// VerdictOf is the verdict of a run's checks: Failed when a check FAILED,
// Passed otherwise (AllPass).
func VerdictOf(checks []Check) Verdict {
	if AllPass(checks) {
		return Passed
	}
	return Failed
}

// VerdictLine is the verdict of a run's checks in words, as a run prints
// it: whether every check passed or one FAILED, and whether the output is
// WORSE than the data-free output.
func VerdictLine(checks []Check) string {
	v := "every check passes"
	if VerdictOf(checks) == Failed {
		v = "a check FAILED (see the checks)"
	}
	for _, ch := range checks {
		if ch.Status == Worse {
			return v + "; the output's risk is WORSE than the data-free output's"
		}
	}
	return v
}
