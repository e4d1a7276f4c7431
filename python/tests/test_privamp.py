"""Every Python answer is compared with the command line's JSON for the
same question (cli fixture: the privamp binary with --json)."""

import collections
import json
import math
import threading

import pytest

import privamp
from privamp import _native
from conftest import example

MNIST = dict(n=60000, batch=256, epochs=60, noise=1.1, delta=1e-5)


def test_dpsgd_mnist_equals_cli(cli):
    want, _ = cli("dpsgd")
    r = privamp.dpsgd(**MNIST)
    assert dict(r) == want
    assert str(r.epsilon) == "2.38178" and r.epsilon.accountant == "pld"
    assert r.epsilon.optimistic == want["epsilon_optimistic"] < r.epsilon


def test_dpsgd_replace_one_rdp_equals_cli(cli):
    want, _ = cli("dpsgd", "--sampling-rate", 0.01, "--steps", 1000, "--noise", 1, "--neighbours", "replace-one",
                  "--accountant", "rdp")
    got = privamp.dpsgd(sampling_rate=0.01, steps=1000, noise=1, delta=1e-5, neighbours="replace-one", accountant="rdp")
    assert dict(got) == want


def test_dpsgd_shuffle_equals_cli(cli):
    want, _ = cli("dpsgd", "--n", 6000, "--batch", 256, "--epochs", 1, "--sampling", "shuffle")
    got = privamp.dpsgd(n=6000, batch=256, epochs=1, noise=1.1, delta=1e-5, sampling="shuffle")
    assert dict(got) == want
    assert float(got.epsilon) == want["epsilon_upper"] and got.epsilon.source == want["upper_source"]


def test_get_noise_multiplier_equals_cli_calibration(cli):
    q, epochs = 0.07, 2
    steps = privamp.opacus_steps(q, epochs)
    assert steps == int(epochs / q) == 28  # 2/0.07 = 28.57: Opacus rounds down
    want, _ = cli("dpsgd", "--sampling-rate", q, "--steps", steps, "--target-epsilon", 2, "--delta", 1e-5)
    z = privamp.get_noise_multiplier(target_epsilon=2, target_delta=1e-5, sample_rate=q, epochs=epochs)
    assert float(z) == want["noise_multiplier"] and z.result == want
    assert want["epsilon"] <= 2


def test_events_file_equals_cli(cli):
    want, _ = cli("compose", "--events", example("examples/events-two-phase.json"), "--target-delta", 1e-6,
                  "--accountant", "rdp")
    acc = privamp.RdpAccountant()
    G, P = privamp.GaussianDpEvent, privamp.PoissonSampledDpEvent
    acc.compose(P(0.01, G(1.0)), 1000).compose(P(0.02, G(1.5)), 500)
    eps = acc.get_epsilon(1e-6)
    assert eps.result == want and float(eps) == want["epsilon"] and eps.accountant == "rdp"


def test_accountant_equals_dpsgd(cli):
    """The MNIST run composed event by event (Opacus' step) and as one event: dpsgd's ε."""
    want, _ = cli("dpsgd")
    pld = privamp.PLDAccountant()
    pld.compose(privamp.PoissonSampledDpEvent(256 / 60000, privamp.GaussianDpEvent(1.1)), 14063)
    assert float(pld.get_epsilon(1e-5)) == want["epsilon"]
    op = privamp.OpacusAccountant()
    for _ in range(14063):
        op.step(noise_multiplier=1.1, sample_rate=256 / 60000)
    assert len(op) == 14063 and float(op.get_epsilon(1e-5)) == want["epsilon"]


def test_get_delta_brackets_get_epsilon():
    acc = privamp.PrivacyAccountant()
    acc.compose(privamp.SelfComposedDpEvent(privamp.PoissonSampledDpEvent(0.05, privamp.GaussianDpEvent(1.0)), 100))
    eps = acc.get_epsilon(1e-5)
    d = acc.get_delta(float(eps))
    assert 0 < d <= 1e-5 * 1.01, d  # δ(ε(δ)) does not exceed δ beyond the discretization
    assert acc.get_delta(float(eps) * 1.5) < d
    assert d.optimistic is not None and d.optimistic <= d


class _NT:
    """dp_accounting's to_named_tuple form, without dp_accounting."""
    def __init__(self, class_name, **fields):
        self.class_name, self.module_name = class_name, "dp_accounting.dp_event"
        self._fields = ("module_name", "class_name") + tuple(fields)
        self.__dict__.update(fields)


class _DpAccountingEvent:
    def __init__(self, nt):
        self.nt = nt

    def to_named_tuple(self):
        return self.nt


