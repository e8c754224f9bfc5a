"""Spanish messages of ``/tute rules``: the guide of each variant, page by page (the goal
and the cards, a trick, cantes, winning, the table's options; its house rules and presets
are in ``rules_es``). Numbers are placeholders, filled from the engine."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "guide.title": "Tute: las reglas, paso a paso",
    "guide.pick": "Elige una modalidad para leer sus reglas en unas pocas páginas.",
    "guide.learn": "¿Nuevo en el tute? {command} te lo enseña paso a paso, contra robots, y después te reparte una mano de práctica.",
    "guide.pick_line": "**{name}**: {summary}",
    "guide.summary.habanero": "dos jugadores y monte; gana el primero que llega a {target}",
    "guide.summary.arrastrado": "tres jugadores, se reparten todas las cartas y se juega por fichas",
    "guide.summary.individual": "cuatro jugadores, cada uno por su cuenta",
    "guide.summary.pairs": "dos parejas, los compañeros sentados enfrente",
    "guide.pick_placeholder": "Elige una modalidad",
    "guide.page": "{page}/{pages}",
    "guide.expired": "Esta guía ha caducado. Usa /tute reglas para abrirla de nuevo.",
    "guide.heading": "### {variant}\n**{title}**",
    "guide.part": "{title} ({part}/{parts})",
    "guide.page_title.goal": "El objetivo y las cartas",
    "guide.page_title.trick": "Cómo se juega una baza",
    "guide.page_title.cantes": "Los cantes y el cambio",
    "guide.page_title.winning": "Cómo se gana la mano y la partida",
    "guide.page_title.options": "Opciones de la mesa",
    "guide.page_title.house": "Reglas de la casa y juegos de reglas",
    # el objetivo y las cartas
    "guide.goal.habanero": (
        "{players} jugadores, {hand} cartas cada uno. El resto es el monte, y la carta que se "
        "vuelve bocarriba debajo de él marca el triunfo. Gana bazas con puntos y canta: el "
        "primero que llega a {target} gana."
    ),
    "guide.goal.arrastrado": (
        "{players} jugadores, {hand} cartas cada uno ({hand36} con la baraja de 36), sin monte. "
        "La carta que se vuelve al repartir marca el triunfo. Gana quien más suma en la mano, "
        "y al acabar se pagan las fichas."
    ),
    "guide.goal.individual": (
        "{players} jugadores, {hand} cartas cada uno, cada uno por su cuenta. La última carta "
        "del que da, que ven todos, marca el triunfo y se queda en su mano. Gana quien más suma "
        "en la mano."
    ),
    "guide.goal.pairs": (
        "{players} jugadores en dos parejas, los compañeros enfrente (asientos 1 y 3 contra "
        "2 y 4), {hand} cartas cada uno. La última carta del que da, que ven todos, marca el "
        "triunfo y se queda en su mano. Gana la pareja que más suma."
    ),
    "guide.deck": (
        "La baraja española: 40 cartas de cuatro palos, {O} oros, {C} copas, {E} espadas y "
        "{B} bastos. Las figuras son la sota (10), el caballo (11) y el rey (12). Un triunfo "
        "mata a cualquier carta de otro palo."
    ),
    "guide.order": (
        "En la imagen, un palo de la carta más fuerte a la más débil, con lo que vale cada "
        "una: {points}. La baraja suma {total}, y la última baza vale {last} más."
    ),
    "guide.points_item": "{rank} {points}",
    "guide.points_rest": "las demás 0",
    "guide.picture.title": "Orden de fuerza y puntos",
    "guide.picture.footer": "Baraja {total} · últimas +{last}",
    "guide.picture.alt": "Las cartas de {suit}, de la más fuerte a la más débil, y sus puntos: {cards}.",
    # una baza
    "guide.trick.play": (
        "Sale el siguiente al que da, y los demás echan una carta cada uno, por "
        "turno. Se lleva la baza el triunfo más alto y, si no hay triunfo, la carta más alta "
        "del palo que salió. Quien la gana sale en la siguiente."
    ),
    "guide.trick.duty": (
        "**La obligación.** Hay que asistir al palo que sale y matar su carta más alta si nadie "
        "ha fallado. Sin ese palo, hay que fallar con triunfo, montando sobre el triunfo que ya "
        "esté en la mesa si puedes (si no puedes, cualquier carta). Sin triunfo, cualquier "
        "carta. Tu mano solo te ofrece las cartas que puedes echar."
    ),
    "guide.trick.full": "La obligación rige desde la primera baza hasta la última.",
    "guide.trick.stock.free": "Mientras quede monte vale cualquier carta; la obligación rige cuando se acaba.",
    "guide.trick.stock.trump": (
        "Mientras quede monte, a un triunfo que sale hay que responder con triunfo si lo "
        "tienes, y si no, cualquier carta; la obligación rige cuando se acaba."
    ),
    "guide.trick.stock.full": "La obligación rige desde la primera baza, haya monte o no.",
    "guide.trick.draw": "Tras cada baza roba primero del monte quien la gana, y después el otro.",
    "guide.trick.pairs": "También hay que matar la carta del compañero, como la de cualquiera.",
    # los cantes y el cambio
    "guide.cantes": (
        "**Los cantes.** El rey y el caballo de un mismo palo en tu mano valen 20, o las 40 en "
        "el triunfo. Se cantan justo después de que tu bando gane una baza, antes de la "
        "siguiente carta: te sale un botón en la mano. Un cante por baza ganada y cada palo "
        "una vez; un rey o un caballo ya jugado no se puede cantar."
    ),
    "guide.forty": "Si tienes las 40, cántalas primero: quien canta antes las 20 las pierde.",
    "guide.cantes.habanero": "Sin monte ya no se canta.",
    "guide.cantes.pairs": "Cuando la pareja gana una baza, puede cantar cualquiera de los dos.",
    "guide.tute.on": (
        "**Tute.** Los cuatro reyes o los cuatro caballos en una mano, anunciados como un "
        "cante, ganan la mano en el acto (no si ya has cantado)."
    ),
    "guide.tute.off": (
        "**El tute** (cuatro reyes o cuatro caballos en una mano, que ganan la mano en el "
        "acto) no vale aquí salvo que la mesa ponga permitir_tute."
    ),
    "guide.exchange.habanero": (
        "**El cambio.** Tras ganar una baza, antes de salir, quien tiene el 7 de triunfo puede "
        "cambiarlo por la vuelta que está bajo el monte si es un as, un tres o una figura; el "
        "2 de triunfo se lleva un 4, 5, 6 o 7."
    ),
    "guide.exchange.arrastrado": (
        "**El cambio.** Con 40 cartas la vuelta queda en la mesa: quien tiene el 7 de triunfo "
        "(o el 2, si la vuelta es un 7) se la lleva antes de la primera baza, y el 7 se queda "
        "allí, fuera de juego. Con 36 cartas es la última del que da y se queda en su mano."
    ),
    "guide.exchange.none": "Aquí no hay cambio: la vuelta se queda en la mano del que da.",
    # cómo se gana
    "guide.score": (
        "Cada uno suma los puntos de las cartas de sus bazas, sus cantes y {last} de últimas "
        "si se lleva la última baza."
    ),
    "guide.win.habanero": (
        "Se gana al llegar a {target}. Si nadie llega, otra mano, y los puntos se guardan; si "
        "pasan los dos, gana el que más tiene. Desde la segunda mano, justo después de ganar "
        "una baza puedes irte (anunciar que ya has llegado): si es verdad, ganas en el acto; "
        "si no, pierdes."
    ),
    "guide.capote": (
        "**Capote.** Justo después del último robo cualquiera puede anunciar que se llevará "
        "todas las bazas que quedan: si lo consigue gana la partida, y si pierde una, la pierde."
    ),
    "guide.win.most": "Gana la mano quien más suma; en caso de empate, quien ganó la baza más tardía.",
    "guide.win.pairs": (
        "Gana la mano la pareja que más suma, y los dos compañeros por igual; en caso de "
        "empate, la pareja que ganó la baza más tardía."
    ),
    "guide.pay.arrastrado": (
        "**Las fichas.** El ganador cobra 100 a cada rival (200 si hace {big} o más, o con "
        "tute); cada cante cobra sus 20 o 40 a cada rival."
    ),
    "guide.plato": (
        "**El plato** (opción plato). Cada jugador pone {stake} en el bote cuando está vacío. "
        "Antes de la primera baza cada uno puja un contrato de {low} a {high} puntos o pasa; "
        "el último que puja juega por el bote. Si lo cumple, cobra 200 a cada rival y se lleva "
        "el bote; si no, paga 200 a cada uno y pone otro tanto en el bote."
    ),
    "guide.rounds": (
        "Una partida es una ronda salvo que la mesa ponga más (opción rondas, hasta {most}): "
        "gana la partida el primer bando que gana esas rondas."
    ),
    # las opciones de la mesa
    "guide.options_intro": "Lo que puede elegir el anfitrión de una mesa de esta modalidad:",
    "guide.opt.rounds": "rondas que un bando debe ganar para ganar la partida (por defecto 1, hasta {most}).",
    "guide.opt.bet": "fichas que apuesta cada jugador; los ganadores se llevan el bote menos el {rake}% de la banca.",
    "guide.opt.turn_time": "segundos por turno; si se acaban, la partida juega por ti.",
    "guide.opt.competitive": "si cuentan las fichas, la experiencia y la clasificación (si no, es de práctica).",
    "guide.opt.private": "solo se sientan los miembros que invita el anfitrión.",
    "guide.opt.spectators": "si otros pueden mirar (si no, un hilo privado para los jugadores).",
    "guide.opt.robots": "lo bien que juegan los robots: fácil, normal o difícil.",
    "guide.option_line": "**{name}**: {text}",
    "guide.opt.allow_tute": "si un tute gana la mano en el acto (aquí, por defecto: {default}).",
    "guide.opt.stock_duty": (
        "qué hay que echar mientras queda monte. `libre` (por defecto): cualquier carta; "
        "`triunfo`: a triunfo se responde con triunfo; `completa`: la obligación desde la "
        "primera baza."
    ),
    "guide.opt.beat_partner": (
        "`sí` (por defecto): hay que matar la carta del compañero como la de cualquiera; "
        "`no`: si la baza es del compañero, no hace falta matarla."
    ),
    "guide.opt.undertrump": (
        "si no puedes montar sobre un triunfo de la mesa, `no` (por defecto): cualquier "
        "carta; `sí`: hay que echar triunfo igualmente."
    ),
    "guide.opt.exchange": (
        "`sí` (por defecto): el 7 (o el 2) de triunfo puede llevarse la vuelta; `no`: no hay "
        "cambio (la vuelta que queda en la mesa no es de nadie)."
    ),
    "guide.opt.capote": "`sí` (por defecto): se puede anunciar capote tras el último robo; `no`: nunca.",
    "guide.opt.target": "los puntos que ganan una partida (por defecto {target}).",
    "guide.opt.scoring": (
        "`más` (por defecto): como arriba. `sesenta y cinco`: solo cuentan las cartas y las "
        "diez de últimas, 130 en total. Quien se lleva la última baza gana con 65 o más, 75 si "
        "cantó las 20 y 85 si cantó las 40; si no llega, gana el otro bando. Pasar de 101 vale "
        "dos rondas; con menos de 10 puntos en la mano repartida puedes rendirte antes de la "
        "primera baza."
    ),
    "guide.opt.deck": (
        "`40` (por defecto): {hand40} cartas cada uno y la vuelta en la mesa. `36`: sin los "
        "doses, {hand36} cada uno, y el que da se queda la vuelta."
    ),
    "guide.opt.plato": "`no` (por defecto): sin bote; `sí`: el plato de la página anterior.",
}
