"""The card table's page in headless Chromium, on the real app and table service: members
play a whole game by tapping cards, a spectator sees no hand, a card played from the chat's
button shows in the page, a held-back card is refused in words, and the page comes back by
itself when its socket drops or the bot restarts mid-trick. Where no table plays, a page
opens one, seats a robot and starts it, or plays a whole game there by clicks alone to its
game over and rematch; another page there follows the new lobby and sits down; each sees
only the lobby's buttons it may press."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine import CODES, Options, Variant
from bot.i18n import t
from bot.sandbox.web_pictures import PLAYABLE, tap_a_card
from bot.storage import Database, open_database
from bot.tables.model import Status, Table
from bot.tables.service import TableService
from bot.web.sessions import SESSION_TTL
from tests.tables._play import opened, table_of
from tests.tables.test_service import settle
from tests.web.browser import (
    ANA,
    CHANNEL,
    EVA,
    GUILD,
    INIGO,
    LUIS,
    MEMBERS,
    Served,
    lobby_buttons,
    open_page,
    open_waiting_page,
    wait_lobby_buttons,
)
from tests.web.browser import browser as browser  # the fixture
from tests.web.conftest import quick_hub

pytestmark = pytest.mark.e2e


async def _pairs(
    service: TableService, members: tuple[int, ...], options: Options | None = None
) -> Table:
    """A pairs table of ``members`` and robots, started (``options``: the defaults)."""
    host, *others = members
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=host,
        host_name=MEMBERS[host],
        variant=Variant.PAIRS,
        options=options or Options(),
        language="en",
    )
    for member in others:
        await service.join(table.id, member, MEMBERS[member])
    while None in table.seats:
        await service.add_robot(table.id, host)
    await service.start(table.id, host)
    await settle(service, table)
    return table


@pytest.fixture
async def served(db: Database) -> AsyncIterator[Served]:
    served = Served(quick_hub(db))
    await served.start()
    yield served
    await served.stop()


async def _tap_first(*pages: Any) -> None:
    """The first of these pages whose player is to play taps a card."""
    for _ in range(600):
        for page in pages:
            if await tap_a_card(page):
                return
        await asyncio.sleep(0.05)
    pytest.fail("nobody could play")


async def _play_out(table: Table, pages: list[Any]) -> int:
    """Each page taps a card when its player is to play, until the game ends: the taps."""
    taps = 0
    async with asyncio.timeout(240):
        while table.status is Status.PLAYING:
            tapped = False
            for page in pages:
                if await tap_a_card(page):
                    taps += 1
                    tapped = True
            if not tapped:
                await asyncio.sleep(0.05)
    return taps


async def test_two_members_and_two_robots_play_a_whole_game_in_the_page(
    served: Served, browser: Any
) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    ana = await open_page(browser, served, ANA)
    luis = await open_page(browser, served, LUIS, width=1280)
    for page, user in ((ana, ANA), (luis, LUIS)):
        seat = table.seat_of(user)
        assert await page.evaluate("document.body.dataset.seat") == str(seat)
        cards = await page.eval_on_selector_all("button.card", "bs => bs.map(b => b.dataset.card)")
        assert len(cards) == len(table.deal.hand(seat))  # type: ignore[union-attr]
    taps = await _play_out(table, [ana, luis])
    assert table.status is Status.FINISHED
    assert taps >= 20  # two members, ten tricks a deal
    for page in (ana, luis):
        await page.wait_for_function("document.body.dataset.status === 'finished'")


async def test_a_spectator_sees_the_table_and_no_hand(served: Served, browser: Any) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    eva = await open_page(browser, served, EVA)
    assert await eva.evaluate("document.body.dataset.seat") == ""
    assert await eva.query_selector_all("button.card") == []
    ana, luis = await open_page(browser, served, ANA), await open_page(browser, served, LUIS)
    await _tap_first(ana, luis)
    await settle(served.service, table)
    on_table = len(table.deal.trick)  # type: ignore[union-attr]
    await eva.wait_for_function(
        f"document.querySelectorAll('#trick [data-card]').length === {on_table}"
    )
    assert await eva.query_selector_all("button.card") == []
    assert table.status is Status.PLAYING


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_game_without_spectators_shows_others_only_that_it_is_private(
    served: Served, browser: Any, language: str
) -> None:
    table = await _pairs(served.service, (ANA, LUIS), Options(spectators=False))
    eva = await open_page(browser, served, EVA, language=language, state="private")
    banner = await eva.inner_text("#banner-text")
    assert banner == t("web.watch_private", language)
    assert await eva.query_selector_all("#trick [data-card]") == []
    assert await eva.query_selector_all("button.card") == []
    ana = await open_page(browser, served, ANA)  # its players see it as ever
    assert await ana.evaluate("document.body.dataset.seat") == str(table.seat_of(ANA))


async def test_a_card_from_the_chat_button_shows_in_the_page_and_the_next_from_the_page(
    served: Served, browser: Any
) -> None:
    service = served.service
    table = await _pairs(service, (ANA,))
    ana = await open_page(browser, served, ANA)
    deal = table.deal
    assert deal is not None and deal.turn == table.seat_of(ANA)
    hand = service.hand_view(table.id, deal.turn)
    card = sorted(hand.playable)[0]
    # The chat's button: the same service call, and every presenter redraws.
    await service.click(table.id, ANA, CODES[card], deal_no=hand.deal_no, trick_no=hand.trick_no)
    await settle(service, table)
    await ana.wait_for_selector(f"#trick [data-card='{CODES[card]}'], #last-trick")
    assert CODES[card] not in await ana.eval_on_selector_all(
        "button.card", "bs => bs.map(b => b.dataset.card)"
    )
    before = len(table.deal.hand(table.seat_of(ANA)))  # type: ignore[union-attr]
    await _tap_first(ana)
    await settle(service, table)
    assert len(table.deal.hand(table.seat_of(ANA))) == before - 1  # type: ignore[union-attr]


async def test_a_held_back_card_is_refused_in_words(served: Served, browser: Any) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    seat = table.deal.turn  # type: ignore[union-attr]
    waiting = LUIS if table.seat_of(ANA) == seat else ANA
    page = await open_page(browser, served, waiting, language="es")
    await page.click("button.card")
    await page.wait_for_function("document.querySelector('#notice').textContent.trim() !== ''")
    assert table.deal.turn == seat  # type: ignore[union-attr]  # nothing was played


async def test_names_are_shown_as_text(served: Served, browser: Any) -> None:
    await _pairs(served.service, (INIGO, ANA))
    page = await open_page(browser, served, ANA)
    assert await page.query_selector("b") is None
    text = await page.text_content("body")
    assert "Íñigo <b>" in (text or "")


async def test_a_dropped_socket_comes_back_by_itself(served: Served, browser: Any) -> None:
    await _pairs(served.service, (ANA, LUIS))
    page = await open_page(browser, served, ANA)
    sockets = list(served.hub.peers(next(iter(served.service.tables))))
    for peer in sockets:
        await peer.ws.close()  # type: ignore[attr-defined]
    await page.wait_for_function("document.body.dataset.state === 'playing'")
    for _ in range(600):  # the page's new socket is at the table
        if served.hub.peers(next(iter(served.service.tables))):
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("the page did not come back")


async def test_a_page_whose_session_ran_out_logs_in_again_at_once_and_plays_on(
    served: Served, browser: Any
) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    deal = table.deal
    assert deal is not None
    player = ANA if table.seat_of(ANA) == deal.turn else LUIS
    page = await open_page(browser, served, player)
    logins: list[str] = []
    page.on("request", lambda r: logins.append(r.url) if r.url.endswith("/api/token") else None)
    await page.evaluate(
        "() => { window.states = []; new MutationObserver(() =>"
        " window.states.push(document.body.dataset.state)).observe(document.body,"
        " {attributes: true, attributeFilter: ['data-state']}); }"
    )
    served.clock.now += SESSION_TTL
    before = len(deal.actions)
    await page.locator(PLAYABLE).first.click()
    for _ in range(600):  # told, then logged in again, and at the table on a new session
        peers = served.hub.peers(table.id)
        if logins and any(p.session.expires > served.clock() for p in peers):  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("the page did not log in again")
    assert len(deal.actions) == before  # the card sent on the old session was not played
    assert "reconnecting" not in await page.evaluate("window.states")  # no alarm shown
    await page.wait_for_function("document.body.dataset.state === 'playing'")
    assert await tap_a_card(page)
    assert len(deal.actions) > before


async def test_the_bot_restarts_mid_trick_and_the_pages_reconnect(
    served: Served, browser: Any, tmp_path: Any
) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    ana = await open_page(browser, served, ANA)
    luis = await open_page(browser, served, LUIS)
    await _tap_first(ana, luis)
    await settle(served.service, table)
    trick = list(table.deal.trick)  # type: ignore[union-attr]
    await served.stop()
    await served.service.suspend()  # the bot stops: clocks kept, the file closed after
    db = await open_database(tmp_path / "t.db")
    try:
        hub = quick_hub(db)
        again = hub.service
        await again.restore()
        await served.restart(hub)
        for page in (ana, luis):
            await page.wait_for_function(
                "['reconnecting', 'connecting'].includes(document.body.dataset.state)"
                " || document.body.dataset.state === 'playing'"
            )
            await page.wait_for_function("document.body.dataset.state === 'playing'")
        restored = table_of(again, table.id)
        assert list(restored.deal.trick) == trick  # type: ignore[union-attr]
        shown = await ana.eval_on_selector_all("#trick [data-card]", "cs => cs.length")
        assert shown == len(trick)
    finally:
        await db.close()


async def _lobby(service: TableService, host: int, variant: Variant = Variant.PAIRS) -> Table:
    """A lobby in the channel, opened from the chat by ``host``."""
    return await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=host,
        host_name=MEMBERS[host],
        variant=variant,
        options=Options(),
        language="en",
    )


def _the_table(service: TableService) -> Table:
    """The one table of the service's."""
    (table,) = service.tables.values()
    return table


