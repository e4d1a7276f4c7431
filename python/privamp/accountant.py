"""Accountants shaped like dp_accounting's (privacy_accountant.py):
``compose(event, count=1)``, ``get_epsilon(target_delta)``,
``get_delta(target_epsilon)``, ``supports(event)``, ``ledger``.

``PrivacyAccountant(accountant="tightest")`` accounts what was composed by
privamp's PLD accountant (connect-the-dots at interval 1e-4, Doroshenko et
al. 2022), its RDP accountant (every real order, Mironov–Talwar–Zhang 2019),
or the smaller sound value of both ("tightest", the command line's "best"),
through ``privamp compose --events`` (package composition/events): the same
numbers as the command line. ``PLDAccountant`` and ``RdpAccountant`` are the
drop-in names: replace ``dp_accounting.pld.PLDAccountant()`` by
``privamp.PLDAccountant()`` and keep the rest of the script.

``get_epsilon`` returns an ``Epsilon``: a float (the sound ε) that also
carries the accountant that gave it, the PLD's optimistic estimate (a lower
estimate, never a guarantee), the source and the whole answer
(``.result``, the command line's JSON object). ``get_delta`` returns a
``Delta`` likewise.

``get_epsilon`` computes the sound ε alone, as dp_accounting's accountants
do (query "events" with ``sound_only``: no optimistic PLD and, for the PLD
accountant, no RDP value beside it; about a third less work). The
optimistic estimate and the whole answer are computed when first read
(``.optimistic``, ``.result``), by one more call that gives the same ε.
"""

from . import _native
from .dp_event import ComposedDpEvent, SelfComposedDpEvent, UnsupportedEventError, to_json

__all__ = ["PrivacyAccountant", "PLDAccountant", "RdpAccountant", "NeighboringRelation", "Epsilon", "Delta",
           "format_loss"]

# The δ at which get_delta first tunes the PLD's composition (its tilt and
# truncation; the truncated tails go into δ, so δ(ε) is sound whatever this
# value, which only sets how tight it is). When δ(ε) comes out far from it,
# get_delta tunes again at that δ and keeps the smaller of the two sound
# values. dp_accounting's get_delta takes no δ either.
TUNING_DELTA = 1e-5


class NeighboringRelation:
    """dp_accounting's names of the neighbouring relations."""
    ADD_OR_REMOVE_ONE = "add_or_remove_one"
    REPLACE_ONE = "replace_one"


def _relation(r):
    """A relation given as privamp's or dp_accounting's name or enum."""
    name = getattr(r, "name", r)
    if not isinstance(name, str):
        raise _native.PrivampError("neighboring_relation must be add_or_remove_one or replace_one, got %r" % (r,),
                                   "neighboring_relation", repr(r), "must be add_or_remove_one or replace_one")
    s = name.lower().replace("-", "_")
    if s in ("add_or_remove_one", "add_remove"):
        return "add_or_remove_one"
    if s == "replace_one":
        return "replace_one"
    raise _native.PrivampError("neighboring_relation must be add_or_remove_one or replace_one (privamp does not "
                               "account %s), got %r" % (name, name), "neighboring_relation", name,
                               "must be add_or_remove_one or replace_one")


def _accountant(name):
    a = {"tightest": "best", "best": "best", "pld": "pld", "rdp": "rdp"}.get(name)
    if a is None:
        raise _native.PrivampError("accountant must be tightest, pld or rdp, got %r" % (name,), "accountant", name,
                                   "must be tightest, pld or rdp")
    return a


def format_loss(x, kind="loss"):
    """x as the command line prints a quantity of its kind: a privacy loss
    rounded up to 6 significant digits ("no finite guarantee" for ∞)."""
    return _native.call("format", {"kind": kind, "values": [None if x == float("inf") else float(x)]})["strings"][0]


