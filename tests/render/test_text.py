"""Text in the bundled font: accented letters as they are, missing characters left out."""

from bot.render.text import ELLIPSIS, displayable, fit, fit_apart, text_mask, text_width


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


def test_names_shortened_alike_keep_their_last_word_apart() -> None:
    names = ["Robot 1", "Robot 2", "Robot 3", "ana"]
    room = text_width("Robot…", 20) + 1
    shortened = fit_apart(names, 20, [room] * 4)
    assert len(set(shortened)) == 4  # every line can be told from the others
    assert shortened[1].endswith(" 2") and shortened[2].endswith(" 3")
    assert shortened[3] == "ana"  # what fits is left alone
    assert all(text_width(s, 20) <= room for s in shortened)


def test_a_name_shortened_alone_keeps_its_start() -> None:
    assert fit_apart(["Bartolomé de las Casas", "ana"], 20, [80, 80]) == [
        fit("Bartolomé de las Casas", 20, 80),
        "ana",
    ]
