"""The daily deal's own words in English: ``/tute challenge``, its board, the line a member
shares, and the server's setting of experience from it."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "commands.tute.challenge.name": "challenge",
    "commands.tute.challenge.description": "The daily deal: the same cards for the whole server, once a day",
    "commands.tute.challenge.play.name": "play",
    "commands.tute.challenge.play.description": "Play today's deal in your DMs, with a robot partner against two robots (once a day)",
    "commands.tute.challenge.board.name": "board",
    "commands.tute.challenge.board.description": "Today's board of the daily deal in this server",
    "commands.tute.challenge.board.public.name": "public",
    "commands.tute.challenge.board.public.description": "Post the board in the channel for everyone (default: only you see it)",
    "commands.tute.config.daily_experience.name": "daily_experience",
    "commands.tute.config.daily_experience.description": "Whether a finished daily deal gives experience (off by default)",
    "settings.config.daily_experience": "Experience from the daily deal",
    "daily.on": "On",
    "daily.off": "Off",
    "daily.intro": "**Daily deal of {server} · {date}**\nPairs, one deal: you and a robot partner against two robots. Every member of the server plays these same cards today, once. Left, or called off for waiting too long, it counts as played: unfinished, no points.",
    "daily.started": "Today's deal is in your DMs: {link}",
    "daily.dms_closed": "I cannot send you messages, so the deal cannot be dealt in private. Allow direct messages from this server's members (the server's menu, Privacy Settings) and try again: nothing was played.",
    "daily.played": "You have played today's deal in this server already. A new deal comes {when}.",
    "daily.played_line": "You have played today's deal in this server already:\n{line}\nA new deal comes {when}.",
    "daily.in_play": "Your deal of today is still on: {link}",
    "daily.scored": "Your daily deal is scored. Share it (no card in it):\n{line}\nThe server's board: {command}",
    "daily.share": "Tute daily {date} · {result} · {grid} · 🔥{streak}",
    "daily.share.won": "🏆 {points} pts ({margin})",
    "daily.share.lost": "{points} pts ({margin})",
    "daily.share.unfinished": "unfinished",
    "daily.board.title": "Daily deal · {date}",
    "daily.board.empty": "Nobody has played today's deal yet: {command}",
    "daily.board.line": "**{place}.** {member} · {points} pts ({margin}) · {grid} · 🔥{streak}",
    "daily.board.playing": "· {member} · playing now · 🔥{streak}",
    "daily.board.unfinished": "· {member} · unfinished · 🔥{streak}",
    "daily.board.more": "…and {count} more",
    "tables.errors.daily_secret": "That is one of today's daily deals: its cards stay hidden until the day is over (00:00 UTC), so that every member plays it fresh.",
    "daily.board.footer": "Points of your side in the deal, then the margin. 🟩 a trick your side won, 🟥 one it lost, 👑 a cante, 💡 hints asked (such a deal ranks after those without), 🔥 days in a row.",
}