def test_dp_accounting_events_accepted():
    g = _NT("GaussianDpEvent", noise_multiplier=1.1)
    ev = _DpAccountingEvent(_NT("SelfComposedDpEvent", event=_NT("PoissonSampledDpEvent", sampling_probability=0.01,
                                                                    event=g), count=500))
    ours = privamp.SelfComposedDpEvent(privamp.PoissonSampledDpEvent(0.01, privamp.GaussianDpEvent(1.1)), 500)
    a, b = privamp.RdpAccountant(), privamp.RdpAccountant()
    assert a.supports(ev) and not a.supports(_DpAccountingEvent(_NT("NonPrivateDpEvent")))
    assert float(a.compose(ev).get_epsilon(1e-5)) == float(b.compose(ours).get_epsilon(1e-5))
    with pytest.raises(privamp.UnsupportedEventError):
        a.compose(_NT("UnsupportedDpEvent"))
    assert a.ledger == privamp.ComposedDpEvent([ours])


def test_per_person_equals_cli(cli):
    want, _ = cli("curve", "--n", 400, "--sigma", 2, "--eta", 0.5, "--smoothness", 1, "--radius", 1, "--epochs", 2,
                  "--all", "--no-sampling")
    idx, eps = privamp.per_person_epsilon(400, 2, eta=0.5, smoothness=1, radius=1, epochs=2, numpy=False)
    assert list(idx) == want["index"]
    col = want["columns"][0]["epsilon"]
    assert [None if math.isinf(x) else x for x in eps] == col
    t, e = privamp.worst_record(400, 2, eta=0.5, smoothness=1, radius=1, epochs=2)
    assert e == max(x for x in col if x is not None) and col[t - 1] == e
    c = privamp.curve(n=400, sigma=2, eta=0.5, smoothness=1, radius=1, epochs=2, all=True, no_sampling=True)
    assert c == want


def test_plan_equals_cli(cli, tmp_path):
    out = tmp_path / "plan.json"
    want, _ = cli("plan", "--tier", "0.1:0.5", "--tier", "0.9:2", "--n", 1000, "--radius", 1, "--dimension", 10,
                  "--delta", 1e-6, "--smoothness", 1, "--out", out)
    got = privamp.plan(["0.1:0.5", (0.9, 2)], n=1000, radius=1, dimension=10, delta=1e-6, smoothness=1)
    file = got.pop("plan")
    assert want.pop("plan_file") == str(out)
    assert got == want and file == json.loads(out.read_text())
    vwant, code = cli("verify", out)
    v = privamp.verify(file)
    assert v.pop("exit_status") == code
    vwant.pop("file")
    assert v == vwant and v["verdict"] == "VALID"


def test_verify_equals_cli(cli):
    want, code = cli("verify", example("examples/dpsgd-claim.json"))
    with open(example("examples/dpsgd-claim.json")) as f:
        claim = json.load(f)
    got = privamp.verify(claim)
    assert got.pop("exit_status") == code
    want.pop("file")
    assert got == want


@pytest.mark.parametrize("call,field", [
    (lambda: privamp.dpsgd(n=60000, batch=256, epochs=60, noise=1.1, delta=2), "delta"),
    (lambda: privamp.dpsgd(n=60000, batch=256, epochs=60, noise=-1, delta=1e-5), "noise"),
    (lambda: privamp.dpsgd(n=60000, batch=256, epochs=60, nosie=1, delta=1e-5), "nosie"),
    (lambda: privamp.dpsgd(n=60000, batch=256, epochs=60, noise=float("nan"), delta=1e-5), "noise"),
    (lambda: privamp.get_noise_multiplier(target_epsilon=1, target_delta=1e-5, sample_rate=2, steps=10), "sample_rate"),
    (lambda: privamp.get_noise_multiplier(target_epsilon=1, target_delta=3, sample_rate=0.1, steps=10), "target_delta"),
    (lambda: privamp.get_noise_multiplier(target_epsilon=1, target_delta=1e-5, sample_rate=0.1, epochs=1, accountant="gdp"),
     "accountant"),
    (lambda: privamp.PLDAccountant().compose(privamp.GaussianDpEvent(1)).get_epsilon(0), "target_delta"),
    (lambda: privamp.PLDAccountant().compose(privamp.GaussianDpEvent(1), count=0), "count"),
    (lambda: privamp.PrivacyAccountant("moments"), "accountant"),
    (lambda: privamp.per_person_epsilon(0, 1), "n"),
    (lambda: privamp.plan(["0.5:1"], n=10, radius=1), "dimension"),
    (lambda: privamp.call("nothing", {}), "method"),
])
def test_bad_input_names_the_field(call, field):
    with pytest.raises(privamp.PrivampError) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert e.value.field == field, (e.value.field, str(e.value))
    assert field in str(e.value)


