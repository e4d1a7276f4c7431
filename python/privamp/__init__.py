"""privamp from Python: the Go library in process (a shared library loaded
with ctypes; standard library only, numpy optional for arrays).

    import privamp
    r = privamp.dpsgd(n=60000, batch=256, epochs=60, noise=1.1, delta=1e-5)
    print(r.epsilon)        # 2.38178, as privamp dpsgd prints it

Accountants with dp_accounting's interface (privamp.PLDAccountant,
privamp.RdpAccountant, privamp.PrivacyAccountant("tightest")) and events
with its names (privamp.dp_event; dp_accounting's own events are accepted);
Opacus-shaped get_noise_multiplier and OpacusAccountant; per-person ε,
plans and verification. Every answer is the command line's JSON for the
same question; bad input raises PrivampError (a ValueError) with field,
value and reason.
"""

from ._native import PrivampError, PrivampFailure, call, library_path
from . import dp_event
from .dp_event import *  # noqa: F401,F403
from .accountant import (Delta, Epsilon, NeighboringRelation, PLDAccountant, PrivacyAccountant, RdpAccountant,
                         format_loss)
from . import pld, rdp
from .opacus import OpacusAccountant, get_noise_multiplier, opacus_steps
from .amplification import DPSGDResult, curve, dpsgd, per_person_epsilon, plan, verify, worst_record

__version__ = "0.1.0"
