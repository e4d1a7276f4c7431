#!/usr/bin/env python3
"""Accounting speed against dp_accounting, in one Python process (issues 25
and 27): dp_accounting's PLDAccountant and privamp's drop-in
privamp.PLDAccountant (the Go library through ctypes) compose the same
dp_accounting events and answer get_epsilon, run in turn A B A B ... so that
a drift of the machine's speed hits both. Run by bench/speed_vs.sh, which
says how to set it up; not part of `make test`.

Cases: DP-SGD with q = 256/60000, z = 1.1, δ = 1e-5, add/remove, interval
1e-4 (dp_accounting's PLDAccountant default), at 14063 steps (MNIST) and at
10⁶ steps. Each run builds everything from scratch on both sides; privamp's
process keeps its FFT objects and buffers warm after the first call (as a
training script's does), and that first call is reported apart.
privamp's get_epsilon computes the sound ε alone, as dp_accounting's does;
privamp.dpsgd (sound and optimistic PLD and RDP, the command line's answer)
is timed beside it. Printed: ε, then wall and CPU seconds as median
[min, max] over --repeat runs, and the ratio of the medians.
"""
import argparse
import os
import statistics
import time

import dp_accounting
from dp_accounting.pld import pld_privacy_accountant

import privamp

Q, Z, DELTA = 256 / 60000, 1.1, 1e-5


def event(steps):
    return dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(Q, dp_accounting.GaussianDpEvent(Z)), steps)


def eps_of(make, ev):
    def run():
        a = make()
        a.compose(ev)
        return float(a.get_epsilon(DELTA))
    return run


def once(f):
    t, c = time.perf_counter(), time.process_time()
    v = f()
    return v, time.perf_counter() - t, time.process_time() - c


def stat(xs):
    return statistics.median(xs), min(xs), max(xs)


def fmt(s):
    return "%.4f [%.4f, %.4f]" % s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--steps", default="14063,1000000", help="comma-separated step counts")
    a = ap.parse_args()
    print("dp_accounting from %s; privamp library %s; %d cores; %d runs each, interleaved"
          % (os.path.dirname(dp_accounting.__file__), privamp.library_path(), os.cpu_count(), a.repeat))
    for steps in [int(s) for s in a.steps.split(",")]:
        ev = event(steps)
        first = once(eps_of(privamp.PLDAccountant, ev))
        print("%8d steps  privamp first call in the process: ε %.6f, %.4f s wall, %.4f s CPU"
              % (steps, first[0], first[1], first[2]), flush=True)
        runs = {"dp_accounting PLDAccountant": [], "privamp.PLDAccountant": [], "privamp.dpsgd": []}
        fs = {"dp_accounting PLDAccountant": eps_of(pld_privacy_accountant.PLDAccountant, ev),
              "privamp.PLDAccountant": eps_of(privamp.PLDAccountant, ev),
              "privamp.dpsgd": lambda: float(privamp.dpsgd(sampling_rate=Q, steps=steps, noise=Z,
                                                          delta=DELTA).epsilon)}
        for _ in range(a.repeat):
            for k, f in fs.items():
                runs[k].append(once(f))
        base = None
        for k, rs in runs.items():
            w, c = stat([r[1] for r in rs]), stat([r[2] for r in rs])
            if base is None:
                base = (w[0], c[0])
                ratio = ""
            else:
                ratio = "  %.1fx faster (wall), %.1fx (CPU)" % (base[0] / w[0], base[1] / c[0])
            print("%8d steps  %-28s ε %.6f  wall %s  CPU %s%s" % (steps, k, rs[-1][0], fmt(w), fmt(c), ratio),
                  flush=True)


if __name__ == "__main__":
    main()
