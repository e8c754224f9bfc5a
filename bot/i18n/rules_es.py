"""Spanish messages of the rules a table plays: the presets and house rules in words
(``/tute new``'s choices, the lobby's rules line, ``/tute rules``) and their refusals."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "options.rules.name": "reglas",
    "options.rules.description": "Varias reglas de la casa de una vez; las opciones que elijas mandan sobre ellas",
    "options.rules.standard": "Estándar: las reglas de /tute reglas",
    "options.rules.fournier": "Fournier: las 20 nunca pierden las 40 (arrastrado: las 40 primero), cambio anunciado…",
    "options.rules.online": "Online: las 40 primero, no se canta lo recién robado, arrastrado con 36 cartas…",
    "options.rules.sixty-five": "Sesenta y cinco: gana quien pasa de 65 de 130, solo hay tute de reyes",
    "options.rules.havanian": "Habanero clásico: triunfo a triunfo, cambio antes de robar, se canta toda la baza",
    "options.rules.parejas": "Parejas: sin palo vale cualquier triunfo, y siempre se falla",
    "house.default": "(por defecto)",
    "house.preset.standard": "Estándar",
    "house.preset.fournier": "Fournier",
    "house.preset.online": "Online",
    "house.preset.sixty-five": "Sesenta y cinco",
    "house.rule.forty_first.lose": "cantar antes las 20 pierde las 40",
    "house.rule.forty_first.strict": "no se cantan las 20 teniendo las 40",
    "house.rule.forty_first.free": "cantar las 20 nunca pierde las 40",
    "house.rule.sing_drawn.true": "se canta en cuanto se tienen rey y caballo",
    "house.rule.sing_drawn.false": "no se canta con la carta recién robada",
    "house.rule.exchange_window.before_lead": "cambio tras ganar baza, antes de salir",
    "house.rule.exchange_window.before_draw": "cambio antes de robar",
    "house.rule.exchange_window.announce": "cambio anunciado",
    "house.rule.pairs_sing.side": "un cante por baza y pareja",
    "house.rule.pairs_sing.each": "canta cada compañero",
    "house.rule.tute_knights.true": "tute de reyes o de caballos",
    "house.rule.tute_knights.false": "solo hay tute de reyes",
    "house.rule.auto_exchange.true": "el siete de triunfo se lleva la vuelta solo",
    "house.rule.auto_exchange.false": "quien tiene el siete de triunfo elige si cambia",
    "house.rule.seats.3": "tres en la mesa",
    "house.rule.seats.4": "cuatro en la mesa, el que da descansa",
    "house.rule.next_dealer.rotate": "da el otro jugador",
    "house.rule.next_dealer.last_ten": "da quien se llevó las diez de últimas",
    "house.rule.overtrump.true": "sin palo, hay que montar al triunfo",
    "house.rule.overtrump.false": "sin palo, vale cualquier triunfo",
    "house.rule.sing_until.next_card": "se canta antes de la siguiente carta",
    "house.rule.sing_until.next_trick": "se canta hasta que acabe la baza siguiente",
    "house.rule.deal_score.target": "partida a la meta",
    "house.rule.deal_score.per_deal": "cada mano es una ronda",
    "house.rule.undertrump.true": "sin poder montar, se falla igual",
    "house.rule.undertrump.false": "sin poder montar, cualquier carta",
    "house.rule.deck.36": "36 cartas, sin doses",
    "house.rule.deck.40": "40 cartas",
    "house.preset.parejas": "Parejas",
    "house.preset.havanian": "Habanero clásico",
    "tables.errors.preset_not_here": "Las reglas {preset} solo existen en {variants}.",
    "tables.errors.option_per_deal": "La opción `{option}` no vale cuando cada mano es una ronda (deal_score=per_deal).",
    "tables.opt.preset": "Reglas: {preset}",
    "tables.opt.preset_with": "Reglas: {preset} ({rules})",
    "tables.opt.house": "Reglas de la casa: {rules}",
    "tables.errors.option_not_here": "La opción `{option}` no existe en {variant}, solo en {variants}.",
    "tables.errors.option_40": "La opción `{option}` solo existe con la baraja de 40 cartas.",
    "tables.errors.option_sixty_five": "La opción `{option}` no vale con la puntuación a 65.",
    "tables.errors.house_pair": "No entiendo «{typed}»: escribe cada regla de la casa como nombre=valor, p. ej. forty_first=strict sing_drawn=false.",
    "tables.errors.house_unknown": "«{typed}» no es una regla de la casa. Aquí valen: {names}.",
    "tables.errors.house_value": "La regla de la casa `{option}` no puede ser «{typed}»: admite {values}.",
    "tables.errors.house_twice": "La regla de la casa `{option}` está dos veces.",
    "rules.house_name": "{name} · `{typed}`",
    "rules.house_title": "Reglas de la casa (/tute nueva reglas_casa:)",
    "rules.house_intro": (
        "Maneras de jugar de algunas mesas. El anfitrión las elige como nombre=valor, "
        "p. ej. `reglas_casa: forty_first=strict sing_drawn=false`; los valores van abajo, primero el "
        "de por defecto. Cada una existe solo en las modalidades que dice."
    ),
    "rules.house.forty_first": (
        "Cantar las 20 teniendo las 40. `lose`: esas 40 ya no se pueden cantar. "
        "`strict`: no se dejan cantar las 20 mientras tengas las 40 sin cantar: canta antes las 40. "
        "`free`: no se pierde nada, las 40 se pueden cantar tras otra baza ganada."
    ),
    "rules.house.sing_drawn": (
        "Habanero. `true`: se canta en cuanto se tienen el rey y el caballo. "
        "`false`: no justo después de robar su rey o su caballo; se canta tras otra baza ganada."
    ),
    "rules.house.exchange_window": (
        "Habanero. `before_lead`: tras ganar una baza, antes de salir a la siguiente. "
        "`before_draw`: tras ganar una baza, antes de robar (también en la baza que acaba el monte). "
        "`announce`: mientras la vuelta esté bajo el monte, pones debajo el siete (o el dos) de triunfo; "
        "el cambio se hace en tu próxima baza ganada (en el acto si la acabas de ganar), y si se roba "
        "antes la vuelta, el siete vuelve a tu mano."
    ),
    "rules.house.pairs_sing": (
        "Parejas. `side`: un cante por baza que gana la pareja, lo cante quien lo cante. "
        "`each`: cada compañero puede cantar una vez (dos cantes como mucho)."
    ),
    "rules.house.tute_knights": "`true`: cuatro reyes o cuatro caballos en una mano son tute. `false`: solo los cuatro reyes.",
    "rules.house.auto_exchange": (
        "Arrastrado con 40 cartas. `true`: quien tiene el siete (o el dos) de triunfo se lleva la vuelta "
        "al acabar de dar. `false`: elige si la cambia antes de la primera salida o se queda su carta; "
        "la vuelta que queda en la mesa no cuenta para nadie."
    ),
    "rules.house.seats": (
        "Arrastrado con 40 cartas. `3`. `4`: se sientan cuatro y en cada mano el que da descansa: "
        "no recibe cartas, no puja, ni paga ni cobra. El reparto pasa al siguiente como siempre."
    ),
    "rules.house.next_dealer": (
        "Habanero, entre las manos de una partida. `rotate`: da el otro jugador. "
        "`last_ten`: da quien se llevó las diez de últimas."
    ),
    "rules.presets_title": "Juegos de reglas (/tute nueva reglas:)",
    "rules.preset_line": "**{preset}**: {rules}",
    "rules.preset_none": "todo como arriba",
    "rules.presets_note": "Un juego de reglas solo pone lo que existe en la modalidad; las opciones que elijas mandan sobre él.",
    "rules.house.overtrump": "Sin carta del palo que sale pero con triunfos. `true`: si ya hay un triunfo en la mesa, hay que montarlo con uno mayor si se puede. `false`: vale cualquier triunfo (pero hay que fallar).",
    "rules.house.sing_until": "`next_card`: se canta al ganar la baza, antes de la siguiente carta. `next_trick`: hasta que se complete la baza siguiente, aunque ya hayas salido, mientras tengas la pareja.",
    "rules.house.deal_score": "Habanero. `target`: partida a 101 en las manos que hagan falta, con reclamación. `per_deal`: cada mano es una ronda, la gana quien más suma (empate: las diez de últimas).",
    "rules.preset_in": "en {variant}: {rules}",
    "rules.preset_only": "solo {variants}",
}