def test_unsupported_event_value():
    acc = privamp.PLDAccountant()
    assert not acc.supports(privamp.GaussianDpEvent(0))
    with pytest.raises(ValueError):
        acc.compose(privamp.GaussianDpEvent(0))


def test_threads():
    """Eight threads at once get what one thread alone gets."""
    jobs = [
        lambda: float(privamp.dpsgd(sampling_rate=0.01, steps=1000, noise=1, delta=1e-5, accountant="rdp").epsilon),
        lambda: float(privamp.RdpAccountant().compose(privamp.PoissonSampledDpEvent(0.02, privamp.GaussianDpEvent(1.5)), 500)
                      .get_epsilon(1e-6)),
        lambda: list(privamp.per_person_epsilon(200, 3, numpy=False)[1]),
        lambda: _err(lambda: privamp.dpsgd(noise=-1)),
    ]
    want = [j() for j in jobs]
    got = collections.defaultdict(list)
    errors = []

    def worker(k):
        try:
            for i in range(8):
                j = (k + i) % len(jobs)
                got[j].append(jobs[j]())
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    for j, vals in got.items():
        assert all(v == want[j] for v in vals), j


def _err(f):
    try:
        f()
    except privamp.PrivampError as e:
        return (e.field, str(e))
    return None


def test_format_is_the_cli_rounding():
    assert privamp.format_loss(2.3817790107619072) == "2.38178"
    assert privamp.format_loss(1.0000000000000002) == "1.00001"  # up, never below
    assert privamp.format_loss(float("inf")) == "no finite guarantee"


def test_library_path_is_loaded():
    assert _native.library_path().endswith(".so")


def test_readme_python_examples():
    """Each README Python example prints, line by line, what its print
    lines' comments say."""
    import contextlib
    import io
    import os
    import re
    from conftest import ROOT
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"<!-- python-example -->\s*```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) >= 2
    for code in blocks:
        want = [m.group(1).strip() for m in re.finditer(r"^print\(.*\)\s*# (.*)$", code, re.M)]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "README.md", "exec"), {})
        assert buf.getvalue().splitlines() == want


def test_dp_accounting_drop_in():
    """With dp_accounting importable (from source: bench/python_vs_dp_accounting.py
    says how), its own events through privamp's PLD accountant: ε within 0.5%
    of dp_accounting's PLDAccountant, never below its optimistic estimate."""
    dpa = pytest.importorskip("dp_accounting")
    from dp_accounting.pld import pld_privacy_accountant
    ev = dpa.ComposedDpEvent([
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 300),
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.02, dpa.GaussianDpEvent(1.5)), 100),
        dpa.LaplaceDpEvent(20.0),
    ])
    theirs = pld_privacy_accountant.PLDAccountant()
    theirs.compose(ev)
    ours = privamp.PLDAccountant()
    ours.compose(ev)
    t, o = theirs.get_epsilon(1e-6), ours.get_epsilon(1e-6)
    assert abs(o / t - 1) < 0.005 and o.optimistic <= t, (o, t)
    assert not ours.supports(dpa.NonPrivateDpEvent())


def test_numpy_arrays():
    np = pytest.importorskip("numpy")
    idx, eps = privamp.per_person_epsilon(50, 2)
    assert isinstance(eps, np.ndarray) and idx.dtype == np.int64 and list(idx) == list(range(1, 51))
    _, eps2 = privamp.per_person_epsilon(50, 2, numpy=False)
    assert list(eps) == list(eps2)


def test_get_epsilon_sound_alone_then_the_rest():
    """get_epsilon computes the sound ε alone (as dp_accounting does); the
    optimistic estimate and the whole answer come on first read, with the
    same ε, and of what was composed by then."""
    acc = privamp.PLDAccountant()
    acc.compose(privamp.PoissonSampledDpEvent(0.01, privamp.GaussianDpEvent(1.1)), 300)
    eps = acc.get_epsilon(1e-5)
    assert "epsilon_optimistic" not in eps._answer and "rdp_epsilon" not in eps._answer
    assert eps.accountant == "pld" and eps.source
    acc.compose(privamp.GaussianDpEvent(5.0))  # later events do not enter eps
    assert 0 < eps.optimistic <= eps
    assert eps.result["epsilon"] == float(eps) and eps.result["rdp_epsilon"] > 0
    assert float(privamp.PLDAccountant().compose(privamp.PoissonSampledDpEvent(0.01, privamp.GaussianDpEvent(1.1)),
                                                 300).get_epsilon(1e-5)) == float(eps)
