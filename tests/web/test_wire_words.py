"""What a socket says in words, in the viewer's language: why a card is held back, what each
declaration's button says (the same catalog text as the Discord buttons), and the question
before capote or resigning; an action the table refuses, said in words too."""

from __future__ import annotations

import pytest

from bot.engine import CODES, Action, Kind, parse_card
from bot.i18n import t
from bot.tables.views import HandView, Refusal
from bot.web import wire
from bot.words import action_label, card_name, refusal_text, suit_text

OROS, COPAS, ESPADAS, BASTOS = range(4)


def card(code: str) -> int:
    return parse_card(code)


def hand(**changes: object) -> HandView:
    """Seat 0's hand on its turn: copas led, so only its copas may be played; trumps are
    espadas; it may sing in bastos (20) and espadas (40), swap its 7 for the turned card,
    announce capote or resign."""
    held = tuple(card(c) for c in ("12E", "11E", "12B", "11B", "7E", "3C", "1O"))
    base: dict[str, object] = {
        "table_id": 1,
        "seat": 0,
        "occupant": None,
        "deal_no": 2,
        "trick_no": 5,
        "playing": True,
        "cards": held,
        "playable": frozenset({card("3C")}),
        "refusals": tuple(
            Refusal(c, "illegal.must_follow", {"card": c, "suit": COPAS})
            for c in held
            if c != card("3C")
        ),
        "declarations": (
            Action.sing(0, BASTOS),
            Action.sing(0, ESPADAS),
            Action.simple(0, Kind.EXCHANGE),
            Action.simple(0, Kind.CAPOTE),
            Action.simple(0, Kind.RESIGN),
        ),
        "your_turn": True,
        "may_declare": True,
        "trump": ESPADAS,
        "exchange_card": card("1E"),
        "target": 101,
        "stock_left": 12,
        "trick": (),
        "turn_deadline": None,
        "exchange_gives": card("7E"),
    }
    base.update(changes)
    return HandView(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_held_back_card_says_why_in_the_viewers_language(lang: str) -> None:
    sent = wire.hand_state(hand(), lang)
    assert sent["playable"] == ["3C"]
    assert {r["card"] for r in sent["refusals"]} == set(sent["cards"]) - {"3C"}
    for refusal in sent["refusals"]:
        assert refusal["key"] == "tables.errors.illegal.must_follow"
        assert refusal["text"] == t(
            "tables.errors.illegal.must_follow", lang, suit=suit_text(COPAS, lang, symbol=False)
        )


def test_a_refusal_names_its_cards_and_suits_in_spanish_and_english() -> None:
    es = wire.hand_state(hand(), "es")["refusals"][0]["text"]
    en = wire.hand_state(hand(), "en")["refusals"][0]["text"]
    assert "copas" in es and "🍷" not in es, "suits in words: the page draws no emoji"
    assert "cups" in en
    beaten = refusal_text("illegal.must_beat", {"beat": card("10O")}, "es")
    assert "la Sota de oros" in beaten
    assert "the Jack of coins" in refusal_text("illegal.must_beat", {"beat": card("10O")}, "en")


def test_the_declarations_are_labelled_as_the_discord_buttons() -> None:
    es = {d["code"]: d for d in wire.hand_state(hand(), "es")["declarations"]}
    en = {d["code"]: d for d in wire.hand_state(hand(), "en")["declarations"]}
    assert list(es) == ["sB", "sE", "x", "k", "r"]
    assert es["sB"]["label"] == t("hand.sing", "es", points=20, suit="bastos")
    assert es["sB"]["label"] == "Cantar las 20 en bastos"
    assert action_label(  # the Discord buttons' text: the same, with the suit's symbol
        Action.sing(0, BASTOS), "es", trump=ESPADAS, target=101, exchange_card=0, exchange_gives=-1
    ) == t("hand.sing", "es", points=20, suit=suit_text(BASTOS, "es"))
    assert "Cantar las 40" in es["sE"]["label"] and "espadas" in es["sE"]["label"]
    assert en["sE"]["label"] == "Sing 40 in swords"
    assert es["x"]["label"] == "Cambia tu 7 de espadas por el As de espadas"
    assert en["x"]["label"] == "Swap your 7 of swords for the Ace of swords"
    assert (es["k"]["label"], en["k"]["label"]) == ("Capote", "Capote")
    assert (es["r"]["label"], en["r"]["label"]) == ("Abandonar", "Resign")


def test_capote_and_resigning_ask_first_and_nothing_else_does() -> None:
    for lang in ("en", "es"):
        sent = {d["code"]: d for d in wire.hand_state(hand(), lang)["declarations"]}
        for code in ("k", "r"):
            assert sent[code]["ask"] == t(f"hand.asked.{code}", lang)
            assert sent[code]["yes"] == t(f"hand.asked.yes.{code}", lang)
        assert all("ask" not in sent[code] for code in ("sB", "sE", "x"))
    assert "capote" in wire.hand_state(hand(), "es")["declarations"][3]["ask"].lower()


def test_a_bid_a_pass_a_claim_and_a_tute_in_words() -> None:
    offered = (Action.bid(0, 110), Action.simple(0, Kind.PASS), Action.simple(0, Kind.CLAIM))
    es = [d["label"] for d in wire.hand_state(hand(declarations=offered), "es")["declarations"]]
    assert es == ["Pujar 110", "Paso", "Reclamar 101"]
    tute = Action.simple(0, Kind.TUTE)
    assert action_label(tute, "es", trump=0, target=101, exchange_card=0, exchange_gives=-1) == t(
        "hand.tute", "es"
    )


def test_card_names_in_spain_spanish() -> None:
    assert card_name(card("12O"), "es") == "Rey de oros"
    assert card_name(card("11C"), "es") == "Caballo de copas"
    assert card_name(card("10E"), "es", the=True) == "la Sota de espadas"
    assert card_name(card("1B"), "es", the=True) == "el As de bastos"
    assert card_name(card("12O"), "en") == "King of coins"
    assert all(card_name(n, "es") for n in range(len(CODES)))


@pytest.mark.parametrize(
    ("key", "params", "lang", "said"),
    [
        ("not_seated", {}, "es", "tables.errors.not_seated"),
        ("stale", {}, "en", "tables.errors.stale"),
        ("illegal.not_your_turn", {}, "es", "tables.errors.illegal.not_your_turn"),
        ("illegal.no_pair", {"suit": OROS}, "en", None),
    ],
)
def test_a_refused_message_carries_its_text(
    key: str, params: dict[str, object], lang: str, said: str | None
) -> None:
    sent = wire.refused(key, params, lang)  # type: ignore[arg-type]
    assert sent["type"] == "refused" and sent["key"] == f"tables.errors.{key}"
    if said is not None:
        assert sent["text"] == t(said, lang)
    else:
        assert "coins" in sent["text"]


def test_an_unknown_refusal_still_says_something() -> None:
    assert refusal_text("no_such_thing", {}, "es") == t("tables.errors.malformed", "es")
    assert refusal_text("illegal.must_follow", {}, "en") == t("tables.errors.malformed", "en")
