"""Tables on Discord, by room: ``commands`` (``/tute new``, ``rules``, ``tables``,
``history``), ``buttons`` (the lobby's, the table's and a hand's), ``presenter`` (renders what
the service says to redraw, each message on its own; ``summaries``: each deal's message
becoming its summary), ``places`` (where each message lives, kept by this side alone),
``delivery`` (each hand in a DM or a message only its player sees), ``messages`` (the
payloads and what each message last showed), ``layouts`` (the table and the hand drawn with
layout components), ``embeds`` and ``pictures`` (the words and the pictures; ``drawing``:
the thread that draws them), ``faces`` (the cards as the application's emojis),
``threads``.

Everything here renders the service's views (``bot.tables.views``): no module reaches a
hand but its viewer's.
"""

from .commands import TablesCommands, start_tables
from .faces import NO_FACES, CardFaces, faces_of, start_faces

__all__ = ["NO_FACES", "CardFaces", "TablesCommands", "faces_of", "start_faces", "start_tables"]
