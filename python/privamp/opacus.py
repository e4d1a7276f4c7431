"""Opacus-shaped helpers with Opacus' argument names
(opacus/accountants/utils.py and opacus/accountants/rdp.py).

``get_noise_multiplier(target_epsilon=, target_delta=, sample_rate=,
epochs= | steps=, accountant=)`` is privamp dpsgd --target-epsilon: the
smallest noise multiplier whose sound ε meets the target, verified (not
Opacus' bisection to within epsilon_tolerance, which is accepted and not
needed). ``OpacusAccountant`` has ``step(noise_multiplier=, sample_rate=)``,
``get_epsilon(delta)`` and ``history`` as Opacus' accountants have.

Steps: with ``epochs``, Opacus runs ``int(epochs / sample_rate)`` steps
(rounded down), and so do these helpers, so that a script gets the noise
for the run Opacus performs. privamp's own command line counts
⌈epochs·n/batch⌉ (rounded up: a last partial batch is a step); give
``steps=`` to account any other count.

Accountant names: "tightest" (default: the smaller sound ε of PLD and
RDP), "pld" (Opacus' "prv" is read as it: a numerical privacy-loss
distribution), "rdp". Opacus' "gdp" (a central-limit approximation, not an
upper bound) is refused.
"""

from . import _native
from .accountant import Epsilon, PrivacyAccountant
from .dp_event import GaussianDpEvent, PoissonSampledDpEvent

__all__ = ["get_noise_multiplier", "OpacusAccountant", "opacus_steps"]


def _acc(accountant):
    a = {"tightest": "best", "best": "best", "pld": "pld", "prv": "pld", "rdp": "rdp"}.get(accountant)
    if a is None:
        reason = "must be tightest, pld (prv) or rdp"
        if accountant == "gdp":
            reason += " (gdp is a central-limit approximation, not an upper bound)"
        raise _native.PrivampError("accountant %s, got %r" % (reason, accountant), "accountant", accountant, reason)
    return a


def opacus_steps(sample_rate, epochs):
    """Opacus' step count for epochs at sample_rate: int(epochs / sample_rate)."""
    for name, v in (("sample_rate", sample_rate), ("epochs", epochs)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
            raise _native.PrivampError("%s must be a number > 0, got %r" % (name, v), name, v, "must be a number > 0")
    return int(epochs / sample_rate)


def get_noise_multiplier(*, target_epsilon, target_delta, sample_rate, epochs=None, steps=None,
                         accountant="tightest", epsilon_tolerance=0.01, **kwargs):
    """The smallest noise multiplier for which DP-SGD at sample_rate for
    steps (or Opacus' int(epochs / sample_rate)) steps is
    (target_epsilon, target_delta)-DP by the sound accountant. Returns a
    float with ``.result``: privamp dpsgd's JSON answer (its ε, the
    optimistic estimate, the source)."""
    if (epochs is None) == (steps is None):
        raise _native.PrivampError("give exactly one of epochs or steps", "steps" if steps is not None else "epochs",
                                   None, "give exactly one of epochs or steps")
    if steps is None:
        steps = opacus_steps(sample_rate, epochs)
    req = {"sampling_rate": sample_rate, "steps": steps, "target_epsilon": target_epsilon, "delta": target_delta,
           "accountant": _acc(accountant)}
    r = _call_dpsgd(req)
    return _Noise(r["noise_multiplier"], r)


_RENAME = {"sampling_rate": "sample_rate", "delta": "target_delta", "noise": "noise_multiplier"}


def _call_dpsgd(req):
    try:
        return _native.call("dpsgd", req)
    except _native.PrivampError as e:  # name Opacus' argument, not privamp's key
        if e.field in _RENAME:
            raise _native.PrivampError(str(e).replace(e.field, _RENAME[e.field], 1), _RENAME[e.field], e.value,
                                       e.reason) from None
        raise


class _Noise(float):
    def __new__(cls, value, result):
        self = super().__new__(cls, value)
        self.result = result
        return self

    def __str__(self):
        from .accountant import format_loss
        return format_loss(float(self), "noise")


class OpacusAccountant:
    """Opacus' accountant interface over privamp's accountant:
    ``step(noise_multiplier=, sample_rate=)`` once per optimizer step, then
    ``get_epsilon(delta)``. history lists (noise_multiplier, sample_rate,
    steps) as Opacus' does."""

    def __init__(self, accountant="tightest"):
        self.mechanism = accountant
        self._name = _acc(accountant)
        self.history = []

    def step(self, *, noise_multiplier, sample_rate):
        if self.history and self.history[-1][:2] == (noise_multiplier, sample_rate):
            nm, sr, n = self.history.pop()
            self.history.append((nm, sr, n + 1))
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def __len__(self):
        return sum(n for _, _, n in self.history)

    def get_epsilon(self, delta, **kwargs):
        """The sound ε at delta of every step so far (an Epsilon)."""
        if len(self.history) == 1:  # one DP-SGD run: privamp dpsgd's own answer
            nm, sr, n = self.history[0]
            r = _call_dpsgd({"sampling_rate": sr, "steps": n, "noise": nm, "delta": delta, "accountant": self._name})
            return Epsilon(r.get("epsilon"), r)
        acc = PrivacyAccountant({"best": "tightest"}.get(self._name, self._name))
        for nm, sr, n in self.history:
            acc.compose(PoissonSampledDpEvent(sr, GaussianDpEvent(nm)), n)
        return acc.get_epsilon(delta)
