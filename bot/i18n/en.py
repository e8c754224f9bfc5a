"""English messages, keyed by message id."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # Slash commands: names follow Discord's rules (lower case, no spaces, at most 32
    # characters); descriptions are at most 100 characters.
    "commands.tute.name": "tute",
    "commands.tute.description": "Play Tute, the Spanish card game",
    "commands.tute.about.name": "about",
    "commands.tute.about.description": "What this bot is and the commands it offers",
    # /tute about
    "about.title": "Tute bot",
    "about.description": (
        "I bring Tute, the Spanish trick-taking card game with the 40-card deck, to this server."
    ),
    "about.commands": "Commands",
    "about.command_line": "**/{command}**: {description}",
    # The one error path: a command or a button failed.
    "errors.generic": (
        "Sorry, something went wrong on my side while handling that. Please try again in a moment."
    ),
    # ---- standings: /tute leaderboard, stats, config, daily (cogs/_standings.py) ----
    "commands.tute.leaderboard.name": "leaderboard",
    "commands.tute.leaderboard.description": "This server's best players, by chips, experience or wins",
    "commands.tute.leaderboard.by.name": "by",
    "commands.tute.leaderboard.by.description": "What to rank the players by",
    "commands.tute.leaderboard.by.chips": "Chips",
    "commands.tute.leaderboard.by.xp": "Experience",
    "commands.tute.leaderboard.by.games": "Games won",
    "commands.tute.leaderboard.by.rounds": "Rounds won",
    "commands.tute.stats.name": "stats",
    "commands.tute.stats.description": "A member's chips, rank and record in this server",
    "commands.tute.stats.member.name": "member",
    "commands.tute.stats.member.description": "Whose standing to show (yours if left out)",
    "commands.tute.config.name": "config",
    "commands.tute.config.description": "View or change this server's Tute settings (Manage Server)",
    "commands.tute.config.starting_chips.name": "starting_chips",
    "commands.tute.config.starting_chips.description": "Chips a member gets the first time they play here",
    "commands.tute.config.daily_grant.name": "daily_grant",
    "commands.tute.config.daily_grant.description": "Chips of /tute daily, once a day (0 turns it off)",
    "commands.tute.config.turn_time.name": "turn_time",
    "commands.tute.config.turn_time.description": "Default seconds per turn of new tables",
    "commands.tute.config.language.name": "language",
    "commands.tute.config.language.description": "Language of the bot's public messages here",
    "commands.tute.config.language.en": "English",
    "commands.tute.config.language.es": "Spanish",
    "commands.tute.config.hand_delivery.name": "hand_delivery",
    "commands.tute.config.hand_delivery.description": "How players get their cards",
    "commands.tute.config.hand_delivery.dm": "Direct message",
    "commands.tute.config.hand_delivery.ephemeral": "Only-you message in the channel",
    "commands.tute.config.opener_role.name": "opener_role",
    "commands.tute.config.opener_role.description": "Role that may open tables (@everyone: anybody)",
    "commands.tute.config.max_tables.name": "max_tables",
    "commands.tute.config.max_tables.description": "Most tables open at once in this server",
    "commands.tute.daily.name": "daily",
    "commands.tute.daily.description": "Collect your daily chips in this server",
    "standings.thousands_separator": ",",
    "standings.guild_only": "Chips and standings belong to a server: use this command in one.",
    "standings.leaderboard.title.chips": "Leaderboard: chips",
    "standings.leaderboard.title.xp": "Leaderboard: experience",
    "standings.leaderboard.title.games": "Leaderboard: games won",
    "standings.leaderboard.title.rounds": "Leaderboard: rounds won",
    "standings.leaderboard.line": "{rank} {member}: **{value}**",
    "standings.leaderboard.empty": "Nobody here yet. Play a game to get on the board!",
    "standings.leaderboard.page": "Page {page} of {pages}",
    "standings.leaderboard.previous": "◀ Previous",
    "standings.leaderboard.next": "Next ▶",
    "standings.stats.title": "{name} in this server",
    "standings.stats.none": "{member} has not played Tute in this server yet.",
    "standings.stats.chips": "Chips",
    "standings.stats.rank": "Rank by chips",
    "standings.stats.rank_of": "#{rank} of {members}",
    "standings.stats.xp": "Experience",
    "standings.stats.games": "Games won",
    "standings.stats.rounds": "Rounds won",
    "standings.stats.won_of": "{won} of {played} ({percent}%)",
    "standings.stats.cantes": "Cantes sung",
    "standings.stats.tutes": "Tutes",
    "standings.config.title": "Tute settings of this server",
    "standings.config.updated": "Settings saved",
    "standings.config.forbidden": "Only members with the Manage Server permission can change these settings.",
    "standings.config.invalid": "That value of {setting} is not allowed; nothing was changed.",
    "standings.config.seconds": "{seconds} s",
    "standings.config.everyone": "Everyone",
    "standings.config.default": "{value} (the bot's default)",
    "standings.config.hint": "Change any of them with the options of /tute config.",
    "standings.daily.claimed": (
        "You collected **{amount}** chips. You now have **{balance}**. "
        "The next daily chips are ready {next}."
    ),
    "standings.daily.already": (
        "You have already collected today's chips (you have **{balance}**). "
        "The next ones are ready {next}."
    ),
    "standings.daily.off": "Daily chips are turned off in this server.",
    # ---- end of standings ----
}
