#!/usr/bin/env python3
"""privamp's Python package against dp_accounting's PLD and RDP accountants,
side by side in one Python process, for BENCHMARKS.md (issue 25). Not part
of `make test`.

How to run (dp_accounting from source, as bench/dp_accounting_pld.py; the
privamp package from the tree with its shared library built):

  apt-get install -y python3-numpy python3-scipy python3-absl python3-attr python3-mpmath
  git --git-dir=<git dir of github.com/google/differential-privacy> archive HEAD python/dp_accounting \\
      | tar -x -C /tmp/dpa
  go build -buildmode=c-shared -o bin/libprivamp.so ./python/_native
  PRIVAMP_LIBRARY=bin/libprivamp.so PYTHONPATH=python:/tmp/dpa/python/dp_accounting \\
      /usr/bin/python3 bench/python_vs_dp_accounting.py [--repeat 3] [--quick]

Cases (q = 256/60000, z = 1.1, δ = 1e-5, add/remove, interval 1e-4):
  - the drop-in swap: the same script composing dp_accounting's own event objects
    with dp_accounting.pld.PLDAccountant() and with privamp.PLDAccountant();
  - MNIST (14063 steps) and 1e6 steps: ε by each accountant, wall time best of
    --repeat (each call builds everything from scratch on dp_accounting's side;
    privamp's process keeps its FFT plans warm after the first call, reported apart);
  - a calibration: the noise multiplier for ε = 3 (dp_accounting's
    calibrate_dp_mechanism over PLDAccountant, tol 1e-3; privamp.get_noise_multiplier);
  - per-query overhead: a call of privamp's cheapest method ("format", one
    number) in a loop, against the same query.Do in Go (go test -bench Do ./query).
"""
import argparse
import math
import time

import dp_accounting
from dp_accounting import mechanism_calibration
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant

import privamp

Q, Z, DELTA = 256 / 60000, 1.1, 1e-5


def event(mod, steps):
    return mod.SelfComposedDpEvent(mod.PoissonSampledDpEvent(Q, mod.GaussianDpEvent(Z)), steps)


def timed(f, repeat):
    """(value, best wall seconds, best CPU seconds of the process, all threads)."""
    best, cpu, val = math.inf, math.inf, None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        val = f()
        best, cpu = min(best, time.perf_counter() - t), min(cpu, time.process_time() - c)
    return val, (best, cpu)


def eps_of(make, ev):
    def run():
        a = make()
        a.compose(ev)
        return a.get_epsilon(DELTA)
    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="skip 1e6 steps and the dp_accounting calibration")
    args = ap.parse_args()
    rows = []

    def row(case, who, value, secs):
        wall, cpu = secs if isinstance(secs, tuple) else (secs, float("nan"))
        rows.append((case, who, value, wall, cpu))
        fmt = (lambda x: "%9.1f µs" % (x * 1e6)) if wall < 1e-3 else (lambda x: "%9.4f s " % x)
        print("%-34s %-44s %-22s %s wall %s CPU" % (case, who, value, fmt(wall), fmt(cpu)), flush=True)

    # First call in the process (cold FFT plans and pages), then warm.
    ev = event(dp_accounting, 14063)
    first, tf = timed(eps_of(lambda: privamp.PLDAccountant(), ev), 1)
    row("MNIST, first call in the process", "privamp.PLDAccountant (dp_accounting events)", "%.6f" % first, tf)
    for steps in ([14063] if args.quick else [14063, 1_000_000]):
        case = "MNIST (14063 steps)" if steps == 14063 else "1e6 steps"
        ev = event(dp_accounting, steps)
        d, td = timed(eps_of(lambda: pld_privacy_accountant.PLDAccountant(), ev), args.repeat)
        row(case, "dp_accounting PLDAccountant", "%.6f" % d, td)
        p, tp = timed(eps_of(lambda: privamp.PLDAccountant(), ev), args.repeat)
        row(case, "privamp.PLDAccountant (same events)", "%.6f" % p, tp)
        print("    ratio ε privamp/dp_accounting %.7f; privamp %.1f× faster (wall), %.1f× (CPU)" % (
            p / d, td[0] / tp[0], td[1] / tp[1]))
        r, tr = timed(eps_of(lambda: rdp_privacy_accountant.RdpAccountant(), ev), args.repeat)
        row(case, "dp_accounting RdpAccountant", "%.6f" % r, tr)
        r2, tr2 = timed(eps_of(lambda: privamp.RdpAccountant(), ev), args.repeat)
        row(case, "privamp.RdpAccountant", "%.6f" % r2, tr2)
        res, tt = timed(lambda: privamp.dpsgd(sampling_rate=Q, steps=steps, noise=Z, delta=DELTA), args.repeat)
        row(case, "privamp.dpsgd (tightest; optimistic %.6f)" % res["epsilon_optimistic"],
            "%.6f (%s)" % (res["epsilon"], res["accountant"]), tt)

    # Calibration: the noise multiplier for ε = 3 on MNIST.
    z, tz = timed(lambda: privamp.get_noise_multiplier(target_epsilon=3, target_delta=DELTA, sample_rate=Q, steps=14063),
                  args.repeat)
    row("calibration MNIST, ε = 3", "privamp.get_noise_multiplier (%s)" % z.result["accountant"], "%.6f" % z, tz)
    if not args.quick:
        def dpa_cal():
            return mechanism_calibration.calibrate_dp_mechanism(
                pld_privacy_accountant.PLDAccountant, lambda s: event(dp_accounting, 14063).__class__(
                    dp_accounting.PoissonSampledDpEvent(Q, dp_accounting.GaussianDpEvent(s)), 14063),
                3.0, DELTA, mechanism_calibration.LowerEndpointAndGuess(0.5, 1.0), tol=1e-3)
        zd, tzd = timed(dpa_cal, 1)
        row("calibration MNIST, ε = 3", "dp_accounting calibrate_dp_mechanism (PLD)", "%.6f" % zd, tzd)

    # Per-query overhead of the Python → Go call.
    n = 20000
    privamp.call("format", {"kind": "loss", "values": [1.5]})
    t, c = time.perf_counter(), time.process_time()
    for _ in range(n):
        privamp.call("format", {"kind": "loss", "values": [1.5]})
    row("per-query round trip", "privamp.call('format', one number), mean", "",
        ((time.perf_counter() - t) / n, (time.process_time() - c) / n))
    acc = privamp.RdpAccountant()
    acc.compose(privamp.PoissonSampledDpEvent(Q, privamp.GaussianDpEvent(Z)), 14063)
    m = 200
    t, c = time.perf_counter(), time.process_time()
    for _ in range(m):
        acc.get_epsilon(DELTA)
    row("a small query", "privamp RDP get_epsilon (MNIST), mean", "", ((time.perf_counter() - t) / m,
                                                                       (time.process_time() - c) / m))


if __name__ == "__main__":
    main()
