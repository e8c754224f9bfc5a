"""``/tute learn``: short lessons on prepared deals against robots. ``lessons`` holds the
course, ``model`` what a lesson is made of, ``course`` the service the Discord side asks:
the view of a step and the answer to a move."""

from .course import NEXT, LessonView, Said, Tone, answer, lesson_view, wrong_moves
from .lessons import LESSONS

__all__ = ["LESSONS", "NEXT", "LessonView", "Said", "Tone", "answer", "lesson_view", "wrong_moves"]
