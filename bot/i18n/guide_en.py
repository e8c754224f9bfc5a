"""English messages of ``/tute rules``: the guide of each variant, page by page (the goal
and the cards, a trick, cantes, winning, the table's options; its house rules and presets
are in ``rules_en``). Numbers are placeholders, filled from the engine."""

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    "guide.title": "Tute: the rules, page by page",
    "guide.pick": "Pick a variant to read its rules in a few short pages.",
    "guide.learn": "New to Tute? {command} teaches it step by step, against robots, then deals you a practice game.",
    "guide.pick_line": "**{name}**: {summary}",
    "guide.summary.habanero": "two players and a stock; the first to {target} wins",
    "guide.summary.arrastrado": "three players, every card dealt, played for chips",
    "guide.summary.individual": "four players, each on their own",
    "guide.summary.pairs": "two pairs, partners facing each other",
    "guide.pick_placeholder": "Choose a variant",
    "guide.page": "{page}/{pages}",
    "guide.expired": "This guide has expired. Run /tute rules to open it again.",
    "guide.heading": "### {variant}\n**{title}**",
    "guide.part": "{title} ({part}/{parts})",
    "guide.page_title.goal": "The goal and the cards",
    "guide.page_title.trick": "Playing a trick",
    "guide.page_title.cantes": "Cantes and the exchange",
    "guide.page_title.winning": "Winning the deal and the game",
    "guide.page_title.options": "Table options",
    "guide.page_title.house": "House rules and presets",
    # the goal and the cards
    "guide.goal.habanero": (
        "{players} players, {hand} cards each. The rest is the stock, and the card turned "
        "face up under it names trumps. Take tricks that hold points and sing cantes: the "
        "first to {target} points wins."
    ),
    "guide.goal.arrastrado": (
        "{players} players, {hand} cards each ({hand36} with the 36-card deck), no stock. "
        "The card turned at the deal names trumps. Take the most points in the deal: chips "
        "change hands at its end."
    ),
    "guide.goal.individual": (
        "{players} players, {hand} cards each, everyone for themself. The dealer's last card, "
        "shown to all, names trumps and stays in their hand. Take the most points in the deal."
    ),
    "guide.goal.pairs": (
        "{players} players in two pairs, partners facing each other (seats 1 and 3 against "
        "2 and 4), {hand} cards each. The dealer's last card, shown to all, names trumps and "
        "stays in their hand. Your pair must take the most points."
    ),
    "guide.deck": (
        "The Spanish deck: 40 cards in four suits, {O} coins (oros), {C} cups (copas), "
        "{E} swords (espadas) and {B} clubs (bastos). The figures are the Jack (sota, 10), "
        "the Knight (caballo, 11) and the King (rey, 12). A trump beats any card of another suit."
    ),
    "guide.order": (
        "The picture shows one suit from the strongest card to the weakest, with the points "
        "each is worth: {points}. {total} in the deck, and {last} more for the last trick."
    ),
    "guide.points_item": "{rank} {points}",
    "guide.points_rest": "the rest 0",
    "guide.picture.title": "Strongest first, with their points",
    "guide.picture.footer": "Deck {total} · last trick +{last}",
    "guide.picture.alt": "The cards of {suit}, strongest first, and their points: {cards}.",
    # a trick
    "guide.trick.play": (
        "The player after the dealer leads the first trick; the others play a card each, "
        "in turn. The highest trump takes the trick, otherwise the highest card of the suit "
        "led. Whoever takes it leads the next."
    ),
    "guide.trick.duty": (
        "**The duty.** Follow the suit led, and beat its highest card if nobody has trumped. "
        "Without that suit, play a trump, higher than a trump already down if you can (if "
        "you can't, any card). With no trump either, any card. Your hand offers only the "
        "cards you may play."
    ),
    "guide.trick.full": "The duty holds from the first trick to the last.",
    "guide.trick.stock.free": "While the stock lasts you may play any card; the duty holds once it is empty.",
    "guide.trick.stock.trump": (
        "While the stock lasts, a trump led must be answered with a trump if you have one, "
        "otherwise any card; the duty holds once it is empty."
    ),
    "guide.trick.stock.full": "The duty holds from the first trick, stock or not.",
    "guide.trick.draw": "After each trick the winner draws the top card of the stock, then the other player.",
    "guide.trick.pairs": "You must beat your partner's card too, as anyone else's.",
    # cantes and the exchange
    "guide.cantes": (
        "**Cantes.** The King and the Knight of one suit in your hand are worth 20, or 40 in "
        "trumps. Sing right after your side wins a trick, before the next card: a button shows "
        "in your hand. One cante per trick won, each suit once; a King or Knight already "
        "played can no longer be sung."
    ),
    "guide.forty": "Holding the 40, sing it first: a 20 sung before it loses it.",
    "guide.cantes.habanero": "No cantes once the stock is empty.",
    "guide.cantes.pairs": "Either partner may sing after the pair wins a trick.",
    "guide.tute.on": (
        "**Tute.** All four Kings or all four Knights in one hand, declared like a cante, win "
        "the deal at once (not once you have sung a cante)."
    ),
    "guide.tute.off": (
        "**Tute** (four Kings or four Knights in one hand, which win the deal at once) is off "
        "here unless the table sets allow_tute."
    ),
    "guide.exchange.habanero": (
        "**The exchange.** After winning a trick, before leading, the holder of the trump 7 may "
        "swap it for the turned card under the stock when that is an Ace, a 3 or a figure; "
        "the trump 2 takes a 4, 5, 6 or 7."
    ),
    "guide.exchange.arrastrado": (
        "**The exchange.** With 40 cards the turned card lies on the table: the holder of the "
        "trump 7 (or the 2, when a 7 was turned) takes it before the first lead, and the 7 "
        "stays there, out of play. With 36 cards it is the dealer's last card and stays in "
        "their hand."
    ),
    "guide.exchange.none": "No exchange here: the turned card stays in the dealer's hand.",
    # winning
    "guide.score": (
        "Your score: the points of the cards in your tricks, plus your cantes, plus {last} "
        "for the last trick."
    ),
    "guide.win.habanero": (
        "Reach {target} to win. If nobody does, another deal, the points carried over; both "
        "over, the higher score wins. From the second deal, just after winning a trick you "
        "may claim you are there: right, you win at once; wrong, you lose."
    ),
    "guide.capote": (
        "**Capote.** Right after the last draw either player may announce they will take "
        "every trick left: done, they win the game; one trick lost, they lose it."
    ),
    "guide.win.most": "The most points wins the deal; a tie goes to whoever took the later trick.",
    "guide.win.pairs": (
        "The pair with the most points wins the deal, both partners alike; a tie goes to the "
        "pair that took the later trick."
    ),
    "guide.pay.arrastrado": (
        "**Chips.** The winner takes 100 from each opponent (200 with {big} points or more, "
        "or with a tute); each cante takes its 20 or 40 from each opponent."
    ),
    "guide.plato": (
        "**Plato** (option plato). Each player puts {stake} in the pot whenever it is empty. "
        "Before the first lead each bids a contract of {low} to {high} points or passes; the "
        "last bidder plays for the pot. Made: 200 from each opponent and the pot. Failed: 200 "
        "to each and as much again into the pot."
    ),
    "guide.rounds": (
        "A game is one round unless the table sets more (option rounds, up to {most}): the "
        "first side to win that many wins the game."
    ),
    # the table's options
    "guide.options_intro": "What the host may set for a table of this variant:",
    "guide.opt.rounds": "rounds a side must win to win the game (default 1, up to {most}).",
    "guide.opt.bet": "chips each player stakes; the winners take the pot less the bank's {rake}%.",
    "guide.opt.turn_time": "seconds per turn; when they run out, the game plays for you.",
    "guide.opt.competitive": "whether chips, experience and the standings count (off: practice).",
    "guide.opt.private": "only the members the host invites may sit.",
    "guide.opt.spectators": "whether others may watch (off: a private thread for the players).",
    "guide.opt.robots": "how well the robots play: easy, normal or hard.",
    "guide.option_line": "**{name}**: {text}",
    "guide.opt.allow_tute": "whether a tute wins the deal at once (here by default: {default}).",
    "guide.opt.stock_duty": (
        "what you must play while the stock has cards. `free` (default): any card; `trump`: "
        "answer a trump led with a trump; `full`: the duty from the first trick."
    ),
    "guide.opt.beat_partner": (
        "`true` (default): beat your partner's card as anyone else's; `false`: when your "
        "partner holds the trick, you need not beat it."
    ),
    "guide.opt.undertrump": (
        "unable to beat a trump on the table, `false` (default): any card; `true`: still a trump."
    ),
    "guide.opt.exchange": (
        "`true` (default): the trump 7 (or 2) may take the turned card; `false`: no exchange "
        "(a turned card left on the table counts for nobody)."
    ),
    "guide.opt.capote": "`true` (default): capote may be announced after the last draw; `false`: never.",
    "guide.opt.target": "the points that win a game (default {target}).",
    "guide.opt.scoring": (
        "`most` (default): as above. `sixty-five`: only the cards and the last ten count, 130 "
        "in all. Whoever takes the last trick wins with 65 or more, 75 if they sang a 20, 85 "
        "if they sang the 40; short of it, the other side wins. Over 101 counts as two rounds; "
        "with under 10 card points dealt you may resign before the first lead."
    ),
    "guide.opt.deck": (
        "`40` (default): {hand40} cards each, the turned card on the table. `36`: without the "
        "2s, {hand36} each, the dealer keeps the turned card."
    ),
    "guide.opt.plato": "`false` (default): no pot; `true`: the plato of the page before.",
}
