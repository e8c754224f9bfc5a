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
    # A command that needs a server, used in a DM, a group DM or a server without the bot.
    "errors.needs_server": (
        "This needs a server the bot is in: its tables, chips and standings live there."
    ),
    "errors.needs_server_play": (
        "This needs a server the bot is in: its tables, chips and standings live there. "
        "Here, use **/{command}** to play at the web table."
    ),
    # ---- standings: /tute leaderboard, stats, config, daily (cogs/_standings.py) ----
    "commands.tute.leaderboard.name": "leaderboard",
    "commands.tute.leaderboard.description": "This server's best players, by chips, experience, wins or skill rating",
    "commands.tute.leaderboard.by.name": "by",
    "commands.tute.leaderboard.by.description": "What to rank the players by",
    "commands.tute.leaderboard.by.chips": "Chips",
    "commands.tute.leaderboard.by.xp": "Experience",
    "commands.tute.leaderboard.by.games": "Games won",
    "commands.tute.leaderboard.by.rounds": "Rounds won",
    "commands.tute.leaderboard.by.rating": "Skill rating",
    "commands.tute.leaderboard.family.name": "family",
    "commands.tute.leaderboard.family.description": "Whose skill rating: games of two, three, four players or pairs",
    "commands.tute.leaderboard.family.two": "Two players (habanero)",
    "commands.tute.leaderboard.family.three": "Three players (arrastrado)",
    "commands.tute.leaderboard.family.four": "Four players (individual)",
    "commands.tute.leaderboard.family.pairs": "Pairs",
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
    "commands.tute.config.robot_rating_weight.name": "robot_rating_weight",
    "commands.tute.config.robot_rating_weight.description": "How much a game of one member against robots moves ratings (%, 0: not at all)",
    "commands.tute.config.min_rated_games.name": "min_rated_games",
    "commands.tute.config.min_rated_games.description": "Rated games a member needs to be on the rating leaderboard",
    "commands.tute.config.pair_daily_cap.name": "pair_daily_cap",
    "commands.tute.config.pair_daily_cap.description": "Games a day two members may play together and still be rated (0: no limit)",
    "commands.tute.config.rebuild_ratings.name": "rebuild_ratings",
    "commands.tute.config.rebuild_ratings.description": "Recompute every rating here from past games, with these settings",
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
    "standings.leaderboard.title.rating": "Leaderboard: skill rating · {family}",
    "standings.leaderboard.rating_line": "{rank} {member}: **{rating}** · {games}",
    "standings.leaderboard.rating_empty": (
        "Nobody is on this board yet: a member needs {games} rated games to be listed."
    ),
    "standings.leaderboard.rating_page": (
        "Page {page} of {pages} · listed from {games} rated games"
    ),
    "standings.rating.games": "{games} rated games",
    "standings.rating.games_one": "{games} rated game",
    "standings.rating.settling": "still settling, {games} rated games",
    "standings.rating.settling_one": "still settling, {games} rated game",
    "standings.rating.legend": (
        "Everyone starts at {start}. A rating still settling moves a lot with each game, "
        "and ranks lower on the boards until it settles."
    ),
    "standings.family.two": "Two players",
    "standings.family.three": "Three players",
    "standings.family.four": "Four players",
    "standings.family.pairs": "Pairs",
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
    "standings.stats.rating": "Skill rating",
    "standings.stats.rating_line": "{family}: **{rating}** · {games}",
    "standings.stats.rating_last": " (last game {change})",
    "standings.stats.to_be_listed": " · {left} more games to be on the leaderboard",
    "standings.stats.to_be_listed_one": " · 1 more game to be on the leaderboard",
    "standings.stats.rating_none": (
        "Not rated yet: play a competitive game to the end with another member to get a rating."
    ),
    "standings.config.title": "Tute settings of this server",
    "standings.config.updated": "Settings saved",
    "standings.config.forbidden": "Only members with the Manage Server permission can change these settings.",
    "standings.config.invalid": "That value of {setting} is not allowed; nothing was changed.",
    "standings.config.invalid_range": "{setting} takes a whole number from {low} to {high}; nothing was changed.",
    "standings.config.invalid_seconds": "{setting} takes a number of seconds from {low} to {high}; nothing was changed.",
    "standings.config.everyone": "Everyone",
    "standings.config.default": "{value} (the bot's default)",
    "standings.config.hint": "Change any of them with the options of /tute config.",
    "standings.config.percent": "{percent}%",
    "standings.config.robots_not_rated": "0% (games against robots are not rated)",
    "standings.config.rebuilt": "Ratings rebuilt from {games} games.",
    "standings.config.no_limit": "No limit",
    "standings.config.weight_from_now": (
        "The new rating rules count from the next game on; `{option}` applies them to past "
        "games too."
    ),
    "standings.daily.claimed": (
        "You collected **{amount}** chips. You now have **{balance}**. "
        "The next daily chips are ready {next}."
    ),
    "standings.daily.already": (
        "You have already collected today's chips (you have **{balance}**). "
        "The next ones are ready {next}."
    ),
    "standings.daily.off": "Daily chips are turned off in this server.",
    "commands.tute.leaderboard.season.name": "season",
    "commands.tute.leaderboard.season.description": "A season's rating board: its number, or 0 for the running season (all-time if left out)",
    "commands.tute.config.min_account_days.name": "min_account_days",
    "commands.tute.config.min_account_days.description": "Days a Discord account must have for the daily chips and rated games (0: any)",
    "commands.tute.config.min_member_days.name": "min_member_days",
    "commands.tute.config.min_member_days.description": "Days a member must have been here for the daily chips and rated games (0: any)",
    "commands.tute.season.name": "season",
    "commands.tute.season.description": "Seasons: ratings that start afresh, with a podium at the end",
    "commands.tute.season.start.name": "start",
    "commands.tute.season.start.description": "Start a season: ratings start afresh in it (Manage Server)",
    "commands.tute.season.start.ends.name": "ends",
    "commands.tute.season.start.ends.description": "The day it ends, YYYY-MM-DD, at 00:00 UTC (left out: when an admin ends it)",
    "commands.tute.season.end.name": "end",
    "commands.tute.season.end.description": "End the running season and post its podium (Manage Server)",
    "commands.tute.season.show.name": "show",
    "commands.tute.season.show.description": "The running season, or another one, and its best players",
    "commands.tute.season.show.number.name": "number",
    "commands.tute.season.show.number.description": "Which season (the running one if left out)",
    "standings.leaderboard.title.season_rating": "Leaderboard: skill rating · {family} · season {number}",
    "standings.stats.season": "Season {number}",
    "standings.stats.season_none": "No rated games this season yet",
    "standings.config.days": "{days} days",
    "standings.config.days_one": "{days} day",
    "standings.config.no_minimum": "None",
    "standings.daily.too_new_account": (
        "Your Discord account is too new for the daily chips here (this server's minimum: "
        "{needed} d). Come back in {days} days."
    ),
    "standings.daily.too_new_account_one": (
        "Your Discord account is too new for the daily chips here (this server's minimum: "
        "{needed} d). Come back in {days} day."
    ),
    "standings.daily.too_new_member": (
        "You joined this server too recently for the daily chips (its minimum: {needed} d). "
        "Come back in {days} days."
    ),
    "standings.daily.too_new_member_one": (
        "You joined this server too recently for the daily chips (its minimum: {needed} d). "
        "Come back in {days} day."
    ),
    "standings.season.forbidden": "Only members with the Manage Server permission can start or end a season.",
    "standings.season.bad_date": (
        "`{value}` is not a date: write the day the season ends as YYYY-MM-DD, such as 2026-03-01."
    ),
    "standings.season.end_past": (
        "A season must end on a day ahead: {date} at 00:00 UTC has already come."
    ),
    "standings.season.running": "Season {number} is running already: end it first with /tute season end.",
    "standings.season.none_running": "No season is running in this server.",
    "standings.season.unknown": "There is no season {number} in this server.",
    "standings.season.started": (
        "**Season {number} has started!** Ratings start afresh in it; it ends on {date} "
        "at 00:00 UTC ({relative})."
    ),
    "standings.season.started_open": (
        "**Season {number} has started!** Ratings start afresh in it; an admin ends it "
        "with /tute season end."
    ),
    "standings.season.ended": "**Season {number} has ended!** Here is its podium.",
    "standings.season.podium_title": "Season {number}: the podium",
    "standings.season.title": "Season {number}",
    "standings.season.dates_running": "Started {started}; ends on {date} at 00:00 UTC ({relative}).",
    "standings.season.dates_open": "Started {started}; it ends when an admin ends it.",
    "standings.season.dates_ended": "From {started} to {ended}.",
    "standings.season.place": "{medal} {member}: **{rating}** · {games}",
    "standings.season.nobody": "Nobody qualified",
    "standings.season.nobody_yet": "Nobody qualifies yet",
    "standings.season.footer": "Ranked from {games} rated games in the season",
    # ---- end of standings ----
}
