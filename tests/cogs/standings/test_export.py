"""``/tute config``'s Export: the server's standings as CSV and its finished deals' game
records as JSON, for the admin alone, in their language; a name a spreadsheet would run as a
formula is written as text."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable

import pytest
import simcord
from simcord import MemberActor

from bot.client import TuteBot
from bot.config import Config
from bot.engine.referee import judge
from bot.i18n import t
from bot.tables.export import text_cell
from cogs.standings.export import RECORDS_FILE, STANDINGS_FILE, ZIP_FILE, packed
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import buttons, the_table
from tests.conftest import World, fast_bot

pytestmark = pytest.mark.e2e

FORMULA_NAME = '=HYPERLINK("http://x.example","click")'


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    """Robots that play at once: the game is only the way to some finished deals."""
    return fast_bot(test_config)


async def _play_a_game(env: simcord.Env, world: World, member: MemberActor) -> int:
    """``member`` plays a game of arrastrado with two robots to its end; its table's id."""
    lobby = (await member.slash(world.channel, "tute new", variant="arrastrado")).response
    assert lobby is not None
    robot = next(b.custom_id for b in buttons(lobby) if b.custom_id.endswith(":robot"))
    for _ in range(2):
        await member.click(lobby, custom_id=robot)
    start = next(b.custom_id for b in buttons(lobby) if b.custom_id.endswith(":start"))
    await member.click(lobby, custom_id=start)
    table = the_table(env)
    await Driver(env, world, [Player(member)]).play()
    return table.id


async def _exported(
    admin: MemberActor, world: World, lang: str
) -> tuple[simcord.ResponseMessage, list[list[str]], list[dict[str, object]]]:
    answer = (await admin.slash(world.channel, "tute config")).response
    assert answer is not None
    result = await admin.click(answer, label=t("settings.config.export", lang))
    reply = result.response
    assert reply is not None and reply.ephemeral
    assert [a.filename for a in reply.attachments] == [STANDINGS_FILE, RECORDS_FILE]
    sheet = (await reply.attachments[0].read()).decode("utf-8-sig")
    records = json.loads(await reply.attachments[1].read())
    return reply, list(csv.reader(io.StringIO(sheet))), records


@pytest.mark.simcord(settle_timeout=10)
@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_an_admin_exports_the_standings_and_the_records_in_their_language(
    simcord_env: simcord.Env,
    world: World,
    admin: MemberActor,
    set_locale: Callable[[str], None],
    locale: str,
) -> None:
    lang = locale[:2]
    env = simcord_env
    sly = world.guild.add_member(env.create_user(FORMULA_NAME))
    await sly.slash(world.channel, "tute daily")
    table_id = await _play_a_game(env, world, world.member)

    set_locale(locale)
    reply, rows, records = await _exported(admin, world, lang)
    assert reply.content is not None
    assert reply.content.startswith(t("settings.export.done", lang, members=2, deals=len(records)))
    header, *members = rows
    assert header[:6] == [
        t(f"settings.export.column.{c}", lang)
        for c in ("member_id", "name", "chips", "xp", "games", "wins")
    ]
    pairs = t("standings.family.pairs", lang)
    assert t("settings.export.column.rating", lang, family=pairs) in header
    by_id = {int(row[0]): row for row in members}
    assert set(by_id) == {sly.id, world.member.id}
    # the formula is shown as text, never run: the cell starts with '
    assert by_id[sly.id][1] == "'" + FORMULA_NAME
    assert by_id[sly.id][2] == "1100"  # starting chips and the daily ones
    assert by_id[world.member.id][1] == "alice"
    assert by_id[world.member.id][4] == "1"  # one game played

    # every finished deal of the game, each record the referee accepts
    assert records and {r["table_id"] for r in records} == {table_id}
    for entry in records:
        assert entry["members"] == {"0": str(world.member.id)}
        verdict = judge(entry["record"])
        assert verdict["finished"] and verdict["error"] is None


def test_a_cell_a_spreadsheet_would_run_is_written_as_text() -> None:
    for formula in ("=1+2", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"):
        assert text_cell(formula) == "'" + formula
    for name in ("alice", "José", "a=b", " =1"):
        assert text_cell(name) == name


def test_files_over_discords_limit_go_zipped_then_the_first_alone() -> None:
    sheet = ("a.csv", b"x" * 1000, "sheet")
    records = ("b.json", b"y" * 10_000, "records")
    assert packed([sheet, records], limit=11_000) == ([sheet, records], None)
    files, why = packed([sheet, records], limit=5000)
    assert why == "zipped" and [name for name, _, _ in files] == [ZIP_FILE]
    assert len(files[0][1]) <= 5000
    noisy = ("b.json", random.Random(1).randbytes(10_000), "records")  # does not zip
    assert packed([sheet, noisy], limit=5000) == ([sheet], "first_only")
    assert packed([sheet, noisy], limit=500) == ([], "too_large")
