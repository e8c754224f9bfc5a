"""El análisis de una mano en español: el juez del robot difícil sobre las decisiones de
un jugador, con sus notas, la precisión de la mano y las decisiones más caras (el botón
Análisis junto a Repetición, y las repeticiones de la mesa de cartas)."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "review.btn": "Análisis",
    "review.title": "Análisis · mano {deal} de la mesa n.º {id}",
    "review.accuracy": "Precisión **{accuracy} %** en {decisions} decisiones · {lost} puntos"
    " perdidos en total",
    "review.counts": "✅ {good} buenas · 🟡 {inaccuracy} imprecisiones · 🟠 {mistake} errores"
    " · 🔴 {blunder} errores graves",
    "review.costliest": "**Tus decisiones más caras**",
    "review.mark.good": "Buena",
    "review.mark.inaccuracy": "Imprecisión",
    "review.mark.mistake": "Error",
    "review.mark.blunder": "Error grave",
    "review.item": "{icon} **{mark}** en el paso {step}, {cost} puntos perdidos\nTú: {made}."
    " Mejor: {better}: {why}{keeps}.",
    "review.none": "Ninguna decisión cara: cada elección fue la mejor que encontró el robot,"
    " o casi.",
    "review.nothing": "En esta mano no tuviste ninguna elección de verdad: nada que analizar.",
    "review.how": "Lo juzga el robot difícil con lo que tu asiento veía en cada decisión,"
    " nunca las cartas ocultas, jugando la mano {worlds} veces desde ahí. Notas por puntos"
    " perdidos: buena por debajo de 3, imprecisión por debajo de 8, error por debajo de 15,"
    " error grave desde 15.",
    "review.turned": "la vuelta",
    "review.btn.step": "Paso {step}",
    "web.replay.review": "🔎 Análisis",
    "web.replay.reviewing": "El robot está juzgando tus decisiones…",
    "web.replay.review_step": "Paso {step}",
    "tables.errors.review_not_played": "Un análisis juzga tus propias decisiones: solo los"
    " jugadores de una mano pueden analizarla.",
}
