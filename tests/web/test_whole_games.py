"""A member plays a whole game of every variant from the card table alone, never the chat:
over the page's socket they open a table in a channel with none, set it up with the
lobby's Settings form, seat robots (or let Start fill the seats), start, and on each of
their turns play a card the page offers as playable, or make a declaration it offers (a
cante, a tute, the exchange, a bid or a pass, capote, a claim, resigning) or ask for a hint,
until the game over; which says who won, the rounds, what moved for them and how the last
deal ended, as the chat's result does; and Rematch opens the next game. Four at an
arrastrado table, the 7's own choice and the presets are chosen in the page's Settings.

Only what a page sends is sent, and only what a page is told is read. The robots choose at
once (``first_robot``) and every table's seed comes from the test's ``Seeds``: each game
is the same every run."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import t
from bot.storage import Database
from bot.web import sign
from bot.web.app import make_app
from bot.words.result import plain
from tests.runtime import seeds
from tests.web.conftest import quick_hub
from tests.web.test_app import ANA, CHANNEL, SECRET, FakeAuth, session_of

Json = dict[str, Any]


@pytest.fixture
async def client(db: Database) -> AsyncIterator[TestClient[Any, Any]]:
    """The card table's app on a quick service whose channel has no table yet."""
    app = make_app(hub=quick_hub(db), secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())
    async with TestClient(TestServer(app)) as found:
        yield found


@dataclass
class Page:
    """A member's page over its socket: it sends what the page's buttons send and keeps
    what it was told (the latest table, the declarations it was offered and made)."""

    ws: ClientWebSocketResponse
    wanted: Sequence[str] = ()
    """The declarations (by their code's first letter) to make once each, first come."""
    state: Json = field(default_factory=dict[str, Any])
    offered: set[str] = field(default_factory=set[str])
    made: list[str] = field(default_factory=list[str])
    asked: set[str] = field(default_factory=set[str])
    """The declarations the page asked about before sending them (capote, resigning)."""
    turns: int = 0
    started: Json = field(default_factory=dict[str, Any])
    """The table as the game started."""
    over: Json = field(default_factory=dict[str, Any])
    """The game over, as the page was told it."""
    hint: bool = False
    """Ask the page's Hint once, on the first turn that offers it."""
    hinted: str = ""
    """The hint's line, as the page shows it."""

    async def told(self, kind: str) -> Json:
        """The next message of ``kind`` (states meanwhile are kept); a refusal fails."""
        while True:
            message: Json = await self.ws.receive_json()
            assert message["type"] != "refused", message
            if message["type"] == "state":
                self.state = message
            if message["type"] == kind:
                return message

    async def set(self, name: str, value: str) -> None:
        """A value chosen in the lobby's Settings form (opened first, as the page does)."""
        await self.ws.send_json({"type": "settings"})
        form = await self.told("settings")
        option = next(o for o in form["options"] if o["name"] == name)
        assert value in [c["value"] for c in option["choices"]], option
        await self.ws.send_json({"type": "set", "name": name, "value": value})
        saved = await self.told("settings")
        assert next(o for o in saved["options"] if o["name"] == name)["value"] == value

    async def lobby(self, do: str) -> None:
        await self.ws.send_json({"type": "lobby", "do": do})
        await self.told("state")

    def choice(self) -> str | None:
        """What the member does now, from what the page offers: a wanted declaration not
        made yet, else on their turn a cante, a pass in an auction, or the first card the
        page offers as playable; None: nothing to do until the table changes."""
        hand = self.state["hand"]
        offered = hand["declarations"]
        if not hand["your_turn"]:
            # a declaration out of turn (a partner's cante, capote) waits on the robots,
            # who play at once here: the page's own turn is where a member makes it
            return None
        self.offered |= {d["code"][0] for d in offered}
        for declaration in offered:
            code = declaration["code"]
            if code[0] in self.wanted and code[0] not in {m[0] for m in self.made}:
                if "ask" in declaration:
                    assert declaration["ask"] and declaration["yes"]
                    self.asked.add(code[0])
                return code
        if hand["playable"]:
            sung = [d["code"] for d in offered if d["code"][0] == "s"]
            return sung[0] if sung else hand["playable"][0]
        passes = [d["code"] for d in offered if d["code"] == "p"]
        assert passes, f"a turn with nothing the page offers: {hand}"
        return passes[0]

    async def play_out(self) -> Json:
        """Play until the game is over: its last state."""
        async with asyncio.timeout(60):
            while self.state["table"]["status"] == "playing":
                acted = self.state
                if self.hint and not self.hinted and acted["hand"]["hint"]:
                    await self.ws.send_json({"type": "hint"})
                    self.hinted = (await self.told("hint"))["text"]
                code = self.choice()
                if code is None:
                    await self.told("state")
                    continue
                hand = acted["hand"]
                self.made.append(code)
                self.turns += 1
                act = {"type": "act", "code": code, "deal": hand["deal_no"]}
                await self.ws.send_json(act | {"trick": hand["trick_no"]})
                # the table drawn again as it was (a wait that ran out) is nothing new to
                # act on: the member acts once on what they see
                while (await self.told("state"))["table"] == acted["table"] and (
                    self.state["hand"] == acted["hand"]
                ):
                    pass
        return self.state