async def test_a_page_with_no_table_opens_one_seats_a_robot_starts_and_plays(
    served: Served, browser: Any
) -> None:
    ana = await open_waiting_page(browser, served, ANA)
    assert await lobby_buttons(ana) == []
    await ana.locator("button.open[data-variant='habanero']").click()
    await ana.wait_for_function("document.body.dataset.status === 'lobby'")
    assert await ana.evaluate("document.body.dataset.state") == "playing"
    await wait_lobby_buttons(ana, "start", "robot", "leave")
    table = _the_table(served.service)
    assert table.variant is Variant.HABANERO and table.host_id == ANA
    assert await ana.text_content("#variant .name") == "Habanero"
    await ana.locator("button.lobby[data-do='robot']").click()
    await wait_lobby_buttons(ana, "start", "leave")  # no seat free: no robot to add
    assert None not in table.seats
    # the commitment to the shuffle, shown before the start
    assert await ana.text_content("#shuffle") == f"🔒 Shuffle {table.short_commitment}"
    await ana.locator("button.lobby[data-do='start']").click()
    await ana.wait_for_function("document.body.dataset.status === 'playing'")
    assert await lobby_buttons(ana) == []
    # the page's Start drew a nonce of its own, which the shuffle mixes in
    assert re.fullmatch(r"web:[0-9a-f]{32}", table.public_input)
    assert await ana.is_visible("#shuffle")
    await settle(served.service, table)
    seat = table.seat_of(ANA)
    assert seat is not None
    held = set(await ana.eval_on_selector_all("button.card", "bs => bs.map(b => b.dataset.card)"))
    deal_no = table.deal_no
    assert held == {CODES[card] for card in table.deal.hand(seat)}  # type: ignore[union-attr]
    await _tap_first(ana)
    await settle(served.service, table)
    assert table.deal is not None and table.deal_no == deal_no
    assert not held <= {CODES[card] for card in table.deal.hand(seat)}, "a card was played"


