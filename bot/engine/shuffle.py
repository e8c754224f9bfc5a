"""The committed shuffle (docs/game-records.md, "The shuffle"): a table's secret seeds, the
commitment that shows they were fixed before the cards were dealt, and the card order each
deal's seed and the game's public input give. Specified without Python's ``random`` so that
any language can check a deal: SHA-256, a Fisher-Yates shuffle, and nothing else.

A table's seeds form a hash chain: the last one is the table's secret, and each one before
it is the SHA-256 of the next. The table shows the hash of the first (the commitment)
before it deals; each deal's seed is revealed once that deal is over, and since nobody can
undo a hash, a revealed seed tells nothing of the deals still to come."""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import Final

VERSION: Final = 2
"""The shuffle's version in a record. 1: the older shuffle, from Python's ``random``, that
no one can check (tables dealt before the committed shuffle)."""

CHAIN: Final = 1024
"""Seeds a table's chain holds: its deals 0 to 1023 are committed (a game never deals as
many; a deal past them is dealt by the older shuffle, and its record says so)."""

SHORT: Final = 12
"""Hex digits of the commitment a table shows (the record holds all 64)."""

_SEED_BYTES: Final = 32
_WORD: Final = 4
_SPAN: Final = 1 << 32


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def deal_seed(secret: bytes, deal_no: int) -> bytes:
    """The seed of deal ``deal_no`` (from 0): the table's ``secret`` hashed ``CHAIN - 1 -
    deal_no`` times."""
    if not 0 <= deal_no < CHAIN:
        raise ValueError(f"deal {deal_no} is past the table's committed seeds")
    seed = secret
    for _ in range(CHAIN - 1 - deal_no):
        seed = sha256(seed)
    return seed


def commitment(secret: bytes) -> str:
    """What a table shows before it deals: SHA-256 of deal 0's seed, in lowercase hex."""
    return sha256(deal_seed(secret, 0)).hex()


def seed_commits(seed: bytes, deal_no: int, committed: str) -> bool:
    """Whether ``seed``, hashed ``deal_no + 1`` times, gives the commitment."""
    if len(seed) != _SEED_BYTES or not 0 <= deal_no < CHAIN:
        return False
    for _ in range(deal_no + 1):
        seed = sha256(seed)
    return seed.hex() == committed.lower()


class CommittedShuffle:
    """Shuffles a deck with one deal's seed and the game's public input (UTF-8 text):
    Fisher-Yates from the last position down, each index drawn from the stream of SHA-256
    blocks of seed || input || counter (4 bytes, big-endian, from 0), read as 4-byte
    big-endian words, a word at or over the largest multiple of the range below 2**32
    thrown away (no bias)."""

    __slots__ = ("_block", "_counter", "_offset", "_prefix")

    def __init__(self, seed: bytes, public_input: str) -> None:
        if len(seed) != _SEED_BYTES:
            raise ValueError("a deal's seed is 32 bytes")
        self._prefix = seed + public_input.encode()
        self._counter = 0
        self._block = b""
        self._offset = 0

    def _word(self) -> int:
        if self._offset == len(self._block):
            self._block = sha256(self._prefix + self._counter.to_bytes(_WORD, "big"))
            self._counter += 1
            self._offset = 0
        word = int.from_bytes(self._block[self._offset : self._offset + _WORD], "big")
        self._offset += _WORD
        return word

    def below(self, n: int) -> int:
        """An index from 0 to ``n - 1``, each equally likely."""
        limit = _SPAN - _SPAN % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def shuffle(self, deck: MutableSequence[int]) -> None:
        """Shuffle ``deck`` in place: for i from its last position down to 1, swap the card
        at i with the one at an index drawn from 0 to i."""
        for i in range(len(deck) - 1, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
