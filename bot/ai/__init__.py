"""Robot players: they read a seat's view and choose its action (easy, normal, hard)."""

from .robot import Level, choose_action
from .search import Searched

__all__ = ["Level", "Searched", "choose_action"]