async def test_a_member_plays_a_whole_game_by_clicks_alone_from_open_to_rematch(
    served: Served, browser: Any
) -> None:
    """No chat and no call to the service: the page opens a pairs table, Start seats the
    robots, each of Ana's turns is a click on a card it offers, and the game over says who
    won, the rounds, what moved for her and how the last deal ended; Rematch opens the
    next game."""
    ana = await open_waiting_page(browser, served, ANA)
    await ana.locator("button.open[data-variant='pairs']").click()
    await wait_lobby_buttons(ana, "start", "robot", "leave")
    await ana.locator("button.lobby[data-do='start']").click()  # robots take the seats
    await ana.wait_for_function("document.body.dataset.status === 'playing'")
    taps = 0
    async with asyncio.timeout(240):
        while await ana.evaluate("document.body.dataset.status") == "playing":
            if await tap_a_card(ana):
                taps += 1
            else:
                await asyncio.sleep(0.05)
    assert taps == 10  # her card of each of the deal's ten tricks
    await ana.locator("#result").wait_for(state="visible")
    winner = await ana.text_content("#result-winner")
    assert winner and "**" not in winner
    rounds = await ana.locator("#result-rounds li").all_text_contents()
    assert len(rounds) == 2 and any("Ana" in line for line in rounds)
    tally = await ana.locator("#result-tally li").all_text_contents()
    assert len(tally) == 1 and tally[0].startswith("Ana: ") and "XP" in tally[0]
    title = await ana.text_content("#result-deal-title")
    assert title and title.startswith("Deal 1 ")
    ended = await ana.locator("#result-deal li").all_text_contents()
    assert len(ended) == 3 and ended[0].endswith(" the round.")  # then each side's points
    assert await ana.locator("#result-hints").is_hidden()  # nobody asked for a hint
    await ana.locator("#rematch").click()
    await ana.wait_for_function(
        "document.body.dataset.status === 'lobby' && document.body.dataset.seat === '0'"
    )
    assert "start" in await lobby_buttons(ana)  # hers to start again


