"""A table's life, behind one façade (:class:`TableService`): its lobby, its play, its
robots and clocks, its saves, and what each seat sees (the views). Nothing here imports
discord: the Discord side renders the views and events it is given.

Beside it, standing on it: ``competition`` (tournaments and seasons) and ``cluster`` (the
bot as several processes)."""

from .announcement import Announcement, Said
from .errors import SaveFailed, TableError
from .events import Happened, LogEvent, Who
from .model import Seat, Status, Table
from .runtime import Runtime
from .service import TableService
from .surroundings import LostTable, Presenter
from .views import HandView, Outcome, Show, TableView

__all__ = [
    "Announcement",
    "HandView",
    "Happened",
    "LogEvent",
    "LostTable",
    "Outcome",
    "Presenter",
    "Runtime",
    "Said",
    "SaveFailed",
    "Seat",
    "Show",
    "Status",
    "Table",
    "TableError",
    "TableService",
    "TableView",
    "Who",
]