async def play_a_game(
    client: TestClient[Any, Any],
    variant: str,
    settings: Sequence[tuple[str, str]] = (),
    *,
    robots: int = 0,
    wanted: Sequence[str] = (),
    lang: str = "en",
    channel: int = CHANNEL,
    user: int = ANA,
    hint: bool = False,
) -> Page:
    """A whole game of ``variant`` from the page, to its game over and the rematch's lobby."""
    name = f"user{user}"  # the session's name (tests.web.test_app.session_of)
    session = sign(session_of(user, channel=channel), SECRET)
    async with client.ws_connect("/api/ws", params={"session": session, "lang": lang}) as ws:
        page = Page(ws, wanted, hint=hint)
        first = await ws.receive_json()
        assert first == {"type": "no_table", "may_open": True}
        await ws.send_json({"type": "open", "variant": variant})
        lobby = await page.told("state")
        assert lobby["table"]["status"] == "lobby" and lobby["you"]["host"] is True
        for option, value in settings:
            await page.set(option, value)
        for _ in range(robots):
            await page.lobby("robot")
        await page.lobby("start")  # the robots take the seats left empty
        page.started = table = page.state["table"]
        assert table["status"] == "playing" and None not in table["seats"]
        over = await page.play_out()
        deal_no = over["table"]["deal_no"]
        assert over["table"]["status"] == "finished"
        assert page.turns > 0
        table_id = over["table"]["id"]
        result = over["result"]
        assert result["title"] == t("summary.game_over", lang, id=table_id)
        assert result["winner"] and "**" not in result["winner"]
        assert result["rounds_title"] == t("summary.rounds", lang)
        assert any(name in line for line in result["rounds"])
        mine = [line for line in result["tally"] if line.startswith(f"{name}: ")]
        if ("competitive", "false") in settings:  # a friendly game: nothing moves
            assert result["tally_title"] is None and not mine
        else:
            assert result["tally_title"] and len(mine) == 1
            xp, chips = {"en": ("XP", "chips"), "es": ("experiencia", "fichas")}[lang]
            assert xp in mine[0]  # arrastrado pays chips every deal, whatever the bet
            assert (chips in mine[0]) is (variant == "arrastrado")
        deal = result["deal"]  # the last deal, as the chat's result ends
        assert deal["title"] == t("summary.title", lang, deal=deal_no + 1, id=table_id)
        assert deal["ending"] and len(deal["sides"]) == len(page.started["deal"]["sides"])
        assert all("**" not in line for line in deal["ending"] + deal["sides"])
        page.over = over
        assert result["rematch"] is True
        await ws.send_json({"type": "rematch"})
        again = await page.told("state")
        assert again["table"]["status"] == "lobby" and again["table"]["id"] != table_id
        assert again["table"]["variant"] == variant and again["you"]["host"] is True
    return page


ROBOT = t("tables.robot_short", "en", number=1)


def ending(page: Page) -> list[str]:
    """How the game's last deal ended, as the game over says it."""
    return page.over["result"]["deal"]["ending"]


def kinds(page: Page) -> set[str]:
    """The kinds of declaration the member made (a cante ``s``, the exchange ``x``...)."""
    return {code[0] for code in page.made if not code[0].isdigit()}


async def test_a_habanero_game_with_a_cante_the_exchange_and_capote(
    client: TestClient[Any, Any],
) -> None:
    seeds().pin(8)  # a deal that offers the member all three on their turns
    page = await play_a_game(
        client, "habanero", [("target", "30")], robots=1, wanted=("x", "s", "k")
    )
    assert kinds(page) == {"x", "s", "k"}
    assert page.asked == {"k"}  # capote binds the deal: the page asks first
    assert ending(page) == [plain("summary.end.one.capote", "en", names=ROBOT)]  # failed


async def test_a_habanero_game_over_two_deals_with_a_claim(client: TestClient[Any, Any]) -> None:
    seeds().pin(1)
    page = await play_a_game(client, "habanero", wanted=("c",))
    assert kinds(page) == {"c"}
    assert ending(page) == [plain("summary.end.one.claim", "en", names=ROBOT)]  # wrong
    assert page.over["result"]["deal"]["title"].startswith("Deal 2 ")


