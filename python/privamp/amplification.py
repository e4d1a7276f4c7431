"""DP-SGD, amplification by iteration and planning: the command line's
dpsgd, curve, plan and verify, returning the same JSON objects (as dicts).

``dpsgd(...)`` is privamp dpsgd (keys as its flags, "_" for "-").
``per_person_epsilon(...)`` is the per-person ε of a fixed-order run
(privamp curve --all) as arrays, through the bulk path (no JSON numbers);
``worst_record`` the record with the largest ε. ``plan(tiers, ...)`` is
privamp plan --tier; ``verify(claim)`` is privamp verify of a claim (or a
plan) given as a dict.
"""

from . import _native
from .accountant import Epsilon

__all__ = ["dpsgd", "curve", "per_person_epsilon", "worst_record", "plan", "verify", "DPSGDResult"]


class DPSGDResult(dict):
    """privamp dpsgd's JSON answer (a dict), with ``epsilon`` (an Epsilon:
    prints as the command line does), ``noise_multiplier`` and ``steps``.
    For shuffled batches (sampling="shuffle") the answer is an interval:
    ``epsilon`` is its sound upper end (epsilon_upper) and the dict holds
    epsilon_lower and the Poisson number commonly reported."""

    @property
    def epsilon(self):
        if "epsilon" not in self and "epsilon_upper" in self:
            return Epsilon(self.get("epsilon_upper"), self)
        return Epsilon(self.get("epsilon"), self)

    @property
    def noise_multiplier(self):
        return self["noise_multiplier"]

    @property
    def steps(self):
        return int(self["steps"])


def dpsgd(**kwargs):
    """ε of DP-SGD by the tightest sound accountant, or with target_epsilon
    the noise multiplier: keys n, batch, sampling_rate, epochs, steps,
    noise, delta, target_epsilon, neighbours, sampling, accountant
    (tightest, pld, rdp), conversion."""
    if kwargs.get("accountant") == "tightest":
        kwargs["accountant"] = "best"
    return DPSGDResult(_native.call("dpsgd", kwargs))


def curve(**kwargs):
    """privamp curve's JSON answer (a dict): keys as its flags, "_" for "-",
    variants as a list."""
    return _native.call("curve", kwargs)


def per_person_epsilon(n, sigma, variant="pnsgd", numpy=None, **kwargs):
    """(index, epsilon): the per-person ε of every record position 1..n of
    the run (privamp curve --all, one variant), as ``array('d')`` (or numpy
    arrays when numpy is installed and numpy is not False), with ∞ for no
    finite guarantee. Other keys as privamp curve's flags."""
    req = dict(kwargs, n=n, sigma=sigma, variants=[variant], all=True, no_sampling=True)
    meta, cols = _native.floats("curve", req)
    idx, eps = cols["index"], cols["epsilon_" + variant]
    if numpy is not False:
        try:
            import numpy as np
            return np.frombuffer(idx, dtype=np.float64).astype(np.int64), np.frombuffer(eps, dtype=np.float64).copy()
        except ImportError:
            if numpy:
                raise
    return idx, eps


def worst_record(n, sigma, variant="pnsgd", **kwargs):
    """(index, epsilon) of the record with the largest ε (the first such)."""
    idx, eps = per_person_epsilon(n, sigma, variant, numpy=False, **kwargs)
    i = max(range(len(eps)), key=eps.__getitem__)
    return int(idx[i]), eps[i]


def plan(tiers, **kwargs):
    """privamp plan --tier's JSON answer (a dict) for tiers
    ["[NAME=]SIZE:EPSILON[:DELTA]", ...] (or (size, epsilon[, delta])
    tuples); "plan" holds the plan file (for privamp run --plan and verify).
    Keys: n, radius, dimension (required), delta, variant, batch, epochs,
    lipschitz, smoothness, strong_convexity, eta, max_sigma, ..."""
    ts = []
    for t in tiers:
        if isinstance(t, (tuple, list)):
            t = ":".join(repr(float(x)) if isinstance(x, float) else str(x) for x in t)
        ts.append(t)
    return _native.call("plan", dict(kwargs, tiers=ts))


def verify(claim):
    """privamp verify's JSON answer (a dict) for a claim (or plan) given as
    a dict or JSON text; "verdict" is VALID, INVALID or UNSUPPORTED and
    "exit_status" the command line's exit status."""
    return _native.call("verify", claim)
