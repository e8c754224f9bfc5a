"""Los datos de cada miembro en español: ``/tute privacidad ver`` (lo que el bot guarda de
él) y ``/tute privacidad borrar`` (borrarlo, tras confirmarlo), y el nombre de un antiguo
jugador en los registros que quedan."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "commands.tute.privacy.name": "privacidad",
    "commands.tute.privacy.description": "Lo que el bot guarda de ti, y borrarlo",
    "commands.tute.privacy.show.name": "ver",
    "commands.tute.privacy.show.description": "Lo que el bot guarda de ti, en cada servidor (solo lo ves tú)",
    "commands.tute.privacy.erase.name": "borrar",
    "commands.tute.privacy.erase.description": "Borrar todo lo que el bot guarda de ti, en cada servidor (antes lo pregunta)",
    "privacy.former_player": "un antiguo jugador",
    "privacy.title": "**Lo que el bot guarda de ti**",
    "privacy.nothing": "El bot no guarda nada de ti.",
    "privacy.server": "**{server}**",
    "privacy.unknown_server": "Un servidor donde el bot no está, o una conversación (id {id})",
    "privacy.more_servers": "…y {count} servidores más",
    "privacy.standing": "- Tu clasificación (experiencia, rondas, partidas, cantes, tutes): partidas jugadas: {games}",
    "privacy.chips": "- Tus fichas: {chips} · apuntes en el libro de fichas: {rows}",
    "privacy.ratings": "- Tus puntuaciones de habilidad (familias de variantes): {count}",
    "privacy.daily": "- Tus resultados del reto diario: {count}",
    "privacy.preferences": "- Tu ajuste de aviso de turno",
    "privacy.reviews": "- Análisis de tus manos: {count}",
    "privacy.records": "**En los registros de partidas y torneos**",
    "privacy.records_line": (
        "- Mesas: {tables} · manos: {deals} · torneos: {tournaments} · partidas puntuadas:"
        " {rated}, con tu id y el nombre que mostrabas al sentarte o al apuntarte"
    ),
    "privacy.how_long": (
        "Todo se guarda hasta que lo borres con {command}: tu clasificación, fichas,"
        " puntuaciones, resultados diarios, análisis de manos y ajustes desaparecen, en"
        " cada servidor; las partidas y torneos terminados conservan sus resultados,"
        " contigo como «un antiguo jugador»."
    ),
    "privacy.server_left": (
        "Lo de cada servidor se borra también {days} días después de que el bot salga de él"
        " (salvo que vuelva antes)."
    ),
    "privacy.confirm": (
        "**¿Borrar todo lo que el bot guarda de ti, en cada servidor?**\n"
        "Se borran tu clasificación, fichas, puntuaciones, resultados diarios, análisis de"
        " manos y ajustes. En las partidas y torneos terminados pasas a ser «un antiguo"
        " jugador»: conservan sus resultados. No se puede deshacer. Estos botones valen 5"
        " minutos."
    ),
    "privacy.erase_button": "Borrarlo todo",
    "privacy.keep_button": "Mantenerlo",
    "privacy.kept": "No se ha borrado nada.",
    "privacy.nothing_to_erase": "El bot no guarda nada de ti: no hay nada que borrar.",
    "privacy.erased": (
        "**Borrado.** En {servers} servidores: clasificaciones: {standings} ·"
        " puntuaciones de habilidad: {ratings} · resultados del reto diario: {daily} ·"
        " análisis de manos: {reviews} · ajustes: {preferences} borrados; tus {chips}"
        " fichas se fueron contigo de las clasificaciones. Mesas: {tables} · torneos:"
        " {tournaments} · partidas puntuadas: {rated} ahora te nombran «un antiguo"
        " jugador»."
    ),
    "tables.errors.privacy_expired": (
        "Esta confirmación ha caducado: no se ha borrado nada. Vuelve a pedirlo con"
        " /tute privacidad borrar."
    ),
    "tables.errors.privacy_forged": (
        "Esta confirmación no es tuya, o ya no vale (el bot se reinició): no se ha borrado"
        " nada. Vuelve a pedirlo con /tute privacidad borrar."
    ),
    "tables.errors.privacy_at_table": (
        "La mesa #{table} no ha terminado y sigue teniendo tu asiento: levántate y espera a"
        " que acabe su partida; luego vuelve a pedirlo. No se ha borrado nada."
    ),
    "tables.errors.privacy_in_tournament": (
        "El torneo #{tournament} no ha terminado y estás en él (o lo organizas): retírate, o"
        " espera a que acabe; luego vuelve a pedirlo. No se ha borrado nada."
    ),
}
