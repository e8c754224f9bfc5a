"""Text in the bundled font: accented letters as they are, missing characters left out."""

from bot.render.text import ELLIPSIS, displayable, fit, text_mask, text_width


def test_emoji_and_unknown_scripts_are_left_out() -> None:
    assert displayable("Ana \U0001fa99 \u6f22\u5b57 ok") == "Ana ok"


def test_accented_letters_are_kept() -> None:
    assert displayable("José Ñúñez, güiro") == "José Ñúñez, güiro"


def test_fit_shortens_with_an_ellipsis() -> None:
    text = fit("José María Ñúñez de la Fuente", 18, 120)
    assert text.endswith(ELLIPSIS)
    assert text_width(text, 18) <= 120


def test_fit_keeps_what_fits() -> None:
    assert fit("Ana", 18, 200) == "Ana"


def test_an_accent_adds_ink_above_the_letter() -> None:
    plain, _, plain_top = text_mask("Ultima", 20, "ls")
    accented, _, accented_top = text_mask("Última", 20, "ls")
    assert accented_top < plain_top
    assert accented.size != plain.size


def test_empty_text_gives_an_empty_mask() -> None:
    mask, _, _ = text_mask("\U0001fa99", 16)
    assert mask.getbbox() is None


def test_every_letter_of_spanish_and_its_signs_is_in_the_font() -> None:
    """Names and labels in Spanish draw whole: no letter is left out, none a box."""
    letters = "áéíóúüñÁÉÍÓÚÜÑ¿¡ºª€çÇàèÀÈ"
    assert displayable(letters) == letters
