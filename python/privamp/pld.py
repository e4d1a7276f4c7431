"""dp_accounting.pld's name for the PLD accountant, so that
``import privamp as dp_accounting`` keeps ``dp_accounting.pld.PLDAccountant()``."""

from .accountant import PLDAccountant

__all__ = ["PLDAccountant"]
