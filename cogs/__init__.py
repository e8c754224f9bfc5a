"""Slash commands, buttons and embeds: the thin layer between Discord and the service.

Every module here whose name does not start with an underscore is an extension that the bot
loads at start-up, so it must define ``async def setup(bot: TuteBot) -> None``. Modules whose
name starts with an underscore hold pieces the cogs share (``_base``: views and the error path).
"""
