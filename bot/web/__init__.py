"""The web table's way in: who a player of the Discord Activity is, proved once by Discord
and then carried in a short signed session (:mod:`sessions`), from the OAuth2 code the
Activity's page receives (:mod:`activity`). The web table's app and sockets stand on it."""

from bot.web.activity import ActivityAuth, DiscordCallError, Instance, Login
from bot.web.sessions import SESSION_TTL, Session, WebAuthError, sign, verify

__all__ = [
    "SESSION_TTL",
    "ActivityAuth",
    "DiscordCallError",
    "Instance",
    "Login",
    "Session",
    "WebAuthError",
    "sign",
    "verify",
]
