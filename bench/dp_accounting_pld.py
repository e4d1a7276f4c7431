#!/usr/bin/env python3
"""Times Google's dp_accounting (PLD and RDP accountants) on DP-SGD, for the
side-by-side with privamp in BENCHMARKS.md. Not part of `make test`.

How to run (needs dp_accounting's source on PYTHONPATH; it is not vendored here):

  apt-get install -y python3-numpy python3-scipy python3-absl python3-attr python3-mpmath
  git --git-dir=<git dir of github.com/google/differential-privacy> archive HEAD python/dp_accounting \
      | tar -x -C /tmp/dpa
  PYTHONPATH=/tmp/dpa/python/dp_accounting /usr/bin/python3 bench/dp_accounting_pld.py [--quick]

(Debian's /usr/bin/python3, which sees the apt packages; a pyenv python3 on PATH does not.)

Cases: the MNIST example (q = 256/60000, z = 1.1, 14063 steps, δ = 1e-5) and
the same q, z with 1e6 steps, at value_discretization_interval 1e-4. For each:
ε of PLDAccountant (pessimistic, connect-the-dots, as shipped), the optimistic
PLD estimate (from_gaussian_mechanism(pessimistic_estimate=False), privacy buckets
—connect-the-dots has no optimistic mode—self-composed),
and ε of RdpAccountant (default orders), each with its wall time (best of
--repeat runs, each including construction of the PLD). --quick skips 1e6 steps.
"""
import argparse
import math
import os
import time

import dp_accounting
from dp_accounting.pld import privacy_loss_distribution as pldlib
from dp_accounting.rdp import rdp_privacy_accountant

INTERVAL = 1e-4


def event(q, z, steps):
    return dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps)


def timed(f, repeat):
    best, val = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        val = f()
        best = min(best, time.perf_counter() - t0)
    return val, best


def pld_pessimistic(q, z, steps, delta):
    acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=INTERVAL)
    acc.compose(event(q, z, steps))
    return acc.get_epsilon(delta)


def pld_optimistic(q, z, steps, delta):
    pld = pldlib.from_gaussian_mechanism(
        standard_deviation=z, sampling_prob=q, pessimistic_estimate=False,
        value_discretization_interval=INTERVAL, use_connect_dots=False)  # optimistic: privacy buckets only
    return pld.self_compose(steps).get_epsilon_for_delta(delta)


def rdp_eps(q, z, steps, delta):
    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(event(q, z, steps))
    return acc.get_epsilon(delta)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    vfile = os.path.join(os.path.dirname(os.path.dirname(dp_accounting.__file__)), "VERSION")
    version = open(vfile).read().split()[-1] if os.path.exists(vfile) else "?"
    print(f"dp_accounting {version}, cores {os.cpu_count()}, "
          f"discretization {INTERVAL}, best of {a.repeat}")
    cases = [("MNIST", 256 / 60000, 1.1, 14063, 1e-5)]
    if not a.quick:
        cases.append(("1e6 steps", 256 / 60000, 1.1, 10**6, 1e-5))
    print(f"{'case':10} {'accountant':24} {'epsilon':>12} {'seconds':>9}")
    for name, q, z, steps, delta in cases:
        for label, f in [("PLD pessimistic", pld_pessimistic), ("PLD optimistic", pld_optimistic),
                         ("RDP", rdp_eps)]:
            e, s = timed(lambda: f(q, z, steps, delta), a.repeat)
            print(f"{name:10} {label:24} {e:12.6f} {s:9.3f}", flush=True)
    # Issue 10's spot checks of privamp's RDP path (not timed).
    print("issue 10: RDP ε of q=2.736e-4 z=3.6842 2 steps δ=1.985e-4:",
          rdp_eps(2736 / 1e7, 3.684200246134407, 2, 0.0001984887157074372),
          " PLD:", pld_pessimistic(2736 / 1e7, 3.684200246134407, 2, 0.0001984887157074372))
    print("issue 10: q=1 z=1 1 step δ=1e-5: RDP", rdp_eps(1.0, 1.0, 1, 1e-5),
          " PLD", pld_pessimistic(1.0, 1.0, 1, 1e-5))


if __name__ == "__main__":
    main()
