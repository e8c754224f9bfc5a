"""Las palabras de las repeticiones en español: una mano terminada, paso a paso
(``/tute history`` y el botón Repetir del resumen)."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "commands.tute.history.deal.name": "mano",
    "commands.tute.history.deal.description": "Una mano tuya anterior aquí (la última si no eliges)",
    "replays.btn.open": "Repetir",
    "replays.title": "Repetición · mano {deal} de la mesa n.º {id}",
    "replays.step": "Paso {step} de {steps} · todas las cartas a la vista",
    "replays.dealt": "Repartió {dealer}. Triunfo: **{suit}**.",
    "replays.turned": "Vuelta: {card}.",
    "replays.trick": "**Baza {number}**: salió {leader} — {cards}. **{winner}** se la llevó ({points} puntos).",
    "replays.card": "{name}: {card}",
    "replays.exchange": "{name} cambió {gave} por la vuelta, {took}.",
    "replays.said.tute": "¡{name} cantó tute!",
    "replays.said.capote": "{name} declaró capote: su bando se llevará todas las bazas.",
    "replays.said.claim": "{name} reclamó las bazas que quedaban.",
    "replays.said.resign": "{name} se rindió.",
    "replays.said.bid": "{name} pujó {points}.",
    "replays.said.pass": "{name} pasó.",
    "replays.side_points": "{names} {points}",
    "replays.scores": "Puntos hasta ahora: {scores}",
    "replays.no_winner": "Nadie ganó esta mano del todo: los puntos pasaron a la siguiente.",
    "replays.player": "Jugador {number}",
    "replays.record": "El acta de esta mano (compruébala con tute-referee).",
    "replays.hand_alt": "{name} tiene {cards}",
    "replays.alt": "Paso {step} de {steps}: la baza en la mesa; {hands}",
    "replays.choice": "Mesa n.º {id}, mano {deal} · {variant} · {when}",
    "tables.errors.replay_none": "La mesa n.º {id} no tiene mano {deal}.",
    "tables.errors.replay_elsewhere": "Esa mano se jugó en otro servidor: aquí solo se repiten las manos de este servidor.",
    "tables.errors.replay_unfinished": "La mano {deal} de la mesa n.º {id} no se jugó hasta el final: solo se repiten manos terminadas.",
    "tables.errors.replay_unreadable": "El acta de la mano {deal} de la mesa n.º {id} no se puede repetir.",
    "tables.errors.replay_pick": "Elige una de tus manos de la lista.",
}
