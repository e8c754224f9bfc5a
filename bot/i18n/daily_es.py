"""Las palabras del reto diario en español (España): ``/tute reto``, su clasificación, la
línea que un miembro comparte y el ajuste del servidor de experiencia por jugarlo."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "commands.tute.challenge.name": "reto",
    "commands.tute.challenge.description": "El reto diario: las mismas cartas para todo el servidor, una vez al día",
    "commands.tute.challenge.play.name": "jugar",
    "commands.tute.challenge.play.description": "Juega la mano de hoy por MD, con un robot de compañero contra dos robots (una vez al día)",
    "commands.tute.challenge.board.name": "clasificacion",
    "commands.tute.challenge.board.description": "La clasificación de hoy del reto diario en este servidor",
    "commands.tute.challenge.board.public.name": "publica",
    "commands.tute.challenge.board.public.description": "Publicarla en el canal para todos (por defecto solo la ves tú)",
    "commands.tute.config.daily_experience.name": "experiencia_reto",
    "commands.tute.config.daily_experience.description": "Si acabar el reto diario da experiencia (desactivado por defecto)",
    "settings.config.daily_experience": "Experiencia del reto diario",
    "daily.on": "Activada",
    "daily.off": "Desactivada",
    "daily.intro": "**Reto diario de {server} · {date}**\nParejas, una mano: tú y un robot de compañero contra dos robots. Todos los miembros del servidor juegan hoy estas mismas cartas, una vez. Si la abandonas o se anula por esperar demasiado, cuenta como jugada: sin acabar, sin puntos.",
    "daily.started": "La mano de hoy está en tus mensajes directos: {link}",
    "daily.dms_closed": "No puedo enviarte mensajes, así que la mano no se puede repartir en privado. Permite los mensajes directos de los miembros de este servidor (menú del servidor, Ajustes de privacidad) y vuelve a intentarlo: no se ha jugado nada.",
    "daily.played": "Ya has jugado la mano de hoy en este servidor. La próxima llega {when}.",
    "daily.played_line": "Ya has jugado la mano de hoy en este servidor:\n{line}\nLa próxima llega {when}.",
    "daily.in_play": "Tu mano de hoy sigue en juego: {link}",
    "daily.scored": "Tu reto diario está puntuado. Compártelo (no muestra ninguna carta):\n{line}\nLa clasificación del servidor: {command}",
    "daily.share": "Tute reto {date} · {result} · {grid} · 🔥{streak}",
    "daily.share.won": "🏆 {points} ptos ({margin})",
    "daily.share.lost": "{points} ptos ({margin})",
    "daily.share.unfinished": "sin acabar",
    "daily.board.title": "Reto diario · {date}",
    "daily.board.empty": "Nadie ha jugado aún la mano de hoy: {command}",
    "daily.board.line": "**{place}.** {member} · {points} ptos ({margin}) · {grid} · 🔥{streak}",
    "daily.board.playing": "· {member} · jugando ahora · 🔥{streak}",
    "daily.board.unfinished": "· {member} · sin acabar · 🔥{streak}",
    "daily.board.more": "…y {count} más",
    "tables.errors.daily_secret": "Esa es una mano del reto de hoy: sus cartas siguen ocultas hasta que acabe el día (00:00 UTC), para que todos la jueguen sin saberlas.",
    "daily.board.footer": "Puntos de tu pareja en la mano y luego la diferencia. 🟩 una baza que ganó tu pareja, 🟥 una que perdió, 👑 un cante, 💡 pistas pedidas (esa mano queda detrás de las jugadas sin ellas), 🔥 días seguidos.",
}