async def test_a_page_waiting_in_the_channel_follows_the_new_lobby_and_sits_down(
    served: Served, browser: Any
) -> None:
    luis = await open_waiting_page(browser, served, LUIS, width=1280, height=800)
    ana = await open_waiting_page(browser, served, ANA, language="es")
    await ana.locator("button.open[data-variant='pairs']").click()
    await luis.wait_for_function("document.body.dataset.status === 'lobby'")
    await wait_lobby_buttons(luis, "join")  # never a start: Luis does not host it
    assert await luis.locator("button.open").first.is_hidden()
    await luis.locator("button.lobby[data-do='join']").click()
    await wait_lobby_buttons(luis, "leave")
    table = _the_table(served.service)
    assert table.seat_of(LUIS) is not None
    await luis.wait_for_function(
        f"document.querySelector('.seat.me')?.dataset.seat === '{table.seat_of(LUIS)}'"
    )
    await ana.wait_for_function(
        "[...document.querySelectorAll('.seat .name')].some(n => n.textContent === 'Luis')"
    )
    await wait_lobby_buttons(ana, "start", "robot", "leave")
    assert await ana.text_content("#variant .name") == "Tute por parejas"


async def test_each_member_sees_only_the_lobby_buttons_they_may_press(
    served: Served, browser: Any
) -> None:
    service = served.service
    table = await _lobby(service, ANA)
    await service.join(table.id, LUIS, MEMBERS[LUIS])
    ana, luis = await open_page(browser, served, ANA), await open_page(browser, served, LUIS)
    eva = await open_page(browser, served, EVA)
    await wait_lobby_buttons(ana, "start", "robot", "leave")
    await wait_lobby_buttons(luis, "leave")
    await wait_lobby_buttons(eva, "join")
    for _ in range(2):
        await service.add_robot(table.id, ANA)
    await wait_lobby_buttons(eva)  # the table is full: a spectator has nothing to press
    await wait_lobby_buttons(luis, "leave")
    await wait_lobby_buttons(ana, "start", "leave")
    assert await eva.locator(".seat.empty").count() == 0


async def test_after_a_table_ends_the_page_looks_for_the_next_or_offers_to_open_one(
    served: Served, browser: Any
) -> None:
    ana = await open_waiting_page(browser, served, ANA)
    await ana.locator("button.open[data-variant='arrastrado']").click()
    await wait_lobby_buttons(ana, "start", "robot", "leave")
    await ana.locator("button.lobby[data-do='leave']").click()  # alone: the table closes
    assert await _question(ana) == t("tables.confirm.close_alone", "en")  # as the chat asks
    await ana.locator("#ask-yes").click()
    await ana.wait_for_function("document.body.dataset.status === 'closed'")
    await ana.locator("#again").click()
    await ana.locator("button.open[data-variant='pairs']").wait_for(state="visible")
    assert await ana.evaluate("document.body.dataset.state") == "no_table"
    # a table opened in the chat meanwhile: the waiting page follows it
    await _lobby(served.service, LUIS)  # published as it opens
    await wait_lobby_buttons(ana, "join")
    assert await ana.locator("button.open").first.is_hidden()


# --------------------------------------------------------------- what the chat's table does


