#!/usr/bin/env python3
"""Tiny-ε DP-SGD configurations (issue 23, item 5) accounted by Google's
dp_accounting PLDAccountant (pessimistic, connect-the-dots, interval 1e-4),
for composition.TestTinyEpsilon (composition/testdata/dp_accounting_tiny.json).
Not part of `make test`.

Each δ is a multiple of the configuration's exact δ(0) (computed by the Go
test's quadrature, exactSGDDelta): below it ε is small and positive, above it
ε is 0. Run as in dp_accounting_grid.py:

  PYTHONPATH=/tmp/dpa/python/dp_accounting /usr/bin/python3 bench/dp_accounting_tiny.py \
      > composition/testdata/dp_accounting_tiny.json
"""
import json

import dp_accounting

INTERVAL = 1e-4
# (q, z, steps, δ, what δ is)
CONFIGS = [
    (0.0060114, 6.806607075133, 2, 0.0003911693064861351, "issue 23 row"),
    (0.0060114, 6.806607075133, 2, 4.94355e-4, "0.99 δ(0)"),
    (0.0060114, 6.806607075133, 2, 5.04342e-4, "1.01 δ(0)"),
    (0.002697, 6.875, 2, 1.99619e-4, "0.9 δ(0)"),
    (0.002697, 6.875, 2, 2.24017e-4, "1.01 δ(0)"),
    (0.01, 8.0, 1, 4.73436e-4, "0.95 δ(0)"),
    (0.01, 8.0, 1, 5.03337e-4, "1.01 δ(0)"),
    (0.001, 3.0, 2, 1.52016e-4, "0.8 δ(0)"),
    (0.001, 3.0, 2, 1.89830e-4, "0.999 δ(0)"),
    (0.05, 20.0, 2, 1.26970e-3, "0.9 δ(0)"),
    (0.05, 20.0, 2, 1.42488e-3, "1.01 δ(0)"),
    (0.02, 10.0, 1, 7.89577e-4, "0.99 δ(0)"),
    (0.02, 10.0, 1, 3.98776e-4, "0.5 δ(0)"),
]


def main():
    rows = []
    for q, z, steps, delta, what in CONFIGS:
        ev = dp_accounting.SelfComposedDpEvent(
            dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps)
        acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=INTERVAL)
        acc.compose(ev)
        rows.append({"q": q, "z": z, "steps": steps, "delta": delta, "what": what,
                     "dp_accounting_pld": acc.get_epsilon(delta)})
    print(json.dumps({"source": "dp_accounting 0.6.0 (google/differential-privacy b5b0286e313b64a692abfc8c528d54ef47d960a0), "
                      "PLDAccountant, connect-the-dots, value_discretization_interval 1e-4",
                      "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