class _Quantity(float):
    """A float that prints as the command line prints it, with the answer
    it came from."""
    _kind = "loss"

    def __new__(cls, value, result, full=None):
        x = float("inf") if value is None else float(value)
        self = super().__new__(cls, x)
        self._answer, self._full = result, full
        return self

    @property
    def result(self):
        """The whole answer (the command line's JSON object); for a sound
        ε computed alone, asked for on first read."""
        if self._full is not None:
            self._answer, self._full = self._full(), None
        return self._answer

    def __str__(self):
        return format_loss(float(self), self._kind)

    def __repr__(self):
        return "%s(%r, accountant=%r)" % (type(self).__name__, float(self), self.accountant)


class Epsilon(_Quantity):
    """A sound ε (a float) with ``accountant``, ``optimistic`` (the PLD's
    optimistic estimate, or None), ``source`` and ``result``."""

    @property
    def accountant(self):
        return self._answer.get("accountant")

    @property
    def optimistic(self):
        return self.result.get("epsilon_optimistic")

    @property
    def source(self):
        r = self._answer
        return r.get("source") or r.get("upper_source") or (
            r.get("pld_source") if r.get("accountant") == "pld" else r.get("rdp_source"))


class Delta(_Quantity):
    """A sound δ at ε (a float) with ``accountant``, ``optimistic`` (the
    PLD's optimistic estimate, or None) and ``result``."""

    @property
    def accountant(self):
        d = self.result["deltas"][0]
        if d.get("pld_delta") is not None and d["delta"] == d["pld_delta"]:
            return "pld"
        return "rdp" if d.get("rdp_delta") is not None and d["delta"] == d["rdp_delta"] else self.result.get("accountant")

    @property
    def optimistic(self):
        return self.result["deltas"][0].get("delta_optimistic")


