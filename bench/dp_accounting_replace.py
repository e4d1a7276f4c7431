#!/usr/bin/env python3
"""ε of Google's dp_accounting PLDAccountant for DP-SGD under REPLACE_ONE and
ADD_OR_REMOVE_ONE neighbours (Poisson sampling), for the comparison with
privamp's provable replace-one pair (composition/pld/replace.go). Not part of
`make test`. Writes composition/pld/testdata/dp_accounting_replace.json, which
composition/pld's TestReplaceOneAboveDPAccounting reads.

How to run (as bench/dp_accounting_pld.py: dp_accounting's source on PYTHONPATH,
Debian's /usr/bin/python3 with python3-numpy, -scipy, -absl, -attr, -mpmath):

  PYTHONPATH=/tmp/dpa/python/dp_accounting /usr/bin/python3 bench/dp_accounting_replace.py

dp_accounting's REPLACE_ONE pair for the Poisson-subsampled Gaussian is
((1−q)N(0)+qN(−1), (1−q)N(0)+qN(1)) (privacy_loss_mechanism.py,
AdjacencyType.REPLACE); value_discretization_interval 1e-4, pessimistic
(connect-the-dots) as shipped.
"""
import json
import os
import sys

import dp_accounting
from dp_accounting import pld as dppld

NR = dp_accounting.NeighboringRelation
CASES = [  # q, z, steps, delta
    (256 / 60000, 1.1, 14063, 1e-5),
    (0.01, 1.0, 1000, 1e-6),
    (0.1, 2.0, 100, 1e-8),
    (0.5, 4.0, 10, 1e-3),
    (0.001, 0.8, 2000, 1e-5),
]


def eps(q, z, steps, delta, rel):
    acc = dppld.PLDAccountant(neighboring_relation=rel, value_discretization_interval=1e-4)
    acc.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps))
    return acc.get_epsilon(delta)


def main():
    out = []
    for q, z, steps, delta in CASES:
        r = {"q": q, "z": z, "steps": steps, "delta": delta,
             "replace_one": eps(q, z, steps, delta, NR.REPLACE_ONE),
             "add_remove": eps(q, z, steps, delta, NR.ADD_OR_REMOVE_ONE)}
        print(r, flush=True)
        out.append(r)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "composition", "pld", "testdata", "dp_accounting_replace.json")
    with open(path, "w") as f:
        json.dump({"source": "dp_accounting PLDAccountant (google/differential-privacy b5b0286), value_discretization_interval 1e-4, bench/dp_accounting_replace.py",
                   "cases": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
