"""English messages of the rules a table plays: the presets and house rules in words
(``/tute new``'s choices, the lobby's rules line, ``/tute rules``) and their refusals."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "options.rules.name": "rules",
    "options.rules.description": "A set of house rules at once; the options you name win over it",
    "options.rules.standard": "Standard: the rules of /tute rules",
    "options.rules.fournier": "Fournier: a 20 never loses the 40 (arrastrado: the 40 first), exchange by announcing…",
    "options.rules.online": "Online: 40 first, no singing the card just drawn, arrastrado with 36 cards…",
    "options.rules.sixty-five": "Sixty-five: more than 65 of 130 wins, only four kings are a tute",
    "options.rules.havanian": "Havanian (habanero): answer trumps, exchange before drawing, sing all trick",
    "options.rules.parejas": "Parejas (pairs): without the suit, any trump will do, and always a trump",
    "house.default": "(default)",
    "house.preset.standard": "Standard",
    "house.preset.fournier": "Fournier",
    "house.preset.online": "Online",
    "house.preset.sixty-five": "Sixty-five",
    "house.rule.forty_first.lose": "a 20 sung first loses the 40",
    "house.rule.forty_first.strict": "no 20 while you hold the 40",
    "house.rule.forty_first.free": "a 20 never loses the 40",
    "house.rule.sing_drawn.true": "a pair may be sung as soon as it is in hand",
    "house.rule.sing_drawn.false": "no singing with the card just drawn",
    "house.rule.exchange_window.before_lead": "exchange after a win, before leading",
    "house.rule.exchange_window.before_draw": "exchange before drawing",
    "house.rule.exchange_window.announce": "exchange by announcing",
    "house.rule.pairs_sing.side": "one cante per trick for the pair",
    "house.rule.pairs_sing.each": "each partner sings",
    "house.rule.tute_knights.true": "four kings or four knights are a tute",
    "house.rule.tute_knights.false": "only four kings are a tute",
    "house.rule.auto_exchange.true": "the trump 7 takes the turned card by itself",
    "house.rule.auto_exchange.false": "the holder of the trump 7 chooses to exchange",
    "house.rule.seats.3": "three at the table",
    "house.rule.seats.4": "four at the table, the dealer sits out",
    "house.rule.next_dealer.rotate": "the deal passes to the other player",
    "house.rule.next_dealer.last_ten": "whoever took the last ten deals next",
    "house.rule.overtrump.true": "without the suit, beat a trump with a higher one",
    "house.rule.overtrump.false": "without the suit, any trump will do",
    "house.rule.sing_until.next_card": "sing before the next card",
    "house.rule.sing_until.next_trick": "sing until the next trick ends",
    "house.rule.deal_score.target": "a game to the target",
    "house.rule.deal_score.per_deal": "each deal is a round",
    "house.rule.undertrump.true": "unable to overtrump, still a trump",
    "house.rule.undertrump.false": "unable to overtrump, any card",
    "house.rule.deck.36": "36 cards, no 2s",
    "house.rule.deck.40": "40 cards",
    "house.preset.parejas": "Parejas",
    "house.preset.havanian": "Havanian",
    "tables.errors.preset_not_here": "The rules {preset} exist only in {variants}.",
    "tables.errors.option_per_deal": "The option `{option}` does not apply when each deal is a round (deal_score=per_deal).",
    "tables.opt.preset": "Rules: {preset}",
    "tables.opt.preset_with": "Rules: {preset} ({rules})",
    "tables.opt.house": "House rules: {rules}",
    "tables.errors.option_not_here": "The option `{option}` does not exist in {variant}, only in {variants}.",
    "tables.errors.option_40": "The option `{option}` exists only with the 40-card deck.",
    "tables.errors.option_sixty_five": "The option `{option}` does not apply with sixty-five scoring.",
    "tables.errors.house_pair": "I cannot read “{typed}”: write each house rule as name=value, e.g. forty_first=strict sing_drawn=false.",
    "tables.errors.house_unknown": "“{typed}” is not a house rule. Here they are: {names}.",
    "tables.errors.house_value": "The house rule `{option}` cannot be “{typed}”: it takes {values}.",
    "tables.errors.house_twice": "The house rule `{option}` is named twice.",
    "rules.house_name": "{name} · `{typed}`",
    "rules.house_title": "House rules (/tute new house:)",
    "rules.house_intro": (
        "Readings of the rules some tables play. The host names them as name=value pairs, "
        "e.g. `house: forty_first=strict sing_drawn=false`; the values are below, the default first. "
        "Each exists only in the variants it names."
    ),
    "rules.house.forty_first": (
        "Singing a 20 while you hold the 40. `lose`: that 40 can no longer be sung. "
        "`strict`: the 20 is refused while you hold an unsung 40: sing the 40 first. "
        "`free`: nothing is lost, the 40 may still be sung after a later win."
    ),
    "rules.house.sing_drawn": (
        "Habanero. `true`: a pair may be sung as soon as its king and knight are in hand. "
        "`false`: not right after drawing its king or knight; it may be sung after a later win."
    ),
    "rules.house.exchange_window": (
        "Habanero. `before_lead`: after winning a trick, before leading the next. "
        "`before_draw`: after winning a trick, before the draws (even on the trick that empties the stock). "
        "`announce`: while the turned card is under the stock, put the trump 7 (or 2) under it; the swap "
        "is made at your next win (at once in a window you just won), and if the turned card is drawn "
        "first, the 7 comes back to your hand."
    ),
    "rules.house.pairs_sing": (
        "Pairs. `side`: one cante per trick the pair wins, by either partner. "
        "`each`: each partner may sing once after it (two cantes at most)."
    ),
    "rules.house.tute_knights": "`true`: four kings or four knights in one hand are a tute. `false`: only four kings.",
    "rules.house.auto_exchange": (
        "Arrastrado with 40 cards. `true`: the holder of the trump 7 (or 2) takes the turned card "
        "as the deal ends. `false`: they choose to exchange before the first lead, or keep their card; "
        "a turned card left on the table counts for nobody."
    ),
    "rules.house.seats": (
        "Arrastrado with 40 cards. `3`. `4`: four sit at the table and each deal the dealer sits out: "
        "no cards, no bids, pays and is paid nothing. The deal passes on as usual."
    ),
    "rules.house.next_dealer": (
        "Habanero, between the deals of a game. `rotate`: the other player deals. "
        "`last_ten`: whoever took the last ten deals."
    ),
    "rules.presets_title": "Presets (/tute new rules:)",
    "rules.preset_line": "**{preset}**: {rules}",
    "rules.preset_none": "every rule as above",
    "rules.presets_note": "A preset sets only what exists in the variant; the options you name win over it.",
    "rules.house.overtrump": "Without a card of the suit led but with trumps. `true`: beat a trump already on the table with a higher one when you can. `false`: any trump will do (you must still play one).",
    "rules.house.sing_until": "`next_card`: sing right after your side wins a trick, before the next card. `next_trick`: until the next trick is complete, even after leading, while you hold the pair.",
    "rules.house.deal_score": "Habanero. `target`: a game to 101 over as many deals as it takes, with claims. `per_deal`: each deal is a round, won by the higher score (a tie to the last trick).",
    "rules.preset_in": "in {variant}: {rules}",
    "rules.preset_only": "{variants} only",
}