class PrivacyAccountant:
    """An accountant over events composed one by one (dp_accounting's
    interface). accountant: "tightest" (default: the smaller sound ε of PLD
    and RDP), "pld" or "rdp"."""

    def __init__(self, accountant="tightest", neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE,
                 value_discretization_interval=None):
        self._accountant = _accountant(accountant)
        self._relation = _relation(neighboring_relation)
        self._interval = value_discretization_interval
        self._ledger = []  # [event json, count], consecutive equal events merged

    @property
    def neighboring_relation(self):
        return self._relation

    def _file(self):
        evs = []
        for ev, count in self._ledger:
            evs.append(ev if count == 1 else {"type": "SelfComposed", "count": count, "event": ev})
        if not evs:
            return None
        return {"neighbouring": self._relation, "event": evs[0] if len(evs) == 1 else {"type": "Composed", "events": evs}}

    def supports(self, event):
        """Whether this accountant accounts event (its types and values)."""
        try:
            ev = to_json(event)
        except UnsupportedEventError:
            return False
        ans = _native.call("supports", {"events": {"neighbouring": self._relation, "event": ev},
                                        "accountant": self._accountant})
        return ans["supported"]

    def compose(self, event, count=1):
        """Adds event, run count times; returns self (dp_accounting's chaining)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise _native.PrivampError("count must be a whole number ≥ 1, got %r" % (count,), "count", count,
                                       "must be a whole number ≥ 1")
        ev = to_json(event)
        probe = {"events": {"neighbouring": self._relation, "event": ev}, "accountant": self._accountant}
        ans = _native.call("supports", probe)
        if not ans["supported"]:
            raise UnsupportedEventError("unsupported event: %r: %s" % (event, ans.get("reason", "")))
        if self._ledger and self._ledger[-1][0] == ev:
            self._ledger[-1][1] += count
        else:
            self._ledger.append([ev, count])
        return self

    @property
    def ledger(self):
        """What was composed, as one ComposedDpEvent of privamp's events."""
        out = []
        for ev, count in self._ledger:
            e = _from_json(ev)
            out.append(e if count == 1 else SelfComposedDpEvent(e, count))
        return ComposedDpEvent(out)

    def _request(self, delta, epsilons=None):
        f = self._file()
        req = {"events": f or {"neighbouring": self._relation, "event": {"type": "NoOp"}},
               "delta": delta, "accountant": self._accountant}
        if epsilons is not None:
            req["epsilons"] = epsilons
        if self._interval is not None:
            req["discretization"] = self._interval
        return req

    @staticmethod
    def _send(req):
        try:
            return _native.call("events", req)
        except _native.PrivampError as e:
            if e.field == "delta":  # the caller's name
                raise _native.PrivampError(str(e).replace("delta", "target_delta", 1), "target_delta", e.value,
                                           e.reason) from None
            raise

    def _ask(self, delta, epsilons=None):
        return self._send(self._request(delta, epsilons))

    def get_epsilon(self, target_delta):
        """The sound ε at target_delta of everything composed (an Epsilon).
        The sound ε is computed alone; its optimistic estimate and the whole
        answer when first read (of what was composed by this call)."""
        req = self._request(target_delta)
        if self._accountant == "rdp":  # nothing to leave out
            r = self._send(req)
            return Epsilon(r.get("epsilon"), r)
        r = self._send(dict(req, sound_only=True))

        def full():
            a = self._send(req)
            if a.get("epsilon") != r.get("epsilon"):  # never: the same computation
                raise _native.PrivampFailure("privamp: the sound ε %r differs from the whole answer's %r"
                                             % (r.get("epsilon"), a.get("epsilon")))
            return a
        return Epsilon(r.get("epsilon"), r, full)

    def get_delta(self, target_epsilon):
        """The sound δ at target_epsilon of everything composed (a Delta).
        The PLD's composition is tuned for δ = TUNING_DELTA, and again for
        the δ found when that is more than 10× away (the smaller sound δ
        is kept)."""
        try:
            r = self._ask(TUNING_DELTA, [target_epsilon])
            d = r["deltas"][0]["delta"]
            if r.get("pld_epsilon") is not None and 0 < d < 1 and not TUNING_DELTA / 10 <= d <= TUNING_DELTA * 10:
                r2 = self._ask(min(max(d, 1e-15), 0.5), [target_epsilon])
                if r2["deltas"][0]["delta"] < d:
                    r = r2
        except _native.PrivampError as e:
            if e.field == "epsilon":
                raise _native.PrivampError(str(e).replace("epsilon", "target_epsilon", 1), "target_epsilon",
                                           e.value, e.reason) from None
            raise
        return Delta(r["deltas"][0]["delta"], r)


class PLDAccountant(PrivacyAccountant):
    """privamp's PLD accountant under dp_accounting's name and arguments."""

    def __init__(self, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE,
                 value_discretization_interval=1e-4):
        super().__init__("pld", neighboring_relation, value_discretization_interval)


class RdpAccountant(PrivacyAccountant):
    """privamp's RDP accountant (every real order α > 1; ``orders`` is
    accepted for dp_accounting's signature and not needed)."""

    def __init__(self, orders=None, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE):
        super().__init__("rdp", neighboring_relation)


def _from_json(ev):
    from . import dp_event as d
    t = ev["type"]
    if t == "NoOp":
        return d.NoOpDpEvent()
    if t == "Gaussian":
        return d.GaussianDpEvent(ev["noise_multiplier"])
    if t == "Laplace":
        return d.LaplaceDpEvent(ev["noise_multiplier"])
    if t == "RandomizedResponse":
        return d.RandomizedResponseDpEvent(ev["noise_parameter"], ev["num_buckets"])
    if t == "PoissonSampled":
        return d.PoissonSampledDpEvent(ev["sampling_probability"], _from_json(ev["event"]))
    if t == "SampledWithoutReplacement":
        return d.SampledWithoutReplacementDpEvent(ev["source_dataset_size"], ev["sample_size"], _from_json(ev["event"]))
    if t == "SelfComposed":
        return d.SelfComposedDpEvent(_from_json(ev["event"]), ev["count"])
    return d.ComposedDpEvent([_from_json(e) for e in ev["events"]])
