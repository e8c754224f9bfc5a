"""How the bot's tables wait when it runs on SimCord (the sandbox, the benchmarks): on
SimCord's clock."""

from __future__ import annotations

import asyncio

import simcord


class SimulatedWaits:
    """How the sandbox's tables wait: on SimCord's clock.

    A plain ``asyncio.sleep`` in the bot is waited out in real time by whatever SimCord
    operation is running (a click would not be answered until the robots had played) when it
    is shorter than SETTLE_TIMEOUT, and is left to a real-time fallback otherwise. Declared,
    a wait ends only when the sandbox's clock reaches it: the click is answered at once, and
    the tick that reaches the robot's turn plays it and shows it in the page. ``env`` is set
    as soon as SimCord's environment is made (it takes the bot), before the bot starts.
    """

    def __init__(self) -> None:
        self.env: simcord.Env | None = None

    async def __call__(self, delay: float) -> None:
        if self.env is None:
            raise RuntimeError("the sandbox's tables wait once its SimCord is made")
        await self.env.external_wait(asyncio.sleep(delay), reason="the table's clock")
