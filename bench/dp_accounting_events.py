#!/usr/bin/env python3
"""Accounts a privamp events file (composition/events, docs/accounting.md "The
events file") with Google's dp_accounting, for the side-by-side test of
composition/events (testdata/dp_accounting.json there). Not part of `make test`.

Run as bench/dp_accounting_pld.py says (dp_accounting's source on PYTHONPATH,
Debian's /usr/bin/python3):

  PYTHONPATH=/tmp/dpa/python/dp_accounting /usr/bin/python3 bench/dp_accounting_events.py \
      --delta 1e-6 examples/events-two-phase.json

The translation is the correspondence table of docs/accounting.md: each
"type" is the DpEvent class of that name with "DpEvent" appended, each key
its constructor argument; "neighbouring" is the accountant's
neighboring_relation. It prints one JSON object: ε of PLDAccountant
(connect-the-dots, pessimistic, at --interval) and of RdpAccountant (default
orders), each with its wall time (best of --repeat).
"""
import argparse
import json

import dp_accounting
from dp_accounting import privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant

REL = {"add_or_remove_one": privacy_accountant.NeighboringRelation.ADD_OR_REMOVE_ONE,
       "replace_one": privacy_accountant.NeighboringRelation.REPLACE_ONE}


def translate(e):
    t = e["type"]
    if t == "Gaussian":
        return dp_accounting.GaussianDpEvent(e["noise_multiplier"])
    if t == "Laplace":
        return dp_accounting.LaplaceDpEvent(e["noise_multiplier"])
    if t == "NoOp":
        return dp_accounting.NoOpDpEvent()
    if t == "RandomizedResponse":
        return dp_accounting.RandomizedResponseDpEvent(e["noise_parameter"], e["num_buckets"])
    if t == "PoissonSampled":
        return dp_accounting.PoissonSampledDpEvent(e["sampling_probability"], translate(e["event"]))
    if t == "SampledWithoutReplacement":
        return dp_accounting.SampledWithoutReplacementDpEvent(
            e["source_dataset_size"], e["sample_size"], translate(e["event"]))
    if t == "SelfComposed":
        return dp_accounting.SelfComposedDpEvent(translate(e["event"]), e["count"])
    if t == "Composed":
        return dp_accounting.ComposedDpEvent([translate(x) for x in e["events"]])
    raise ValueError(f"unknown type {t}")


from dp_accounting_pld import timed  # noqa: E402  (the script's folder is on sys.path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--delta", type=float, required=True)
    ap.add_argument("--interval", type=float, default=1e-4)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    doc = json.load(open(a.file))
    rel = REL[doc.get("neighbouring", "add_or_remove_one")]
    ev = translate(doc["event"])

    def pld():
        acc = dp_accounting.pld.PLDAccountant(rel, value_discretization_interval=a.interval)
        acc.compose(ev)
        return acc.get_epsilon(a.delta)

    def rdp():
        acc = rdp_privacy_accountant.RdpAccountant(neighboring_relation=rel)
        acc.compose(ev)
        return acc.get_epsilon(a.delta)

    pe, pt = timed(pld, a.repeat)
    re, rt = timed(rdp, a.repeat)
    print(json.dumps({"file": a.file, "delta": a.delta, "interval": a.interval,
                      "pld_epsilon": pe, "pld_seconds": round(pt, 4),
                      "rdp_epsilon": re, "rdp_seconds": round(rt, 4)}))


if __name__ == "__main__":
    main()
