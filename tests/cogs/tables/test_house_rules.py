"""House rules and presets at the table: ``/tute new rules: house:``, what the lobby says of
them, what ``house`` offers while it is typed, the refusal of an option the variant does not
have, ``/tute rules`` explaining them, and an arrastrado table of four."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.engine import ExchangeWindow, FortyFirst, NextDealer, PairsSing, Preset, Variant
from bot.engine.options import HOUSE_RULES, option_applies, preset_applies
from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.model import Status
from bot.words import option_name
from cogs.tables.guide import NEXT
from cogs.tables.guide_pages import guide_pages
from tests.cogs.tables._world import (
    Message,
    buttons,
    close_lobby,
    layout_texts,
    op_button,
    refusal,
    service_of,
    the_table,
)
from tests.conftest import World
from tests.tables._play import tables_of

pytestmark = pytest.mark.e2e


def lobby_text(world: World, message_id: int) -> str:
    message = next(m for m in world.channel.history() if m.id == message_id)
    (embed,) = message.embeds
    return "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)


@pytest.mark.simcord(settle_timeout=3)
async def test_a_preset_shows_in_the_lobby_with_what_it_changes(
    simcord_env: simcord.Env, world: World
) -> None:
    lobby = (
        await world.member.slash(world.channel, "tute new", variant="pairs", rules="fournier")
    ).response
    assert lobby is not None
    options = the_table(simcord_env).options
    assert options.rules is Preset.FOURNIER
    assert options.forty_first is FortyFirst.FREE and options.pairs_sing is PairsSing.EACH
    # what the preset sets in other variants is not set here
    assert options.exchange_window is ExchangeWindow.BEFORE_LEAD
    assert options.next_dealer is NextDealer.ROTATE
    rules = ", ".join(
        [
            t("house.rule.forty_first.free", "en"),
            t("house.rule.pairs_sing.each", "en"),
        ]
    )
    line = t("tables.opt.preset_with", "en", preset=t("house.preset.fournier", "en"), rules=rules)
    assert line == "Rules: Fournier (a 20 never loses the 40, each partner sings)"
    assert line in lobby_text(world, lobby.id)


@pytest.mark.simcord(settle_timeout=3)
async def test_house_rules_named_win_over_the_preset_and_show_in_the_lobby(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    env = simcord_env
    alice = world.member
    lobby = (
        await alice.slash(
            world.channel,
            "tute new",
            variant="habanero",
            house="forty_first=strict, Next_Dealer = LAST_TEN",
        )
    ).response
    assert lobby is not None
    table = the_table(env)
    assert table.options.forty_first is FortyFirst.STRICT
    assert table.options.next_dealer is NextDealer.LAST_TEN
    shown = lobby_text(world, lobby.id)
    rules = ", ".join(
        [t("house.rule.forty_first.strict", "en"), t("house.rule.next_dealer.last_ten", "en")]
    )
    assert t("tables.opt.house", "en", rules=rules) in shown
    assert "House rules: no 20 while you hold the 40" in shown
    await close_lobby(alice, lobby)

    # a Spanish server: the lobby says it in Spanish
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language="es")
    set_locale("es-ES")
    lobby = (
        await alice.slash(
            world.channel, "tute new", variant="habanero", rules="online", house="forty_first=free"
        )
    ).response
    assert lobby is not None
    table = next(t for t in tables_of(service_of(env)).values() if t.status is Status.LOBBY)
    assert table.options.forty_first is FortyFirst.FREE  # named: it wins over the preset
    assert table.options.sing_drawn is False  # not named: the preset's
    assert (
        "Reglas: Online (cantar las 20 nunca pierde las 40, no se canta con la carta recién "
        "robada, cada mano es una ronda)" in lobby_text(world, lobby.id)
    )


@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize(
    ("locale", "options", "said"),
    [
        (
            "en-US",
            {"variant": "habanero", "house": "pairs_sing=each"},
            "The option `pairs_sing` does not exist in habanero, only in pairs.",
        ),
        (
            "es-ES",
            {"variant": "habanero", "house": "pairs_sing=each"},
            "La opción `pairs_sing` no existe en habanero, solo en parejas.",
        ),
        (
            "en-US",
            {"variant": "arrastrado", "rules": "online", "house": "seats=4"},
            "The option `seats` exists only with the 40-card deck.",
        ),
        (
            "es-ES",
            {"variant": "pairs", "house": "forty_first=maybe"},
            "La regla de la casa `forty_first` no puede ser «maybe»: admite lose, strict, free.",
        ),
        (
            "en-US",
            {"variant": "pairs", "house": "**bold**=yes"},
            "“\\*\\*bold\\*\\*” is not a house rule. "
            "Here they are: forty_first, pairs_sing, tute_knights, overtrump, sing_until.",
        ),
        (
            "en-US",
            {"variant": "habanero", "rules": "parejas"},
            "The rules Parejas exist only in pairs.",
        ),
    ],
)
async def test_an_option_the_variant_does_not_have_is_refused_and_no_table_opens(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    locale: str,
    options: dict[str, str],
    said: str,
) -> None:
    set_locale(locale)
    result = await world.member.slash(world.channel, "tute new", **options)
    assert refusal(result) == said
    assert not tables_of(service_of(simcord_env))


@pytest.mark.simcord(settle_timeout=3)
async def test_house_offers_the_rules_of_the_variant_in_the_users_language(
    world: World, set_locale: Callable[[str], None]
) -> None:
    alice = world.member

    async def offered(typed: str, **filled: str) -> list[dict[str, str]]:
        return await alice.autocomplete(world.channel, "tute new", "house", typed, **filled)

    for variant in Variant:
        choices = await offered("", variant=variant.value)
        names = {c["value"].partition("=")[0] for c in choices}
        assert names == {n for n in HOUSE_RULES if option_applies(variant, n)}, variant
        assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    choices = await offered("forty_first=strict sing", variant="habanero")
    assert [c["value"] for c in choices] == [
        "forty_first=strict sing_drawn=true",
        "forty_first=strict sing_drawn=false",
        "forty_first=strict sing_until=next_card",
        "forty_first=strict sing_until=next_trick",
    ]
    assert choices[1]["name"] == "sing_drawn=false: " + t("house.rule.sing_drawn.false", "en")
    assert choices[0]["name"].endswith(t("house.default", "en"))
    set_locale("es-ES")
    (choice,) = await offered("pairs_sing=e", variant="pairs")
    assert (choice["name"], choice["value"]) == (
        "pairs_sing=each: canta cada compañero",
        "pairs_sing=each",
    )


@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_rules_explain_each_house_rule_and_preset(
    world: World, set_locale: Callable[[str], None], locale: str
) -> None:
    """The last pages of each variant's guide: every house rule of the variant in words
    (and none of another's), then the presets with what each sets there."""
    lang = locale[:2]
    set_locale(locale)
    for variant in Variant:
        pages = guide_pages(variant, lang)
        said = "\n\n".join(p for page in pages for p in page.paragraphs)
        for name in HOUSE_RULES:
            title = t("rules.house_name", lang, name=option_name(name, lang), typed=name)
            rule = f"**{title}**\n{t(f'rules.house.{name}', lang)}"
            assert (rule in said) == option_applies(variant, name), (variant, name)
    habanero = "\n".join(guide_pages(Variant.HABANERO, lang)[-1].paragraphs)
    assert "`forty_first=strict`, `sing_drawn=false`" in habanero  # online
    presets = "\n".join(guide_pages(Variant.ARRASTRADO, lang)[-1].paragraphs)
    assert f"**{t('rules.presets_title', lang)}**" in presets
    for preset in Preset:
        shown = f"**{t(f'house.preset.{preset.value}', lang)}**" in presets
        assert shown == preset_applies(Variant.ARRASTRADO, preset)
    # what a preset sets otherwise in one variant
    fournier = next(line for line in presets.splitlines() if "Fournier" in line)
    arrastrado = t("variants.short.arrastrado", lang)
    strict = t("rules.preset_in", lang, variant=arrastrado, rules="`forty_first=strict`")
    assert "`forty_first=free`" in fournier and strict in fournier

    # the pairs guide, turned to its last page: the presets of pairs
    reply = (await world.member.slash(world.channel, "tute rules", variant="pairs")).response
    assert reply is not None and reply.ephemeral
    for _ in range(len(guide_pages(Variant.PAIRS, lang)) - 1):
        reply = (await world.member.click(reply, custom_id=_next_page(reply))).response
        assert reply is not None
    last = "\n".join(layout_texts(reply))
    parejas = next(line for line in last.splitlines() if line.startswith("**Parejas**"))
    only_pairs = t("rules.preset_only", lang, variants=t("variants.short.pairs", lang))
    assert only_pairs in parejas and "`overtrump=false`" in parejas
    assert t("house.preset.havanian", lang) not in last  # habanero's


def _next_page(reply: Message) -> str:
    return next(b.custom_id for b in buttons(reply) if b.label == NEXT)


@pytest.mark.simcord(settle_timeout=3)
async def test_an_arrastrado_table_of_four_has_four_seats(
    simcord_env: simcord.Env, world: World
) -> None:
    alice = world.member
    lobby = (
        await alice.slash(world.channel, "tute new", variant="arrastrado", house="seats=4")
    ).response
    assert lobby is not None
    table = the_table(simcord_env)
    assert table.players == len(table.seats) == 4
    message = next(m for m in world.channel.history() if m.id == lobby.id)
    seats = next(f for f in message.embeds[0].fields if f.name == t("tables.seats", "en"))
    assert (seats.value or "").count("\n") == 3
    assert t("tables.opt.house", "en", rules=t("house.rule.seats.4", "en")) in lobby_text(
        world, lobby.id
    )
    for _ in range(3):
        await alice.click(lobby, custom_id=op_button(lobby, "robot"))
    assert all(seat is not None for seat in table.seats)
    robot = next(b for b in buttons(lobby) if b.custom_id == op_button(lobby, "robot"))
    assert robot.disabled  # four seats taken: the table is full
