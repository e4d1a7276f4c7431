#!/usr/bin/env python3
"""Held-out grid of DP-SGD configurations, accounted by Google's dp_accounting,
for privamp's agreement test (composition/testdata/dpacc_grid.csv). Not part of
`make test`; the CSV it writes is checked in and read by
composition.TestDPAccountingGrid.

How to run (dp_accounting from source, as in dp_accounting_pld.py):

  git --git-dir=<git dir of github.com/google/differential-privacy> archive HEAD python/dp_accounting \
      | tar -x -C /tmp/dpa
  PYTHONPATH=/tmp/dpa/python/dp_accounting /usr/bin/python3 bench/dp_accounting_grid.py \
      > composition/testdata/dpacc_grid.csv

The grid: 213 configurations drawn with numpy's default_rng(20261122):
sampling rate q log-uniform in [1e-4, 0.5], noise multiplier z log-uniform in
[0.4, 8], steps the rounded value of a log-uniform draw in [1, 1e5], δ
log-uniform in [1e-12, 1e-3]; Poisson sampling, add/remove neighbours.

For each row: dp_accounting's PLDAccountant ε (pessimistic, connect-the-dots,
value_discretization_interval 1e-4, as shipped), its RdpAccountant ε (default
orders) and, when the pessimistic one took under --cheap seconds, the
optimistic PLD estimate (from_gaussian_mechanism(pessimistic_estimate=False),
privacy buckets, self-composed). Each row runs in a child process with a
wall-time limit (--timeout) and an address-space limit (--mem-gb); a row where
dp_accounting fails, times out or runs out of memory is written with status
"timeout", "oom" or "error" and empty ε (the Go test skips it and counts it).
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time

INTERVAL = 1e-4
SEED = 20261122
ROWS = 213


def grid():
    import numpy as np
    rng = np.random.default_rng(SEED)
    rows = []
    for i in range(ROWS):
        q = math.exp(rng.uniform(math.log(1e-4), math.log(0.5)))
        z = math.exp(rng.uniform(math.log(0.4), math.log(8)))
        steps = int(round(math.exp(rng.uniform(0, math.log(1e5)))))
        delta = math.exp(rng.uniform(math.log(1e-12), math.log(1e-3)))
        rows.append((i, q, z, steps, delta))
    return rows


def child(q, z, steps, delta, cheap):
    import dp_accounting
    from dp_accounting.pld import privacy_loss_distribution as pldlib
    from dp_accounting.rdp import rdp_privacy_accountant
    ev = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps)
    out = {}
    r = rdp_privacy_accountant.RdpAccountant()
    r.compose(ev)
    out["rdp"] = r.get_epsilon(delta)
    print(json.dumps(out), flush=True)  # partial result if the PLD dies
    t0 = time.perf_counter()
    acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=INTERVAL)
    acc.compose(ev)
    out["pld"] = acc.get_epsilon(delta)
    out["seconds"] = time.perf_counter() - t0
    print(json.dumps(out), flush=True)
    if out["seconds"] < cheap:
        p = pldlib.from_gaussian_mechanism(
            standard_deviation=z, sampling_prob=q, pessimistic_estimate=False,
            value_discretization_interval=INTERVAL, use_connect_dots=False)
        out["opt"] = p.self_compose(steps).get_epsilon_for_delta(delta)
        print(json.dumps(out), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", nargs=4, type=float)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--mem-gb", type=float, default=6)
    ap.add_argument("--cheap", type=float, default=5)
    a = ap.parse_args()
    if a.child:
        q, z, steps, delta = a.child
        lim = int(a.mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
        try:
            child(q, z, int(steps), delta, a.cheap)
        except MemoryError:
            print(json.dumps({"status": "oom"}), flush=True)
        return
    print("# dp_accounting grid: seed %d, %d rows, interval %g, add/remove, Poisson; "
          "timeout %gs, memory %g GB" % (SEED, ROWS, INTERVAL, a.timeout, a.mem_gb))
    print("row,q,z,steps,delta,status,pld_eps,rdp_eps,opt_eps,dpacc_seconds")
    for i, q, z, steps, delta in grid():
        cmd = [sys.executable, __file__, "--child", repr(q), repr(z), str(steps), repr(delta),
               "--mem-gb", str(a.mem_gb), "--cheap", str(a.cheap)]
        status, res = "ok", {}
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
            for l in lines:
                res.update(json.loads(l))
            if res.get("status") == "oom" or "MemoryError" in p.stderr:
                status = "oom"
            elif p.returncode != 0 or "pld" not in res:
                status = "error"
                sys.stderr.write("row %d: %s\n" % (i, p.stderr.strip().splitlines()[-1:] or p.returncode))
        except subprocess.TimeoutExpired as e:
            status = "timeout"
            for l in (e.stdout or b"").decode().splitlines():
                if l.startswith("{"):
                    res.update(json.loads(l))
        if status != "ok":
            res.pop("pld", None)
            res.pop("opt", None)

        def f(k):
            return repr(res[k]) if k in res else ""
        print("%d,%r,%r,%d,%r,%s,%s,%s,%s,%s" % (i, q, z, steps, delta, status, f("pld"), f("rdp"),
                                                f("opt"), "%.3f" % res["seconds"] if "seconds" in res else ""),
              flush=True)


if __name__ == "__main__":
    main()
