"""dp_accounting.rdp's name for the RDP accountant, so that
``import privamp as dp_accounting`` keeps ``dp_accounting.rdp.RdpAccountant()``."""

from .accountant import RdpAccountant

__all__ = ["RdpAccountant"]
