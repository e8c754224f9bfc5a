"""A lobby's Settings form: its host opens it from the lobby and changes the table's options
with a select each, in words, and the lobby shows the new rules; anybody else is refused,
and so is a change once the game has started. What the engine refuses is shown."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord
from simcord.components import walk_components

from bot.engine import Options, Variant
from bot.engine.options import OPTION_NAMES
from bot.i18n import t
from bot.tables import lobby
from bot.tables.form import choices, form_options
from bot.tables.model import Seat, Status
from bot.tables.views import table_view
from cogs.tables.embeds import refusal_text
from cogs.tables.settings_form import settings_panel
from tests.cogs.tables._settings import choose, open_settings, select_id
from tests.cogs.tables._world import op_button, refusal, service_of, the_table
from tests.conftest import World
from tests.discord_limits import CUSTOM_ID, SELECT_OPTION_TEXT, SELECT_OPTIONS, V2_COMPONENTS

pytestmark = pytest.mark.e2e


def lobby_text(world: World, message_id: int) -> str:
    message = next(m for m in world.channel.history() if m.id == message_id)
    (embed,) = message.embeds
    return "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)


def texts(message: simcord.ResponseMessage) -> str:
    return "\n".join(
        str(c["content"]) for c in walk_components(message.components) if c.get("type") == 10
    )


def chosen(message: simcord.ResponseMessage, option: str) -> list[str]:
    """The labels a select of the form shows chosen."""
    (select,) = [
        c
        for c in walk_components(message.components)
        if c.get("custom_id") == select_id(message, option)
    ]
    return [o["label"] for o in select["options"] if o.get("default")]


async def open_lobby(world: World, **options: str) -> simcord.ResponseMessage:
    result = await world.member.slash(world.channel, "tute new", **options)
    assert result.response is not None and not result.ephemeral
    return result.response


@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_host_changes_the_deck_and_the_lobby_shows_it(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None], locale: str
) -> None:
    set_locale(locale)
    lang = locale[:2]
    lobby_message = await open_lobby(world, variant="arrastrado")
    shown = await open_settings(world.member, lobby_message)
    panel = shown.response
    assert panel is not None and shown.ephemeral
    words = texts(panel)
    # each option named and described in words, never by its key
    for name in form_options(Variant.ARRASTRADO, Options()):
        assert t(f"settings.{name}.label", lang) in words
        assert t(f"settings.{name}.help", lang) in words
    assert not any(f"**{name}**" in words for name in OPTION_NAMES if "_" in name)
    assert chosen(panel, "deck") == [t("settings.deck.40", lang)]
    assert chosen(panel, "turn_time") == ["1 min"]
    # the lobby speaks the server's language, the form its host's
    assert t("tables.opt.deck", "en", value=36) not in lobby_text(world, lobby_message.id)

    result = await choose(world.member, panel, "deck", 36)
    assert result.acknowledged and result.response is not None
    assert the_table(simcord_env).options.deck == 36
    assert chosen(result.response, "deck") == [t("settings.deck.36", lang)]
    saved = t("settings.changed", lang, setting=t("settings.deck.label", lang), value="")
    assert saved.rstrip(".") in texts(result.response)
    assert t("tables.opt.deck", "en", value=36) in lobby_text(world, lobby_message.id)


@pytest.mark.simcord(settle_timeout=3)
async def test_the_host_changes_the_target_and_the_turn_time(
    simcord_env: simcord.Env, world: World
) -> None:
    lobby_message = await open_lobby(world, variant="habanero")
    panel = (await open_settings(world.member, lobby_message)).response
    assert panel is not None
    await choose(world.member, panel, "target", 61)
    await choose(world.member, panel, "turn_time", 3600)
    options = the_table(simcord_env).options
    assert (options.target, options.turn_time) == (61, 3600)
    shown = lobby_text(world, lobby_message.id)
    assert t("tables.opt.target", "en", value=61) in shown
    assert t("tables.opt.turn_time", "en", time=t("settings.turn_time.hour", "en")) in shown
    # a sixty-five scoring has no target: it goes from the table and from the form
    result = await choose(world.member, panel, "scoring", "sixty-five")
    assert result.response is not None
    assert the_table(simcord_env).options.target == 101
    assert ":target" not in str(result.response.components)
    assert t("tables.opt.target", "en", value=61) not in lobby_text(world, lobby_message.id)


@pytest.mark.simcord(settle_timeout=3)
async def test_anybody_but_the_host_is_refused_politely(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    lobby_message = await open_lobby(world, variant="habanero")
    bob = world.guild.add_member(simcord_env.create_user("bob"))
    await simcord_env.settle()
    set_locale("es-ES")
    result = await bob.click(lobby_message, custom_id=op_button(lobby_message, "settings"))
    assert refusal(result) == t("tables.errors.settings_host", "es")
    assert "/tute nueva" in refusal(result)
    with pytest.raises(Exception, match="settings_host"):
        await service_of(simcord_env).set_option(the_table(simcord_env).id, bob.id, "target", "61")
    assert the_table(simcord_env).options.target == 101


@pytest.mark.simcord(settle_timeout=3)
async def test_once_the_game_has_started_the_form_refuses(
    simcord_env: simcord.Env, world: World
) -> None:
    lobby_message = await open_lobby(world, variant="habanero")
    panel = (await open_settings(world.member, lobby_message)).response
    assert panel is not None
    await world.member.click(lobby_message, custom_id=op_button(lobby_message, "start"))
    table = the_table(simcord_env)
    assert table.status is Status.PLAYING
    result = await choose(world.member, panel, "target", 61)
    assert refusal(result) == t("tables.errors.settings_started", "en")
    assert table.options.target == 101
    # the lobby has no Settings button any more
    with pytest.raises(StopIteration):
        op_button(next(m for m in world.channel.history() if m.id == lobby_message.id), "settings")


@pytest.mark.simcord(settle_timeout=3)
async def test_what_the_engine_refuses_is_shown_and_nothing_changes(
    simcord_env: simcord.Env, world: World
) -> None:
    lobby_message = await open_lobby(world, variant="arrastrado", house="seats=4")
    panel = (await open_settings(world.member, lobby_message)).response
    assert panel is not None
    result = await choose(world.member, panel, "deck", 36)
    assert refusal(result) == "The option `seats` exists only with the 40-card deck."
    assert refusal(result) == refusal_text("option_40", {"option": "seats"}, "en")
    assert the_table(simcord_env).options.deck == 40


def _forms() -> list[tuple[Variant, Options]]:
    """Each variant's form: at the defaults, with values the form does not list (a server's
    turn time of 17 s, a target of 999), and with every option of the form changed."""
    cases: list[tuple[Variant, Options]] = []
    for variant in Variant:
        odd = Options(turn_time=17, target=999 if variant is Variant.HABANERO else 101)
        changed = {
            name: choices(variant, Options(), name)[-1] for name in form_options(variant, Options())
        }
        cases += [(variant, Options()), (variant, odd), (variant, _options(changed))]
    return cases


def _options(typed: dict[str, str]) -> Options:
    values: dict[str, object] = {}
    for name, value in typed.items():
        default = getattr(Options(), name)
        if name == "allow_tute" or isinstance(default, bool):
            values[name] = value == "true"
        elif isinstance(default, int):
            values[name] = int(value)
        else:
            values[name] = type(default)(value)
    return Options(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(("variant", "options"), _forms())
def test_every_form_keeps_within_discords_limits(
    variant: Variant, options: Options, lang: str
) -> None:
    host = Seat(name="**host**", user_id=10**18)
    table = lobby.new_table(
        guild_id=1,
        channel_id=1,
        host=host,
        variant=variant,
        options=options,
        language=lang,
        invited=None,
        hand_delivery="dm",
        seed=1,
        now=0.0,
        deadline=1.0,
    )
    table.id = 10**15
    view = table_view(table)
    panel = settings_panel(view, lang, saved=t("settings.intro", lang))
    components = panel.to_components()
    everything = list(walk_components(components))
    assert len(everything) <= V2_COMPONENTS, variant
    selects = [c for c in everything if c.get("type") == 3]
    assert [s["custom_id"].rsplit(":", 1)[1] for s in selects] == list(
        form_options(variant, options)
    )
    for select in selects:
        name = select["custom_id"].rsplit(":", 1)[1]
        assert len(select["custom_id"]) <= CUSTOM_ID
        assert 1 <= len(select["options"]) <= SELECT_OPTIONS
        assert [o["value"] for o in select["options"]] == list(choices(variant, options, name))
        assert sum(1 for o in select["options"] if o.get("default")) == 1, name
        for option in select["options"]:
            assert 1 <= len(option["label"]) <= SELECT_OPTION_TEXT
            assert "_" not in option["label"]
