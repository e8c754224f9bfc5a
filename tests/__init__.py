"""The test suite. Imported before any test module or conftest body.

The run keeps Python's bytecode caches (``__pycache__``, ignored by git) even where
``PYTHONDONTWRITEBYTECODE`` is set, as in the Docker image: without them every run compiles
the whole package and pytest rewrites the asserts of every test module again, which took
4 of the fast loop's 5 seconds of collection, and every process a test starts (a robot
worker, a bot under SimCord, a fresh interpreter) compiled the package once more. Caches
written here are only read back; they change nothing a test checks."""

import sys

sys.dont_write_bytecode = False
