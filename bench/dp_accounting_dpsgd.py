#!/usr/bin/env python3
"""The yardstick process for `privamp dpsgd` (issue 27): a Python process
that imports dp_accounting and prints the sound PLD ε (PLDAccountant,
connect-the-dots, interval 1e-4) and the RDP ε of the MNIST run (q =
256/60000, z = 1.1, 14063 steps, δ = 1e-5, add/remove), as privamp dpsgd
prints its headline with RDP beside it. Timed whole by farm-bench in
bench/speed_vs.sh; PYTHONPATH must hold dp_accounting's source.
"""
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant

ev = dp_accounting.SelfComposedDpEvent(
    dp_accounting.PoissonSampledDpEvent(256 / 60000, dp_accounting.GaussianDpEvent(1.1)), 14063)
pld = pld_privacy_accountant.PLDAccountant()
pld.compose(ev)
rdp = rdp_privacy_accountant.RdpAccountant()
rdp.compose(ev)
print("PLD ε %.6f, RDP ε %.6f" % (pld.get_epsilon(1e-5), rdp.get_epsilon(1e-5)))