async def _shot(page: Any, name: str) -> None:
    """A picture of the page, where ``TUTE_SHOTS`` names a folder (else none)."""
    folder = os.environ.get("TUTE_SHOTS")
    if folder:
        await page.screenshot(path=f"{folder}/{name}.png")


async def _question(page: Any) -> str:
    await page.locator("dialog#ask[open]").wait_for(state="visible")
    return (await page.text_content("#ask-text")) or ""


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("es", 1280)])
async def test_a_member_leaves_from_the_page_once_told_what_it_costs(
    served: Served, browser: Any, lang: str, width: int
) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    page = await open_page(browser, served, ANA, language=lang, width=width)
    leave = page.locator("#game button.game[data-do='leave']")
    assert (await leave.text_content()) == t("tables.btn.leave_game", lang)
    await leave.click()
    assert await _question(page) == t("tables.confirm.leave.robot", lang, stake=0)
    assert (await page.text_content("#ask-yes")) == t("tables.btn.confirm_leave", lang)
    await _shot(page, f"card-table-leave-{lang}-{width}")
    await page.locator("#ask-yes").click()
    await page.wait_for_function(
        f"document.querySelector('#notice').textContent === {t('tables.done.leave', lang)!r}"
    )
    seat = table.seats[table.seat_of(ANA) or 0]
    assert seat is not None and seat.left and table.status is Status.PLAYING
    for what in ("leave", "cancel"):  # no more leaving, nor voting: only looking
        await page.locator(f"#game button.game[data-do='{what}']").wait_for(state="hidden")
    assert await page.locator("#game button.game[data-do='tricks']").is_visible()


@pytest.mark.parametrize(("lang", "width"), [("es", 390), ("en", 1280)])
async def test_a_vote_to_cancel_is_asked_first_and_no_changes_nothing(
    served: Served, browser: Any, lang: str, width: int
) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    page = await open_page(browser, served, ANA, language=lang, width=width)
    await page.locator("#game button.game[data-do='cancel']").click()
    assert await _question(page) == t("tables.confirm.cancel", lang, missing=1)
    await _shot(page, f"card-table-cancel-{lang}-{width}")
    await page.locator("#ask-no").click()
    await page.locator("dialog#ask[open]").wait_for(state="detached")
    assert table.status is Status.PLAYING and not table.cancel_votes


async def test_a_spectator_has_no_leave_nor_vote(served: Served, browser: Any) -> None:
    await _pairs(served.service, (ANA, LUIS))
    page = await open_page(browser, served, EVA)
    for what in ("leave", "cancel"):
        assert await page.locator(f"#game button.game[data-do='{what}']").is_hidden()


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("es", 1280)])
async def test_the_game_over_says_who_won_what_moved_and_offers_a_rematch(
    served: Served, browser: Any, lang: str, width: int
) -> None:
    service = served.service
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name=MEMBERS[ANA],
        variant=Variant.ARRASTRADO,
        options=Options(bet=20),
        language=lang,
    )
    page = await open_page(browser, served, ANA, language=lang, width=width)
    stakes = page.locator("#stakes li")
    await stakes.first.wait_for(state="visible")
    assert await stakes.all_text_contents() == [
        t("tables.opt.bet", lang, bet=20),
        t("tables.opt.arrastrado_pays", lang),
    ]
    await _shot(page, f"card-table-stakes-{lang}-{width}")
    while None in table.seats:
        await service.add_robot(table.id, ANA)
    await service.start(table.id, ANA)
    await settle(service, table)
    await _play_out(table, [page])
    assert table.status is Status.FINISHED
    await page.locator("#result").wait_for(state="visible")
    assert await page.text_content("#notice") == ""  # no cante of the last deal stays
    winner = await page.text_content("#result-winner")
    assert winner and "**" not in winner
    tally = await page.locator("#result-tally li").all_text_contents()
    assert len(tally) == 1 and tally[0].startswith("Ana: ")
    assert {"en": "chips", "es": "fichas"}[lang] in tally[0]  # what moved, in words
    assert await page.locator("#replay-deal").is_visible()
    # every side's rounds show, and no name in the score is cut for them
    assert await page.locator("#scores .rounds").count() == len(table.seats)
    cut = await page.eval_on_selector_all(
        "#scores .who", "names => names.filter(n => n.scrollWidth > n.clientWidth).length"
    )
    assert cut == 0, "a name in the score is cut"
    await _shot(page, f"card-table-result-{lang}-{width}")
    await page.locator("#rematch").click()
    await page.wait_for_function(
        "document.body.dataset.status === 'lobby' && document.body.dataset.seat === '0'"
    )
    assert await page.locator("#result").is_hidden()


