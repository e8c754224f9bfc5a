"""An outside yardstick for our robots: OpenSpiel's ISMCTS and MCTS against the hard robot.

- ``tute_game``: one deal of Tute as an OpenSpiel game (``python_tute``), no chance nodes,
  with information state strings and resampling of the cards a seat cannot see.
- ``match``: duplicate matches as ``benchmarks/robots.py`` plays them, our hard robot (A)
  against OpenSpiel's ISMCTS or MCTS (B) at equal thinking time per decision.

Install the ``bench`` extra: ``pip install -e '.[bench]'`` (``open_spiel>=1.5`` and numpy;
tested with open_spiel 1.5 and 2.0.2 on Python 3.11, Linux x86_64). CI does not install
it, and ``tests/bench`` skips without it. Only ``open_spiel``, numpy and absl-py are
imported here, so ``pip install --no-deps 'open_spiel>=1.5' numpy absl-py`` is enough
(open_spiel's other requirements, scipy, ml-collections and PyYAML, serve parts of OpenSpiel
not used here): about 140 MB installed with open_spiel 2.0.2, of which open_spiel is 66 MB
(``open_spiel/`` 42 MB and ``pyspiel.so`` 24 MB).

On a machine with no package index, carry the virtualenv, or carry wheels: where the index
is reachable, ``pip download --only-binary=:all: --python-version 3.11 --platform
manylinux_2_28_x86_64 --no-deps -d wheels 'open_spiel>=1.5' numpy absl-py``; there,
``pip install --no-index --find-links wheels --no-deps open_spiel numpy absl-py``.

Run, from the repository root: ``python -m benchmarks.opponents.match --variant pairs
--deals 100 --budget 0.1 --processes 16 --opponent ismcts`` (``match``'s docstring has
every option).
"""
