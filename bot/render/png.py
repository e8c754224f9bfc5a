"""PNG encoding tuned for speed and size.

Pictures are reduced to one shared 256-colour palette before encoding: the palette holds
every shade of the felt and the wood plus the colours that the cards, panels and text
use, so nothing visible is lost, and a palette PNG is several times smaller and faster
to write than a true-colour one.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 3
"""zlib level: 3 writes a table in a few milliseconds; 6 or more saves little."""


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode ``image`` as PNG bytes.

    ``palette`` is a "P" image whose palette the picture is mapped to (no dithering);
    with None the picture is written in true colour.
    """
    if palette is not None:
        if image.mode != "RGB":  # converting an RGB picture would only copy it
            image = image.convert("RGB")
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=COMPRESS_LEVEL)
    return out.getvalue()
