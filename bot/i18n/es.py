"""Spanish (Spain) messages, keyed by message id."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # Slash commands: names follow Discord's rules (lower case, no spaces, at most 32
    # characters); descriptions are at most 100 characters.
    "commands.tute.name": "tute",
    "commands.tute.description": "Juega al tute, el juego de cartas español",
    "commands.tute.about.name": "acerca-de",
    "commands.tute.about.description": "Qué es este bot y qué comandos ofrece",
    # /tute about
    "about.title": "Tute bot",
    "about.description": (
        "Traigo a este servidor el tute, el juego de bazas con la baraja española de 40 cartas."
    ),
    "about.commands": "Comandos",
    "about.command_line": "**/{command}**: {description}",
    # The one error path: a command or a button failed.
    "errors.generic": (
        "Lo siento, algo ha fallado por mi parte al atender eso. "
        "Vuelve a intentarlo dentro de un momento."
    ),
    # A command that needs a server, used in a DM, a group DM or a server without the bot.
    "errors.needs_server": (
        "Esto necesita un servidor en el que esté el bot: sus mesas, fichas y clasificaciones "
        "están allí."
    ),
    "errors.needs_server_play": (
        "Esto necesita un servidor en el que esté el bot: sus mesas, fichas y clasificaciones "
        "están allí. Aquí, usa **/{command}** para jugar en la mesa web."
    ),
    # ---- standings: /tute leaderboard, stats, config, daily (cogs/_standings.py) ----
    "commands.tute.leaderboard.name": "clasificación",
    "commands.tute.leaderboard.description": "Los mejores jugadores del servidor, por fichas, experiencia, victorias o nivel",
    "commands.tute.leaderboard.by.name": "por",
    "commands.tute.leaderboard.by.description": "Por qué ordenar a los jugadores",
    "commands.tute.leaderboard.by.chips": "Fichas",
    "commands.tute.leaderboard.by.xp": "Experiencia",
    "commands.tute.leaderboard.by.games": "Partidas ganadas",
    "commands.tute.leaderboard.by.rounds": "Rondas ganadas",
    "commands.tute.leaderboard.by.rating": "Nivel de juego",
    "commands.tute.leaderboard.family.name": "modalidad",
    "commands.tute.leaderboard.family.description": "Qué nivel: partidas de dos, tres, cuatro jugadores o parejas",
    "commands.tute.leaderboard.family.two": "Dos jugadores (habanero)",
    "commands.tute.leaderboard.family.three": "Tres jugadores (arrastrado)",
    "commands.tute.leaderboard.family.four": "Cuatro jugadores (individual)",
    "commands.tute.leaderboard.family.pairs": "Parejas",
    "commands.tute.stats.name": "estadísticas",
    "commands.tute.stats.description": "Las fichas, el puesto y el historial de un miembro en este servidor",
    "commands.tute.stats.member.name": "miembro",
    "commands.tute.stats.member.description": "De quién mostrarlo (tuyo si no eliges a nadie)",
    "commands.tute.config.name": "ajustes",
    "commands.tute.config.description": "Ver o cambiar los ajustes del tute en este servidor (Gestionar servidor)",
    "commands.tute.config.starting_chips.name": "fichas_iniciales",
    "commands.tute.config.starting_chips.description": "Fichas que recibe un miembro la primera vez que juega aquí",
    "commands.tute.config.daily_grant.name": "fichas_diarias",
    "commands.tute.config.daily_grant.description": "Fichas de /tute diario, una vez al día (0 lo desactiva)",
    "commands.tute.config.turn_time.name": "tiempo_turno",
    "commands.tute.config.turn_time.description": "Segundos por turno de las mesas nuevas",
    "commands.tute.config.language.name": "idioma",
    "commands.tute.config.language.description": "Idioma de los mensajes públicos del bot aquí",
    "commands.tute.config.language.en": "Inglés",
    "commands.tute.config.language.es": "Español",
    "commands.tute.config.hand_delivery.name": "entrega_mano",
    "commands.tute.config.hand_delivery.description": "Cómo reciben los jugadores sus cartas",
    "commands.tute.config.hand_delivery.dm": "Mensaje directo",
    "commands.tute.config.hand_delivery.ephemeral": "Mensaje solo para ti en el canal",
    "commands.tute.config.opener_role.name": "rol_para_abrir",
    "commands.tute.config.opener_role.description": "Rol que puede abrir mesas (@everyone: cualquiera)",
    "commands.tute.config.max_tables.name": "mesas_max",
    "commands.tute.config.max_tables.description": "Máximo de mesas abiertas a la vez en este servidor",
    "commands.tute.config.robot_rating_weight.name": "peso_robots_nivel",
    "commands.tute.config.robot_rating_weight.description": "Cuánto mueve el nivel una partida de un miembro contra robots (%, 0: nada)",
    "commands.tute.config.min_rated_games.name": "min_partidas_nivel",
    "commands.tute.config.min_rated_games.description": "Partidas puntuadas que necesita un miembro para salir en la clasificación de nivel",
    "commands.tute.config.pair_daily_cap.name": "tope_diario_parejas",
    "commands.tute.config.pair_daily_cap.description": "Partidas al día que dos miembros pueden jugar juntos y que cuenten (0: sin tope)",
    "commands.tute.config.rebuild_ratings.name": "recalcular_niveles",
    "commands.tute.config.rebuild_ratings.description": "Recalcula todos los niveles de aquí con las partidas pasadas y estos ajustes",
    "commands.tute.daily.name": "diario",
    "commands.tute.daily.description": "Recoge tus fichas diarias en este servidor",
    "standings.thousands_separator": ".",
    "standings.guild_only": "Las fichas y la clasificación son de cada servidor: usa este comando en uno.",
    "standings.leaderboard.title.chips": "Clasificación: fichas",
    "standings.leaderboard.title.xp": "Clasificación: experiencia",
    "standings.leaderboard.title.games": "Clasificación: partidas ganadas",
    "standings.leaderboard.title.rounds": "Clasificación: rondas ganadas",
    "standings.leaderboard.line": "{rank} {member}: **{value}**",
    "standings.leaderboard.empty": "Aún no hay nadie. ¡Juega una partida para entrar en la clasificación!",
    "standings.leaderboard.page": "Página {page} de {pages}",
    "standings.leaderboard.previous": "◀ Anterior",
    "standings.leaderboard.next": "Siguiente ▶",
    "standings.leaderboard.title.rating": "Clasificación: nivel de juego · {family}",
    "standings.leaderboard.rating_line": "{rank} {member}: **{rating}** · {games}",
    "standings.leaderboard.rating_empty": (
        "Aún no hay nadie en esta clasificación: hacen falta {games} partidas puntuadas para aparecer."
    ),
    "standings.leaderboard.rating_page": (
        "Página {page} de {pages} · aparece quien tenga {games} partidas puntuadas"
    ),
    "standings.rating.games": "{games} partidas puntuadas",
    "standings.rating.games_one": "{games} partida puntuada",
    "standings.rating.settling": "aún provisional, {games} partidas puntuadas",
    "standings.rating.settling_one": "aún provisional, {games} partida puntuada",
    "standings.rating.legend": (
        "Todos empiezan con {start}. Un nivel aún provisional se mueve mucho con cada partida "
        "y queda más abajo en la clasificación hasta asentarse."
    ),
    "standings.family.two": "Dos jugadores",
    "standings.family.three": "Tres jugadores",
    "standings.family.four": "Cuatro jugadores",
    "standings.family.pairs": "Parejas",
    "standings.stats.title": "{name} en este servidor",
    "standings.stats.none": "{member} aún no ha jugado al tute en este servidor.",
    "standings.stats.chips": "Fichas",
    "standings.stats.rank": "Puesto por fichas",
    "standings.stats.rank_of": "{rank}.º de {members}",
    "standings.stats.xp": "Experiencia",
    "standings.stats.games": "Partidas ganadas",
    "standings.stats.rounds": "Rondas ganadas",
    "standings.stats.won_of": "{won} de {played} ({percent} %)",
    "standings.stats.cantes": "Cantes",
    "standings.stats.tutes": "Tutes",
    "standings.stats.rating": "Nivel de juego",
    "standings.stats.rating_line": "{family}: **{rating}** · {games}",
    "standings.stats.rating_last": " (última partida {change})",
    "standings.stats.to_be_listed": " · {left} partidas más para entrar en la clasificación",
    "standings.stats.to_be_listed_one": " · 1 partida más para entrar en la clasificación",
    "standings.stats.rating_none": (
        "Aún sin nivel: juega hasta el final una partida competitiva con otro miembro para tenerlo."
    ),
    "standings.config.title": "Ajustes del tute en este servidor",
    "standings.config.updated": "Ajustes guardados",
    "standings.config.forbidden": "Solo los miembros con el permiso Gestionar servidor pueden cambiar estos ajustes.",
    "standings.config.invalid": "Ese valor de {setting} no está permitido; no se ha cambiado nada.",
    "standings.config.invalid_range": "{setting} admite un número entero de {low} a {high}; no se ha cambiado nada.",
    "standings.config.invalid_seconds": "{setting} admite un número de segundos de {low} a {high}; no se ha cambiado nada.",
    "standings.config.everyone": "Todos",
    "standings.config.default": "{value} (el valor por defecto del bot)",
    "standings.config.hint": "Cambia cualquiera con las opciones de /tute ajustes.",
    "standings.config.percent": "{percent} %",
    "standings.config.robots_not_rated": "0 % (las partidas contra robots no cuentan)",
    "standings.config.rebuilt": "Niveles recalculados a partir de {games} partidas.",
    "standings.config.no_limit": "Sin tope",
    "standings.config.weight_from_now": (
        "Las nuevas reglas del nivel cuentan desde la próxima partida; `{option}` las aplica "
        "también a las pasadas."
    ),
    "standings.daily.claimed": (
        "Has recogido **{amount}** fichas. Ahora tienes **{balance}**. "
        "Las próximas fichas diarias estarán listas {next}."
    ),
    "standings.daily.already": (
        "Ya has recogido las fichas de hoy (tienes **{balance}**). "
        "Las próximas estarán listas {next}."
    ),
    "standings.daily.off": "Las fichas diarias están desactivadas en este servidor.",
    "commands.tute.leaderboard.season.name": "temporada",
    "commands.tute.leaderboard.season.description": "El nivel de una temporada: su número, o 0 para la temporada en curso (sin ella, el histórico)",
    "commands.tute.config.min_account_days.name": "dias_min_cuenta",
    "commands.tute.config.min_account_days.description": "Días que debe tener una cuenta de Discord para las fichas diarias y el nivel (0: sin mínimo)",
    "commands.tute.config.min_member_days.name": "dias_min_miembro",
    "commands.tute.config.min_member_days.description": "Días que un miembro debe llevar aquí para las fichas diarias y el nivel (0: sin mínimo)",
    "commands.tute.season.name": "temporada",
    "commands.tute.season.description": "Temporadas: el nivel empieza de cero y al final hay podio",
    "commands.tute.season.start.name": "empezar",
    "commands.tute.season.start.description": "Empieza una temporada: el nivel empieza de cero en ella (Gestionar servidor)",
    "commands.tute.season.start.ends.name": "termina",
    "commands.tute.season.start.ends.description": "El día en que termina, AAAA-MM-DD, a las 00:00 UTC (sin él: cuando la termine un admin)",
    "commands.tute.season.end.name": "terminar",
    "commands.tute.season.end.description": "Termina la temporada en curso y publica su podio (Gestionar servidor)",
    "commands.tute.season.show.name": "ver",
    "commands.tute.season.show.description": "La temporada en curso, u otra, y sus mejores jugadores",
    "commands.tute.season.show.number.name": "número",
    "commands.tute.season.show.number.description": "Qué temporada (la que está en curso si no eliges)",
    "standings.leaderboard.title.season_rating": "Clasificación: nivel de juego · {family} · temporada {number}",
    "standings.stats.season": "Temporada {number}",
    "standings.stats.season_none": "Aún sin partidas puntuadas esta temporada",
    "standings.config.days": "{days} días",
    "standings.config.days_one": "{days} día",
    "standings.config.no_minimum": "Sin mínimo",
    "standings.daily.too_new_account": (
        "Tu cuenta de Discord es demasiado nueva para las fichas diarias de aquí (mínimo "
        "de este servidor: {needed} d). Vuelve dentro de {days} días."
    ),
    "standings.daily.too_new_account_one": (
        "Tu cuenta de Discord es demasiado nueva para las fichas diarias de aquí (mínimo "
        "de este servidor: {needed} d). Vuelve dentro de {days} día."
    ),
    "standings.daily.too_new_member": (
        "Llevas muy poco en este servidor para las fichas diarias (su mínimo: {needed} d). "
        "Vuelve dentro de {days} días."
    ),
    "standings.daily.too_new_member_one": (
        "Llevas muy poco en este servidor para las fichas diarias (su mínimo: {needed} d). "
        "Vuelve dentro de {days} día."
    ),
    "standings.season.forbidden": "Solo los miembros con el permiso Gestionar servidor pueden empezar o terminar una temporada.",
    "standings.season.bad_date": (
        "`{value}` no es una fecha: escribe el día en que termina la temporada como "
        "AAAA-MM-DD, por ejemplo 2026-03-01."
    ),
    "standings.season.end_past": (
        "Una temporada debe terminar un día futuro: el {date} a las 00:00 UTC ya ha llegado."
    ),
    "standings.season.running": "La temporada {number} ya está en curso: termínala antes con /tute temporada terminar.",
    "standings.season.none_running": "No hay ninguna temporada en curso en este servidor.",
    "standings.season.unknown": "No hay temporada {number} en este servidor.",
    "standings.season.started": (
        "**¡Empieza la temporada {number}!** El nivel empieza de cero en ella; termina el "
        "{date} a las 00:00 UTC ({relative})."
    ),
    "standings.season.started_open": (
        "**¡Empieza la temporada {number}!** El nivel empieza de cero en ella; la termina "
        "un admin con /tute temporada terminar."
    ),
    "standings.season.ended": "**¡Ha terminado la temporada {number}!** Este es su podio.",
    "standings.season.podium_title": "Temporada {number}: el podio",
    "standings.season.title": "Temporada {number}",
    "standings.season.dates_running": "Empezó {started}; termina el {date} a las 00:00 UTC ({relative}).",
    "standings.season.dates_open": "Empezó {started}; termina cuando la termine un admin.",
    "standings.season.dates_ended": "Del {started} al {ended}.",
    "standings.season.place": "{medal} {member}: **{rating}** · {games}",
    "standings.season.nobody": "Nadie se clasificó",
    "standings.season.nobody_yet": "Aún no se clasifica nadie",
    "standings.season.footer": "Se clasifica con {games} partidas puntuadas en la temporada",
    # ---- end of standings ----
}