async def test_a_refusal_goes_when_the_trick_it_was_about_is_over(
    served: Served, browser: Any
) -> None:
    service = served.service
    table = await _pairs(service, (ANA, LUIS))
    deal = table.deal
    assert deal is not None
    waiting = LUIS if table.seat_of(ANA) == deal.turn else ANA
    page = await open_page(browser, served, waiting, language="es")
    await page.click("button.card")
    await page.wait_for_function("document.querySelector('#notice').textContent !== ''")
    trick = service.hand_view(table.id, deal.turn).trick_no
    async with asyncio.timeout(60):
        while (hand := service.hand_view(table.id, deal.turn)).trick_no == trick:
            user = next(u for u in (ANA, LUIS) if table.seat_of(u) == deal.turn)
            code = CODES[sorted(hand.playable)[0]]
            await service.click(table.id, user, code, deal_no=hand.deal_no, trick_no=hand.trick_no)
            await settle(service, table)
    await page.wait_for_function("document.querySelector('#notice').textContent === ''")


@pytest.mark.parametrize(("lang", "width"), [("es", 390), ("en", 1280)])
async def test_the_deals_tricks_open_from_the_page_for_players_and_spectators(
    served: Served, browser: Any, lang: str, width: int
) -> None:
    table = await _pairs(served.service, (ANA, LUIS))
    ana = await open_page(browser, served, ANA, language=lang, width=width)
    luis = await open_page(browser, served, LUIS, language=lang, width=width)
    async with asyncio.timeout(60):
        while not served.service.history(table.id, ANA, GUILD).tricks:
            await _tap_first(ana, luis)
    await settle(served.service, table)
    eva = await open_page(browser, served, EVA, language=lang, width=width)
    assert await eva.locator("#game button.game[data-do='leave']").is_hidden()
    for page in (ana, eva):
        tricks = page.locator("#game button.game[data-do='tricks']")
        assert (await tricks.text_content()) == t("tables.btn.tricks", lang)
        await tricks.click()
        first = page.locator("#tricks-list li.trick").first
        await first.wait_for(state="visible")
        assert await first.locator("img[data-card]").count() == 4
        assert ((await first.text_content()) or "").startswith("1. ")
    await _shot(ana, f"card-table-tricks-{lang}-{width}")
    await ana.locator("#tricks-close").click()
    await ana.locator("dialog#tricks[open]").wait_for(state="detached")


@pytest.mark.parametrize(("lang", "width"), [("es", 390), ("en", 1280)])
async def test_the_host_changes_the_settings_from_the_page_and_a_guest_cannot(
    served: Served, browser: Any, lang: str, width: int
) -> None:
    table = await _lobby(served.service, ANA, Variant.ARRASTRADO)
    await served.service.join(table.id, LUIS, MEMBERS[LUIS])
    luis = await open_page(browser, served, LUIS, language=lang, width=width)
    ana = await open_page(browser, served, ANA, language=lang, width=width)
    opener = ana.locator("#settings-open")
    assert (await opener.text_content()) == t("tables.btn.settings", lang)
    assert await luis.locator("#settings-open").is_hidden()
    await opener.click()
    await ana.locator("dialog#settings[open]").wait_for(state="visible")
    assert await ana.text_content("#settings-said") == t("settings.intro", lang)
    await ana.select_option("select[data-option='plato']", "true")
    saved = t(
        "settings.changed",
        lang,
        setting=t("settings.plato.label", lang),
        value=t("settings.plato.true", lang),
    )
    await ana.wait_for_function(
        f"document.querySelector('#settings-said').textContent === {saved!r}"
    )
    assert table.options.plato
    await _shot(ana, f"card-table-settings-{lang}-{width}")
    await ana.locator("#settings-close").click()
    # every page's lobby says the new stakes: the plato
    plato = t("tables.opt.arrastrado_pays_plato", lang)
    for page in (ana, luis):
        await page.wait_for_function(
            f"[...document.querySelectorAll('#stakes li')].some(li => li.textContent === {plato!r})"
        )
