"""The card faces drawn for emojis: one picture per card and the back, each different, within
Discord's limits, and the same bytes and hash from one run to the next."""

import hashlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.engine import CODES
from bot.render import faces
from bot.render.faces import (
    BACK,
    EMOJI_KEYS,
    EMOJI_SIZE,
    HASH_LENGTH,
    MAX_EMOJI_BYTES,
    back_emoji_png,
    emoji_hash,
    emoji_png,
    face_emoji_png,
    faces_digest,
)
from bot.render.symbols import ALL_CARDS


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image


def test_there_is_a_picture_for_every_card_of_the_engine_and_the_back() -> None:
    assert sorted(EMOJI_KEYS) == sorted([*CODES, BACK])
    assert len(EMOJI_KEYS) == 41


@pytest.mark.parametrize("key", EMOJI_KEYS)
def test_every_picture_is_an_emoji_sized_square_within_discords_limit(key: str) -> None:
    png = emoji_png(key)
    image = opened(png)
    assert len(png) < MAX_EMOJI_BYTES
    assert image.size == (EMOJI_SIZE, EMOJI_SIZE)
    assert image.mode == "RGBA"
    # a card standing in a transparent square: the corners are see-through, the middle not
    last = EMOJI_SIZE - 1
    for corner in ((0, 0), (last, 0), (0, last), (last, last)):
        pixel = image.getpixel(corner)
        assert isinstance(pixel, tuple) and pixel[3] == 0
    middle = image.getpixel((EMOJI_SIZE // 2, EMOJI_SIZE // 2))
    assert isinstance(middle, tuple) and middle[3] == 255


def test_the_41_pictures_and_their_hashes_all_differ() -> None:
    pngs = {hashlib.sha256(emoji_png(key)).hexdigest() for key in EMOJI_KEYS}
    hashes = {emoji_hash(key) for key in EMOJI_KEYS}
    assert len(pngs) == len(hashes) == 41
    assert all(len(h) == HASH_LENGTH and int(h, 16) >= 0 for h in hashes)


def test_the_pngs_are_those_of_the_faces_and_the_back() -> None:
    assert face_emoji_png("12b") == face_emoji_png("12B") == emoji_png("12B")
    assert back_emoji_png() == emoji_png(BACK)
    with pytest.raises(ValueError, match="not a card code"):
        face_emoji_png("13O")


def test_the_faces_stay_legible_when_small() -> None:
    """At 32 pixels the ranks still differ (the 1 and the 7 of a suit, the 10, 11 and 12)
    and the suits still differ (their colour fills a good part of the picture)."""

    def small(key: str) -> bytes:
        image = faces.emoji_image(key).resize((32, 32), Image.Resampling.LANCZOS)
        return image.tobytes()

    assert len({small(key) for key in EMOJI_KEYS}) == 41

    def mean_colour(key: str) -> tuple[float, float, float]:
        image = faces.emoji_image(key).convert("RGB").resize((1, 1), Image.Resampling.BOX)
        pixel = image.getpixel((0, 0))
        assert isinstance(pixel, tuple)
        r, g, b = pixel[:3]
        return (r, g, b)

    # gold, red, blue, green: the suit's colour leads in each suit's pictures
    for code in ALL_CARDS:
        r, g, b = mean_colour(code)
        leader = {"O": r > b, "C": r > g and r > b, "E": b > r, "B": g > r and g > b}
        assert leader[code[-1]], code


def test_drawing_again_gives_the_same_bytes() -> None:
    before = {key: emoji_png(key) for key in EMOJI_KEYS}
    digest = faces_digest()
    faces.face_emoji_image.cache_clear()
    faces.back_emoji_image.cache_clear()
    faces.emoji_hash.cache_clear()
    assert {key: emoji_png(key) for key in EMOJI_KEYS} == before
    assert faces_digest() == digest


def test_another_process_computes_the_same_hashes() -> None:
    """The hashes name the emojis on Discord: a new process (another hash seed) must find
    them again rather than upload them anew."""
    script = (
        "from bot.render.faces import EMOJI_KEYS, emoji_hash\n"
        "print(' '.join(emoji_hash(key) for key in EMOJI_KEYS))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert run.stdout.split() == [emoji_hash(key) for key in EMOJI_KEYS]
