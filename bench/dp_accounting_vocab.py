#!/usr/bin/env python3
"""Golden numbers of Google's dp_accounting for the rest of its DpEvent
vocabulary (issue 26), for the test of composition/events
(TestDPAccountingVocabulary; testdata/dp_accounting_vocab.json there).
Not part of `make test`.

Run as bench/dp_accounting_pld.py says (dp_accounting's source on PYTHONPATH,
Debian's /usr/bin/python3):

  PYTHONPATH=/tmp/dpa/python/dp_accounting /usr/bin/python3 bench/dp_accounting_vocab.py [NAME…] \
      > composition/events/testdata/dp_accounting_vocab.json

(with case names, only those cases: their rows are then merged into the file by hand.)

Each case is an events file (composition/events' format) with a δ and an ε:
the script translates it into DpEvents (each "type" is the DpEvent class of
that name with "DpEvent" appended, each key its constructor argument) and
prints ε(δ) and δ(ε) of PLDAccountant (value_discretization_interval 1e-4)
and of RdpAccountant (default orders), or the reason an accountant refuses
the event. "dp_relation" overrides the relation given to dp_accounting where
it needs one privamp does not have (REPLACE_SPECIAL for tree aggregation).
"""
import json
import math
import os
import sys

import dp_accounting
from dp_accounting import privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant

NR = privacy_accountant.NeighboringRelation
REL = {"add_or_remove_one": NR.ADD_OR_REMOVE_ONE, "replace_one": NR.REPLACE_ONE,
       "replace_special": NR.REPLACE_SPECIAL}


def translate(e):
    t = e["type"]
    d = dp_accounting.dp_event
    simple = {
        "Gaussian": lambda: d.GaussianDpEvent(e["noise_multiplier"]),
        "Laplace": lambda: d.LaplaceDpEvent(e["noise_multiplier"]),
        "NoOp": lambda: d.NoOpDpEvent(),
        "NonPrivate": lambda: d.NonPrivateDpEvent(),
        "Unsupported": lambda: d.UnsupportedDpEvent(),
        "RandomizedResponse": lambda: d.RandomizedResponseDpEvent(e["noise_parameter"], e["num_buckets"]),
        "EpsilonDelta": lambda: d.EpsilonDeltaDpEvent(e["epsilon"], e["delta"]),
        "ZCDp": lambda: d.ZCDpEvent(e["rho"], e.get("xi", 0.0)),
        "DiscreteLaplace": lambda: d.DiscreteLaplaceDpEvent(e["noise_parameter"], int(e["sensitivity"])),
        "DiscreteGaussian": lambda: d.DiscreteGaussianDpEvent(e["sigma"], e.get("sensitivity", 1.0), e.get("dimension")),
        "MixtureOfGaussians": lambda: d.MixtureOfGaussiansDpEvent(e["standard_deviation"], e["sensitivities"], e["sampling_probs"]),
        "TruncatedSubsampledGaussian": lambda: d.TruncatedSubsampledGaussianDpEvent(
            e["dataset_size"], e["sampling_probability"], e["truncated_batch_size"], e["noise_multiplier"]),
        "SingleEpochTreeAggregation": lambda: d.SingleEpochTreeAggregationDpEvent(e["noise_multiplier"], e["step_counts"]),
        "ExponentialMechanism": lambda: d.ExponentialMechanismDpEvent(e["epsilon"]),
        "PermuteAndFlip": lambda: d.PermuteAndFlipDpEvent(e["epsilon"]),
        "PoissonSampled": lambda: d.PoissonSampledDpEvent(e["sampling_probability"], translate(e["event"])),
        "SampledWithReplacement": lambda: d.SampledWithReplacementDpEvent(
            e["source_dataset_size"], e["sample_size"], translate(e["event"])),
        "SampledWithoutReplacement": lambda: d.SampledWithoutReplacementDpEvent(
            e["source_dataset_size"], e["sample_size"], translate(e["event"])),
        "RepeatAndSelect": lambda: d.RepeatAndSelectDpEvent(translate(e["event"]), e["mean"], e["shape"]),
        "SelfComposed": lambda: d.SelfComposedDpEvent(translate(e["event"]), e["count"]),
        "Composed": lambda: d.ComposedDpEvent([translate(x) for x in e["events"]]),
    }
    return simple[t]()


def self10(ev):
    return {"type": "SelfComposed", "count": 10, "event": ev}


