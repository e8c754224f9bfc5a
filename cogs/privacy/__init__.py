"""A member's own data on Discord: ``/tute privacy show`` and ``/tute privacy erase``
(``commands``), and the erase confirmation's buttons (``buttons``)."""

from .buttons import PrivacyButton
from .commands import PrivacyCommands

__all__ = ["PrivacyButton", "PrivacyCommands"]
