"""Tables on Discord, by room: ``commands`` (``/tute new``, ``rules``, ``tables``,
``history``), ``buttons`` (the lobby's, the table's and a hand's) and ``clicks`` (what a
click does), ``presenter`` (renders what the service says to redraw, each message on its
own; ``summaries``: each deal's message becoming its summary; ``notices``: Discord's line
about the game's thread, which goes), ``delivery`` (each hand in a DM or a message only its
player sees; ``pings``: the turn's ping, which goes once the turn is played), ``outlet``
(what those stand on: ``places``, where each message lives, kept by this side alone; what
each message last showed; ``drawing``, the thread that draws the pictures), ``messages``
(the payloads), ``layouts`` (the table and the hand drawn with layout components),
``embeds``, ``said`` (each event's sentence) and ``pictures`` (the words and the pictures),
``faces`` (the cards as the application's emojis), ``threads``.

Everything here renders the service's views (``bot.tables.views``): no module reaches a
hand but its viewer's.
"""

from .commands import TablesCommands
from .faces import NO_FACES, CardFaces, faces_of

__all__ = ["NO_FACES", "CardFaces", "TablesCommands", "faces_of"]