CASES = [
    ("epsilon-delta", "add_or_remove_one", self10({"type": "EpsilonDelta", "epsilon": 0.5, "delta": 1e-7}), 1e-5, 2.0),
    ("epsilon-delta-pure", "add_or_remove_one", {"type": "EpsilonDelta", "epsilon": 1.0, "delta": 0.0}, 1e-6, 0.5),
    ("zcdp", "add_or_remove_one", self10({"type": "ZCDp", "rho": 0.05}), 1e-5, 2.0),
    ("zcdp-xi", "add_or_remove_one", self10({"type": "ZCDp", "rho": 0.1, "xi": 0.05}), 1e-5, 4.0),
    ("discrete-laplace", "add_or_remove_one", self10({"type": "DiscreteLaplace", "noise_parameter": 0.5, "sensitivity": 2}), 1e-5, 5.0),
    ("discrete-gaussian", "add_or_remove_one", self10({"type": "DiscreteGaussian", "sigma": 5.0}), 1e-5, 1.0),
    ("tree-aggregation", "add_or_remove_one", {"type": "SingleEpochTreeAggregation", "noise_multiplier": 3.0, "step_counts": [100, 37]}, 1e-5, 1.0, "replace_special"),
    ("exponential", "add_or_remove_one", self10({"type": "ExponentialMechanism", "epsilon": 0.3}), 1e-5, 1.0),
    ("exponential-once", "add_or_remove_one", {"type": "ExponentialMechanism", "epsilon": 0.3}, 1e-5, 0.1),
    ("permute-and-flip", "add_or_remove_one", self10({"type": "PermuteAndFlip", "epsilon": 0.3}), 1e-5, 1.0),
    ("non-private", "add_or_remove_one", {"type": "Composed", "events": [{"type": "NonPrivate"}, {"type": "Gaussian", "noise_multiplier": 1.0}]}, 1e-5, 1.0),
    ("unsupported", "add_or_remove_one", {"type": "Unsupported"}, 1e-5, 1.0),
    ("sampled-with-replacement", "add_or_remove_one", {"type": "SampledWithReplacement", "source_dataset_size": 1000, "sample_size": 10, "event": {"type": "Gaussian", "noise_multiplier": 1.0}}, 1e-5, 1.0),
    ("mixture-of-gaussians", "add_or_remove_one", self10({"type": "MixtureOfGaussians", "standard_deviation": 1.0, "sensitivities": [0.0, 1.0, 2.0], "sampling_probs": [0.9, 0.08, 0.02]}), 1e-5, 1.0),
    ("mixture-two-values", "add_or_remove_one", self10({"type": "MixtureOfGaussians", "standard_deviation": 1.0, "sensitivities": [0.0, 1.0], "sampling_probs": [0.9, 0.1]}), 1e-5, 1.0),
    ("truncated-subsampled-gaussian", "add_or_remove_one", self10({"type": "TruncatedSubsampledGaussian", "dataset_size": 1000, "sampling_probability": 0.01, "truncated_batch_size": 15, "noise_multiplier": 1.0}), 1e-5, 1.0),
    ("repeat-and-select", "add_or_remove_one", {"type": "RepeatAndSelect", "mean": 10.0, "shape": 1.0, "event": {"type": "Gaussian", "noise_multiplier": 5.0}}, 1e-5, 1.0),
    # Where dp_accounting is wrong (issue 26): its PLD applies a
    # self-composed randomized response once, and its REPLACE_ONE RDP takes
    # the Gaussian's sensitivity to be 1 while its PLD takes 2.
    ("randomized-response-self-composed", "replace_one", self10({"type": "RandomizedResponse", "noise_parameter": 0.5, "num_buckets": 2}), 1e-5, 1.0),
    ("gaussian-replace-one", "replace_one", self10({"type": "Gaussian", "noise_multiplier": 4.0}), 1e-5, 1.0),
]


def run(make, ev, query):
    try:
        acc = make()
        if not acc.supports(ev):
            return None, "refused: " + str(acc._maybe_compose(ev, 1, False).error_message)
        acc.compose(ev)
        v = query(acc)
        return (None if math.isinf(v) else v), ("inf" if math.isinf(v) else None)
    except Exception as ex:  # noqa: BLE001
        return None, "error: " + str(ex)


def main():
    version = open(os.path.join(os.path.dirname(dp_accounting.__path__[0]), "VERSION")).read().split()[-1]
    only = set(sys.argv[1:])  # case names to run (all when none are given)
    out = []
    for c in CASES:
        if only and c[0] not in only:
            continue
        name, rel, event, delta, eps = c[:5]
        dprel = REL[c[5] if len(c) > 5 else rel]
        ev = translate(event)
        row = {"name": name, "neighbouring": rel, "event": event, "delta": delta, "epsilon": eps}
        if len(c) > 5:
            row["dp_accounting_relation"] = c[5]
        for acc, make in (("pld", lambda: dp_accounting.pld.PLDAccountant(dprel, value_discretization_interval=1e-4)),
                          ("rdp", lambda: rdp_privacy_accountant.RdpAccountant(neighboring_relation=dprel))):
            v, note = run(make, ev, lambda a: a.get_epsilon(delta))
            row[acc + "_epsilon"] = v
            if note:
                row[acc + "_note"] = note
            v, _ = run(make, ev, lambda a: a.get_delta(eps))
            row[acc + "_delta"] = v
        out.append(row)
    print(json.dumps({"source": "bench/dp_accounting_vocab.py (dp_accounting %s, google/differential-privacy "
                      "b5b0286e313b64a692abfc8c528d54ef47d960a0; PLDAccountant at 1e-4, RdpAccountant default "
                      "orders)" % version, "cases": out}, indent=1))


if __name__ == "__main__":
    main()
