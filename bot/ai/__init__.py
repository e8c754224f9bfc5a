"""Robot players: they read a seat's view and choose its action (easy, normal, hard)."""

from .robot import Level, choose_action

__all__ = ["Level", "choose_action"]