async def test_a_habanero_game_of_sixty_five_resigned(client: TestClient[Any, Any]) -> None:
    seeds().pin(17)  # the member's hand holds under 10 card points
    page = await play_a_game(client, "habanero", [("scoring", "sixty-five")], wanted=("r",))
    assert kinds(page) == {"r"} and page.asked == {"r"}
    assert ending(page) == [plain("summary.end.one.resign", "en", names=ROBOT)]


async def test_a_habanero_game_won_by_a_tute(client: TestClient[Any, Any]) -> None:
    seeds().pin(459)  # four of a kind in the member's hand
    page = await play_a_game(
        client, "habanero", [("target", "30"), ("allow_tute", "true")], wanted=("t",)
    )
    assert kinds(page) == {"t"}
    assert ending(page) == [plain("summary.end.one.tute", "en", names=f"user{ANA}")]


@pytest.mark.parametrize(("deck", "seed"), [("40", 2), ("36", 4)])
async def test_an_arrastrado_game_of_three(
    client: TestClient[Any, Any], deck: str, seed: int
) -> None:
    seeds().pin(seed)
    page = await play_a_game(client, "arrastrado", [("deck", deck)], wanted=("s",))
    assert kinds(page) == {"s"}


async def test_an_arrastrado_game_whose_seven_chooses_to_exchange(
    client: TestClient[Any, Any],
) -> None:
    seeds().pin(1)
    page = await play_a_game(client, "arrastrado", [("auto_exchange", "false")], wanted=("x",))
    assert kinds(page) == {"x"}


@pytest.mark.parametrize("decision", ["b", "p"])
async def test_an_arrastrado_game_with_a_plato_auction(
    client: TestClient[Any, Any], decision: str
) -> None:
    seeds().pin(1)
    page = await play_a_game(
        client, "arrastrado", [("plato", "true")], robots=2, wanted=(decision,)
    )
    assert decision in kinds(page)
    assert page.offered >= {"b", "p"}  # the auction's bids and its pass, on the page
    failed = plain("summary.contract_failed", "en", name=f"user{ANA}", points=101)
    assert (failed in ending(page)) is (decision == "b")


async def test_an_arrastrado_game_of_four_the_dealer_sitting_out(
    client: TestClient[Any, Any],
) -> None:
    seeds().pin(18)
    page = await play_a_game(client, "arrastrado", [("seats", "4")], robots=1, wanted=("s",))
    assert kinds(page) == {"s"}
    started = page.started
    assert len(started["seats"]) == 4
    assert started["deal"]["hand_sizes"] == [13, 13, 13, 0]  # the first dealer, seat 4


async def test_an_individual_game(client: TestClient[Any, Any]) -> None:
    seeds().pin(4)  # a deal where the member sings
    page = await play_a_game(client, "individual", robots=3, wanted=("s",), lang="es")
    assert kinds(page) == {"s"}


@pytest.mark.parametrize("scoring", ["most", "sixty-five"])
async def test_a_pairs_game(client: TestClient[Any, Any], scoring: str) -> None:
    seeds().pin(4)  # a deal where the member sings
    page = await play_a_game(client, "pairs", [("scoring", scoring)], wanted=("s",))
    assert kinds(page) == {"s"}


async def test_a_friendly_pairs_game_with_a_hint(client: TestClient[Any, Any]) -> None:
    page = await play_a_game(client, "pairs", [("competitive", "false")], hint=True)
    assert page.hinted  # the page's Hint, answered in words
    item = plain("hints.result_item", "en", name=f"user{ANA}", count=1)
    assert page.over["result"]["hints"] == plain("hints.result", "en", items=item)


@pytest.mark.parametrize(
    ("variant", "preset", "seed", "wanted"),
    [
        ("habanero", "fournier", 4, ("x", "s")),  # the exchange announced
        ("habanero", "havanian", 21, ("x",)),  # the exchange before drawing
        ("pairs", "fournier", 4, ("s",)),  # a cante of each partner
        ("pairs", "parejas", 4, ("s",)),
        ("arrastrado", "online", 4, ("s",)),  # 36 cards
    ],
)
async def test_a_game_under_a_preset_chosen_in_the_settings(
    client: TestClient[Any, Any], variant: str, preset: str, seed: int, wanted: tuple[str, ...]
) -> None:
    seeds().pin(seed)
    settings = [("rules", preset)] + ([("target", "30")] if variant == "habanero" else [])
    page = await play_a_game(client, variant, settings, wanted=wanted)
    assert kinds(page) == set(wanted)
