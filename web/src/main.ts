// The web table: the table seen from your seat, your hand to tap, in your language.
//
// DOM contract (browser tests rely on it):
//   body[data-state]   connecting | playing | no_table | lost | private | reconnecting
//                      | declined (Discord's consent was declined: a button asks again)
//   body[data-seat]    your seat number, or "" for a spectator
//   body[data-status]  the table's status (lobby, playing, finished, closed, cancelled)
//   button.card[data-card][data-playable="1"|"0"]   each card of your hand
//   button.declare[data-code]                        each declaration you may make
//   button.declare.hint   at a friendly table on your turn: what the hard robot would do
//                         (the answer in #notice; the card it plays gets .hinted)
//   #trick [data-card][data-seat]                     the cards of the trick in play
//   .seat[data-seat] (data-turn="1" on the seat to play)
//   #notice (the last refusal or notice, in words; it goes when its moment does: another
//           table, deal or trick, or the game's end), #scores, #clock
//   button.open[data-variant]   no table here (state no_table): open one of that game
//   button.lobby[data-do]       in a lobby: join | robot | start | leave (each only when
//                               it may be pressed); #variant: the lobby's game in words
//   the replays: see replay.ts

import { Connection, type Phase } from "./connection";
import { byId, cardSrc, el, fill, robotIcon, setCardsVersion, setText } from "./dom";
import {
  answered,
  ask as askFirst,
  drawGame,
  question,
  showSettings,
  showTricks,
  wireGame,
} from "./game";
import { type Config, ConsentDeclined, Login, LoginError } from "./login";
import { Replays } from "./replay";
import type {
  Declaration,
  HandJ,
  Played,
  SeatJ,
  ServerMsg,
  StateMsg,
  TableJ,
  Words,
  YouJ,
} from "./wire";
import { type LobbyDo, VARIANTS } from "./wire";

const SUIT_LETTERS = ["O", "C", "E", "B"];
const PLACES: Record<number, string[]> = {
  1: ["bottom"],
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
};
const TEAM_COLOURS = 2; // pairs: two teams, two colours (CSS: .team-0, .team-1)
const FELT_LEAST = 200; // px: the table keeps at least this much height
const MIN_STEP = 40; // px of each card a fanned hand shows: what a finger taps
const FAN_LEAST = 60; // px: the narrowest card a fanned hand may have
// a phone on its side: the table beside the hand (as table.css lays it out)
const SIDEWAYS = window.matchMedia("(max-height: 480px) and (min-width: 560px)");

// ------------------------------------------------------------------------ words

let WORDS: Words = { lang: "en", words: {}, cards: {}, suits: {} };

/** The chat's words the page says too (``tables.btn.*``: its buttons' labels). */
function said(key: string): string {
  return WORDS.words[key] ?? key;
}

/** The page's text ``web.<key>`` in its language, with ``{name}`` filled in. */
function w(key: string, params: Record<string, string | number> = {}): string {
  const template = WORDS.words[`web.${key}`] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

function cardName(code: string): string {
  return WORDS.cards[code] ?? code;
}

function pickLanguage(params: URLSearchParams): string {
  const asked = (params.get("lang") ?? navigator.language ?? "en").toLowerCase();
  return asked.startsWith("es") ? "es" : "en";
}

// ------------------------------------------------------------------------ the page's state

interface View {
  table: TableJ;
  hand: HandJ | null;
  me: number | null; // your seat
  you: YouJ | null; // whether you sit at it, whether you host it (null: not said)
  result: boolean; // a finished game whose result came in words (the result panel says it)
  received: number; // performance.now() when it came
}

let view: View | null = null;
let connection: Connection | null = null;
let sent = false; // an action is on its way: one tap, one action
let asked = false; // an open or a lobby button is on its way: one tap, one answer
let mayOpen = false; // no table here, and the page may open one
let lastOpen = false;
let clockTimer: number | undefined;
let takenTimer: number | undefined;

const body = document.body;

function setPageState(state: string): void {
  body.dataset.state = state;
  const line = {
    connecting: w("connecting"),
    reconnecting: w("reconnecting"),
    no_table: w("no_table"),
    lost: w("lost"),
    private: w("watch_private"),
  }[state];
  const opening = state === "no_table" && mayOpen;
  byId("opener").hidden = !opening;
  if (opening) {
    banner(null);
  } else if (line !== undefined) {
    banner(line, { again: state === "no_table" });
  } else if (view === null || view.table.status === "playing") {
    banner(null);
  }
}

/** The big line in the middle of the table (null: none), with its button when asked. */
function banner(line: string | null, { again = false, won = false } = {}): void {
  const box = byId("banner");
  box.hidden = line === null;
  box.classList.toggle("won", won);
  setText(byId("banner-text"), line ?? "");
  const button = byId<HTMLButtonElement>("again");
  button.hidden = !again || line === null;
  setText(button, w("look_again"));
}

/** The moment a notice belongs to: the table, its status, its deal and trick. */
function moment(v: View | null): string {
  if (v === null) return "";
  const t = v.table;
  return `${t.id}/${t.status}/${t.deal_no}/${t.deal?.trick_no ?? ""}`;
}

let noticeMoment = "";

function notice(text: string): void {
  const box = byId("notice");
  box.classList.remove("fresh");
  setText(box, text);
  noticeMoment = moment(view);
  void box.offsetWidth; // restart its animation
  box.classList.add("fresh");
}

// ------------------------------------------------------------------------ seats

function place(seat: number, table: TableJ, me: number | null): string {
  const count = table.seats.length;
  const places = PLACES[count] ?? PLACES[4];
  const base = me ?? 0;
  return places[(seat - base + count) % count] ?? "top";
}

function robotName(seat: SeatJ): string {
  return w("robot", { number: seat.robot ?? "" });
}

function seatName(table: TableJ, seat: number): string {
  const occupant = table.seats[seat];
  if (occupant === null || occupant === undefined) return w("empty_seat");
  return occupant.name ?? robotName(occupant);
}

function sideOf(table: TableJ, seat: number): number {
  return table.sides.findIndex((side) => side.includes(seat));
}

function isTeamGame(table: TableJ): boolean {
  return table.sides.length === TEAM_COLOURS && table.sides.every((side) => side.length > 1);
}

function sideName(table: TableJ, side: number[], me: number | null): string {
  if (me !== null && side.includes(me)) {
    return side.length > 1 ? w("us") : w("you");
  }
  if (me !== null && side.length > 1 && isTeamGame(table)) return w("them");
  return side.map((seat) => seatName(table, seat)).join(" & ");
}

function drawSeats(v: View): void {
  const { table, me } = v;
  const deal = table.deal;
  const playing = table.status === "playing" && deal !== null;
  const team = isTeamGame(table);
  const seats = table.seats.map((occupant, seat) => {
    const where = place(seat, table, me);
    const turn = playing && deal.turn === seat && table.paused_until === null;
    const side = sideOf(table, seat);
    const classes = ["seat", `at-${where}`];
    if (seat === me) classes.push("me");
    if (team && side >= 0) classes.push(`team-${side}`);
    if (occupant === null) classes.push("empty");
    const name = el("span", { class: "name" });
    if (occupant === null) {
      name.textContent = w("empty_seat");
    } else if (occupant.name === null) {
      name.append(robotIcon(w("robot_mark")), robotName(occupant));
    } else {
      name.textContent = occupant.name;
    }
    const notes: HTMLElement[] = [];
    if (occupant?.left || occupant?.away) {
      // a member a robot stands in for
      notes.push(
        el(
          "span",
          { class: "note" },
          robotIcon(w("robot_mark")),
          occupant.left ? w("left") : w("away"),
        ),
      );
    }
    const held = deal?.hand_sizes[seat];
    const count =
      playing && held !== undefined && seat !== me
        ? el(
            "span",
            { class: "held", "aria-label": w("cards_held", { count: held }) },
            el("img", { src: cardSrc("back"), alt: "", width: 12, height: 19 }),
            `${held}`,
          )
        : null;
    return el(
      "div",
      {
        class: classes.join(" "),
        "data-seat": seat,
        "data-turn": turn ? "1" : undefined,
        "aria-current": turn ? "true" : undefined,
      },
      name,
      ...notes,
      count,
    );
  });
  fill(byId("seats"), ...seats);
}

// ------------------------------------------------------------------------ the felt

function cardImage(code: string, extra: Record<string, string | number> = {}): HTMLImageElement {
  return el("img", {
    src: cardSrc(code),
    alt: cardName(code),
    width: 96,
    height: 150,
    draggable: "false",
    ...extra,
  });
}

function drawTrick(v: View): void {
  const trick = byId("trick");
  const deal = v.table.deal;
  const cards: Played[] = deal?.trick ?? [];
  const shown = new Map<string, Element>();
  for (const node of Array.from(trick.children)) {
    shown.set(node.getAttribute("data-card") ?? "", node);
  }
  const nodes = cards.map(([seat, code], order) => {
    const where = place(seat, v.table, v.me);
    const old = shown.get(code);
    const node =
      old && old.getAttribute("data-seat") === String(seat)
        ? old
        : cardImage(code, { class: "tcard", "data-card": code, "data-seat": seat });
    node.className = `tcard at-${where}${old ? "" : " arrive"}`;
    (node as HTMLElement).style.zIndex = String(order + 1);
    (node as HTMLElement).title = seatName(v.table, seat);
    return node;
  });
  fill(trick, ...nodes);
  trick.setAttribute(
    "aria-label",
    cards.map(([seat, code]) => `${seatName(v.table, seat)}: ${cardName(code)}`).join(", "),
  );
}

function drawStock(v: View): void {
  const stock = byId("stock");
  const deal = v.table.deal;
  if (deal === null) {
    fill(stock);
    stock.hidden = true;
    return;
  }
  stock.hidden = false;
  const letter = SUIT_LETTERS[deal.trump] ?? "O";
  const pile = el("div", { class: "pile" });
  pile.hidden = deal.face_up === null && !deal.stock_left;
  if (deal.face_up !== null) {
    pile.append(cardImage(deal.face_up, { class: "turned" }));
  }
  if (deal.stock_left !== null && deal.stock_left > 0) {
    pile.append(
      el("img", { class: "back", src: cardSrc("back"), alt: "", width: 96, height: 150 }),
      el("span", { class: "count", id: "stock-count" }, String(deal.stock_left)),
    );
    pile.setAttribute("aria-label", w("stock", { count: deal.stock_left }));
  }
  fill(
    stock,
    pile,
    el(
      "span",
      { class: `trumps suit-${letter}` },
      el("span", { class: "label" }, w("trumps")),
      el("span", { class: "suit" }, WORDS.suits[letter] ?? letter),
    ),
  );
}

function drawLast(v: View): void {
  const last = v.table.deal?.last_trick ?? null;
  const toggle = byId<HTMLButtonElement>("last-trick");
  const panel = byId("last");
  toggle.hidden = last === null;
  panel.hidden = last === null || !lastOpen;
  if (last === null) {
    fill(toggle);
    fill(panel);
    return;
  }
  toggle.setAttribute("aria-expanded", lastOpen ? "true" : "false");
  toggle.setAttribute("aria-controls", "last");
  // its little cards are hidden from a screen reader: the button names them in words
  toggle.setAttribute(
    "aria-label",
    `${w("last_trick")}: ${last.cards.map(([seat, code]) => `${seatName(v.table, seat)}, ${cardName(code)}`).join("; ")}`,
  );
  fill(
    toggle,
    el("span", { class: "label" }, w("last_trick")),
    el(
      "span",
      { class: "minis", "aria-hidden": "true" },
      ...last.cards.map(([seat, code]) =>
        cardImage(code, { alt: "", "data-last": code, class: seat === last.winner ? "won" : "" }),
      ),
    ),
  );
  if (!lastOpen) {
    fill(panel);
    return;
  }
  fill(
    panel,
    el(
      "div",
      { class: "cards" },
      ...last.cards.map(([seat, code]) =>
        el(
          "figure",
          { class: seat === last.winner ? "won" : "" },
          cardImage(code),
          el("figcaption", {}, seatName(v.table, seat)),
        ),
      ),
    ),
    el(
      "p",
      { class: "winner" },
      w("last_won", { name: seatName(v.table, last.winner), points: last.points }),
    ),
  );
}

/** A trick just taken stays a moment where it was played, then goes to its winner, so a
 *  robot's quick last card is seen. (Outside #trick: that holds the trick in play alone.) */
function showTaken(before: View | null, now: View): void {
  const deal = now.table.deal;
  const last = deal?.last_trick ?? null;
  const taken = byId("taken");
  const was = before?.table.deal;
  if (deal && deal.trick.length > 0) {
    // the next trick has begun: the one taken makes way
    window.clearTimeout(takenTimer);
    fill(taken);
  }
  if (
    last === null ||
    deal === null ||
    was === null ||
    was === undefined ||
    before?.table.deal_no !== now.table.deal_no ||
    was.trick_no === deal.trick_no
  ) {
    return;
  }
  const towards = place(last.winner, now.table, now.me);
  const cards = last.cards.map(([seat, code]) =>
    cardImage(code, { class: `tcard at-${place(seat, now.table, now.me)}`, alt: "" }),
  );
  fill(taken, ...cards);
  taken.className = "";
  taken.dataset.to = towards;
  window.clearTimeout(takenTimer);
  takenTimer = window.setTimeout(() => {
    taken.className = "going";
    takenTimer = window.setTimeout(() => fill(taken), 450);
  }, 900);
}

/** A cante sung since the last message is said in the notice line: who, how much, which
 *  suit. */
function tellCantes(before: View | null, now: View): void {
  const was = before?.table.deal;
  const deal = now.table.deal;
  if (!was || !deal || before?.table.deal_no !== now.table.deal_no) return;
  for (const [seat, suit, points] of deal.cantes.slice(was.cantes.length)) {
    const letter = SUIT_LETTERS[suit] ?? "O";
    const who = seat === now.me ? w("you") : seatName(now.table, seat);
    notice(w("sang", { name: who, points, suit: WORDS.suits[letter] ?? letter }));
  }
}

// ------------------------------------------------------------------------ scores, clock, status

function drawScores(v: View): void {
  const { table, me } = v;
  const deal = table.deal;
  const scores = byId("scores");
  if (deal === null && table.rounds_won === null) {
    fill(scores, el("span", { class: "title" }, w("table", { id: table.id })));
    return;
  }
  const sides = deal?.sides ?? table.sides;
  const team = isTeamGame(table);
  fill(
    scores,
    ...sides.map((side, index) => {
      const mine = me !== null && side.includes(me);
      const tableSide = table.sides.findIndex((s) => s.some((seat) => side.includes(seat)));
      const rounds = table.rounds_won?.[tableSide];
      return el(
        "span",
        {
          class: `side${mine ? " mine" : ""}${team ? ` team-${index}` : ""}`,
          "data-side": index,
        },
        el("span", { class: "who" }, sideName(table, side, me)),
        deal ? el("span", { class: "points" }, String(deal.scores[index] ?? 0)) : null,
        rounds || (deal === null && rounds !== undefined)
          ? el(
              "span",
              { class: "rounds", title: w("rounds_won", { count: rounds }) },
              w("rounds_short", { count: rounds }),
            )
          : null,
      );
    }),
  );
}

function tickClock(): void {
  const clock = byId("clock");
  const v = view;
  if (v === null || v.table.turn_left === null || v.table.status !== "playing") {
    setText(clock, "");
    clock.classList.remove("urgent");
    clock.hidden = true;
    return;
  }
  clock.hidden = false;
  if (v.table.paused_until !== null) {
    setText(clock, w("paused_short"));
    return;
  }
  const left = Math.max(0, v.table.turn_left - (performance.now() - v.received) / 1000);
  const seconds = Math.ceil(left);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  setText(clock, text);
  clock.setAttribute("aria-label", w("clock", { seconds }));
  clock.classList.toggle("urgent", seconds <= 10);
}

function statusLine(v: View): string {
  const { table, hand, me } = v;
  const deal = table.deal;
  switch (table.status) {
    case "lobby":
      return lobbyLine(v);
    case "finished": {
      if (table.winner === null) return w("status_finished");
      const side = table.sides[table.winner] ?? [];
      if (me !== null && side.includes(me)) return w("you_win");
      return side.length > 1
        ? w("winners", { names: sideName(table, side, me) })
        : w("winner", { name: sideName(table, side, me) });
    }
    case "closed":
      return w("status_closed");
    case "cancelled":
      return w("status_cancelled");
  }
  if (table.paused_until !== null) return w("status_paused");
  if (deal === null) return "";
  if (hand?.left) return w("you_left");
  if (hand?.away) return w("you_away");
  if (hand?.sits_out) return w("sits_out");
  const parts: string[] = [];
  if (me === null) parts.push(w("watching"));
  if (deal.turn === me) parts.push(deal.auction ? w("your_bid") : w("your_turn"));
  else parts.push(w("turn_of", { name: seatName(table, deal.turn) }));
  if (deal.contract !== null) {
    parts.push(
      w("contract", { name: seatName(table, deal.contract.seat), points: deal.contract.points }),
    );
  }
  if (deal.capote_seat !== null) {
    parts.push(w("capote", { name: seatName(table, deal.capote_seat) }));
  }
  return parts.join(" · ");
}

function drawStatus(v: View): void {
  const status = byId("status");
  const line = statusLine(v);
  const playing = v.table.status === "playing";
  const lobby = v.table.status === "lobby";
  // a game in play or waiting says what now in a line; a game over, in the middle
  setText(status, playing || lobby ? line : "");
  status.classList.toggle("mine", v.hand?.your_turn === true);
  if (playing || lobby || v.result) {
    banner(null); // a game over with its result: the result panel says it
  } else {
    const side = v.table.winner === null ? [] : (v.table.sides[v.table.winner] ?? []);
    banner(line, {
      again: true,
      won: v.me !== null && side.includes(v.me),
    });
  }
  const back = byId<HTMLButtonElement>("back");
  back.hidden = !(v.hand?.away && !v.hand.left && v.table.status === "playing");
  setText(back, w("im_back"));
}

// ------------------------------------------------------------------------ no table, a lobby

/** The four games to open where no table plays: each a big button, its name and who plays. */
function buildOpener(): void {
  setText(byId("opener-title"), w("no_table_yet"));
  setText(byId("opener-ask"), w("open_one"));
  fill(
    byId("variants"),
    ...VARIANTS.map((variant) =>
      el(
        "button",
        { type: "button", class: "open", "data-variant": variant },
        el("span", { class: "seats", "aria-hidden": "true" }, ...seatDots(variant)),
        el("span", { class: "name" }, w(`variant.${variant}`)),
        el("span", { class: "plays" }, w(`plays.${variant}`)),
      ),
    ),
  );
}

/** A little picture of who plays: a dot a player, pairs in their two colours. */
function seatDots(variant: string): HTMLElement[] {
  const count = { habanero: 2, arrastrado: 3 }[variant] ?? 4;
  return Array.from({ length: count }, (_, seat) =>
    el("span", { class: variant === "pairs" ? `dot team-${seat % TEAM_COLOURS}` : "dot" }),
  );
}

function onOpenClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.open");
  if (!button || asked || connection === null) return;
  if (connection.send({ type: "open", variant: button.dataset.variant ?? "" })) {
    asked = true;
    button.classList.add("sent");
  } else {
    notice(w("not_connected"));
  }
}

/** What a lobby's viewer may do now, in a line. */
function lobbyLine(v: View): string {
  const you = v.you;
  if (you === null) return w("status_lobby");
  if (you.host) return w("lobby_host");
  if (you.seated) return w("lobby_seated");
  return v.table.seats.includes(null) ? w("lobby_free") : w("lobby_full");
}

/** A lobby: its game in the middle of the felt, and the buttons its viewer may press. */
function drawLobby(v: View): void {
  const lobby = v.table.status === "lobby";
  const box = byId("lobby");
  const variant = byId("variant");
  box.hidden = !lobby;
  variant.hidden = !lobby;
  if (!lobby) return;
  setText(variant.querySelector(".name") ?? variant, w(`variant.${v.table.variant}`));
  setText(
    variant.querySelector(".plays") ?? variant,
    w("seats", { count: v.table.seats.length }),
  );
  const you = v.you ?? { seated: false, host: false };
  const free = v.table.seats.includes(null);
  const shown: Record<LobbyDo, boolean> = {
    start: you.host,
    join: !you.seated && free,
    robot: you.host && free,
    leave: you.seated,
  };
  for (const button of Array.from(box.querySelectorAll<HTMLButtonElement>("button.lobby"))) {
    const what = (button.dataset.do ?? "") as LobbyDo;
    button.hidden = !shown[what];
    button.classList.remove("sent");
    setText(button, w(`lobby.${what}`));
  }
  box.hidden = !Object.values(shown).some(Boolean);
}

function onLobbyClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.lobby");
  if (!button || asked || connection === null) return;
  if (button.dataset.do === "leave" && view?.you?.host) {
    askFirst("leave"); // the host alone closes the table: the chat asks first, so does this
    return;
  }
  if (connection.send({ type: "lobby", do: button.dataset.do ?? "" })) {
    asked = true;
    button.classList.add("sent");
  } else {
    notice(w("not_connected"));
  }
}

/** Your seat: your hand's; in a lobby (whose messages carry no hand), the one you had, or
 *  the one just taken when you sat down. */
function mySeat(msg: StateMsg, before: View | null): number | null {
  if (msg.hand) return msg.hand.seat;
  const you = msg.you;
  if (you?.seat !== undefined) return you.seat;
  if (msg.table.status !== "lobby" || !you?.seated) return null;
  const seats = msg.table.seats;
  if (before === null || before.table.id !== msg.table.id) return null;
  const had = before.me;
  if (had !== null && seats[had]?.name !== undefined && seats[had]?.name !== null) return had;
  const taken = seats
    .map((seat, index) => (seat?.name && before.table.seats[index] === null ? index : -1))
    .filter((index) => index >= 0);
  return taken.length === 1 ? (taken[0] ?? null) : null;
}

// ------------------------------------------------------------------------ the hand

function drawHand(v: View): void {
  const box = byId("hand");
  const hand = v.hand;
  box.setAttribute("aria-label", w("your_hand"));
  if (hand === null || v.table.status === "lobby") {
    // no hand yet: a lobby's seat holds no cards
    fill(box);
    box.hidden = true;
    body.classList.toggle("watching", hand === null && v.table.status !== "lobby");
    return;
  }
  body.classList.toggle("watching", false);
  box.hidden = false;
  const playable = new Set(hand.playable);
  const old = new Map<string, HTMLButtonElement>();
  for (const node of Array.from(box.querySelectorAll<HTMLButtonElement>("button.card"))) {
    old.set(node.dataset.card ?? "", node);
  }
  const buttons = hand.cards.map((code) => {
    const button =
      old.get(code) ??
      el(
        "button",
        { type: "button", class: "card", "data-card": code },
        cardImage(code, { alt: "" }),
      );
    const may = playable.has(code) && hand.your_turn;
    button.dataset.playable = playable.has(code) ? "1" : "0";
    button.classList.toggle("may", may);
    button.classList.remove("sent");
    button.setAttribute("aria-label", cardName(code));
    return button;
  });
  fill(box, ...buttons);
  box.style.setProperty("--count", String(hand.cards.length));
  layOutHand();
}

/** The hand's cards as big as the screen allows (56 px wide at the least): one row, or two
 *  on a narrow screen, overlapping a little when even that does not fit; never so tall that
 *  the table above has no room. */
function layOutHand(): void {
  const box = byId("hand");
  const cards = Array.from(box.querySelectorAll<HTMLElement>("button.card"));
  if (cards.length === 0) return;
  const width = box.clientWidth;
  const gap = 6;
  const least = 56;
  const widest = width >= 700 ? 96 : 88;
  const ratio = 150 / 96;
  // a second row below the first when the screen is tall enough (the felt gives way while
  // no trick is on it); else over the lower part of the first
  const overlapped = 0.62;
  const rowGap = 10;
  const others = ["bar", "lines", "declarations"].reduce((sum, id) => sum + byId(id).offsetHeight, 0);
  // on a phone on its side the table is beside the hand, not above it
  const felt = SIDEWAYS.matches ? 0 : Math.min(FELT_LEAST, Math.max(150, window.innerHeight * 0.34));
  const room = window.innerHeight - others - felt - 22;
  const fitsWide = (perRow: number) => Math.floor((width - gap * (perRow - 1)) / perRow);
  const fitsHigh = (rows: number, step = 1) =>
    Math.floor((room - (step === 1 ? rowGap * (rows - 1) : 0)) / (ratio * (1 + (rows - 1) * step)));
  let rowStep = overlapped;
  const count = cards.length;
  // one row while each card still shows a tappable strip (a fan, as held in the hand)...
  const fanned = count > 1 ? width - MIN_STEP * (count - 1) : widest;
  let rows = 1;
  let cardWidth = Math.min(widest, fitsHigh(1), Math.max(fitsWide(count), fanned));
  if (cardWidth < FAN_LEAST && fitsWide(count) < least) {
    // ...else two rows, the second over the lower part of the first
    rows = 2;
    const wide = fitsWide(Math.ceil(count / 2));
    cardWidth = Math.min(widest, wide, fitsHigh(2, 1));
    if (cardWidth >= least) {
      rowStep = 1;
    } else {
      cardWidth = Math.min(widest, wide, fitsHigh(2, overlapped));
    }
  }
  cardWidth = Math.max(least, cardWidth);
  const perRow = Math.ceil(count / rows);
  let step = cardWidth + gap;
  if (perRow > 1 && cardWidth * perRow + gap * (perRow - 1) > width) {
    step = (width - cardWidth) / (perRow - 1);
  }
  box.style.setProperty("--card-w", `${cardWidth}px`);
  box.style.setProperty("--rows", String(rows));
  const cardHeight = cardWidth * ratio;
  box.style.setProperty(
    "--row-step",
    `${rowStep === 1 ? Math.round(cardHeight + rowGap) : Math.round(cardHeight * rowStep)}px`,
  );
  cards.forEach((card, index) => {
    const row = Math.floor(index / perRow);
    const col = index % perRow;
    const inRow = Math.min(perRow, cards.length - row * perRow);
    const rowWidth = cardWidth + step * (inRow - 1);
    const left = (width - rowWidth) / 2 + col * step;
    card.style.left = `${Math.round(left)}px`;
    // a card under the next one is only as wide as what shows of it: a tap (or a test's
    // click in its middle) lands on the card it sees
    const covered = col < inRow - 1 && step < cardWidth;
    card.style.width = `${Math.floor(covered ? step : cardWidth)}px`;
    // and a card of the first of two rows, only as tall as what shows above the second
    const under = row < rows - 1;
    card.style.height = `${Math.floor(cardWidth * ratio * (under ? rowStep : 1))}px`;
    card.style.setProperty("--row", String(row));
    card.style.zIndex = String(index + 1);
  });
}

function drawDeclarations(v: View): void {
  const box = byId("declarations");
  const hand = v.hand;
  const offered: Declaration[] = hand?.declarations ?? [];
  fill(
    box,
    ...offered.map((declaration) =>
      el(
        "button",
        {
          type: "button",
          class: `declare${declaration.ask ? " asks" : ""}${declaration.code === "r" ? " danger" : ""}`,
          "data-code": declaration.code,
        },
        declaration.label,
      ),
    ),
  );
  if (hand?.hint) {
    box.append(el("button", { type: "button", class: "declare hint" }, w("hint")));
  }
  box.hidden = offered.length === 0 && !hand?.hint;
}

function act(code: string): void {
  const hand = view?.hand;
  if (!hand || connection === null || sent) return;
  if (connection.send({ type: "act", code, deal: hand.deal_no, trick: hand.trick_no })) {
    sent = true;
  } else {
    notice(w("not_connected"));
  }
}

function onHandClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.card");
  const hand = view?.hand;
  if (!button || !hand) return;
  const code = button.dataset.card ?? "";
  if (button.dataset.playable === "1" && hand.your_turn) {
    button.classList.add("sent");
    act(code);
    return;
  }
  const refusal = hand.refusals.find((r) => r.card === code);
  if (refusal) notice(refusal.text);
  else if (!hand.your_turn) notice(w("wait_turn"));
  else notice(w("held_back"));
}

function onDeclareClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.declare");
  if (!button || !view?.hand) return;
  if (button.classList.contains("hint")) {
    if (!connection?.send({ type: "hint" })) notice(w("not_connected"));
    return;
  }
  const code = button.dataset.code ?? "";
  const declaration = view.hand.declarations.find((d) => d.code === code);
  if (!declaration) return;
  if (declaration.ask) {
    ask(declaration);
    return;
  }
  act(code);
}

function ask(declaration: Declaration): void {
  const dialog = byId<HTMLDialogElement>("ask");
  delete dialog.dataset.what; // a declaration's question, not a leave's or a vote's
  setText(byId("ask-text"), declaration.ask ?? "");
  const yes = byId<HTMLButtonElement>("ask-yes");
  setText(yes, declaration.yes ?? w("yes"));
  setText(byId("ask-no"), w("cancel"));
  yes.onclick = () => {
    dialog.close();
    act(declaration.code);
  };
  dialog.showModal();
}

// ------------------------------------------------------------------------ messages

function show(msg: StateMsg): void {
  const before = view;
  const me = mySeat(msg, before);
  view = {
    table: msg.table,
    hand: msg.hand,
    me,
    you: msg.you ?? null,
    result: msg.result !== undefined,
    received: performance.now(),
  };
  if (moment(view) !== noticeMoment) notice(""); // its moment has passed
  showTaken(before, view);
  tellCantes(before, view);
  sent = false;
  asked = false;
  mayOpen = false;
  setPageState("playing");
  body.dataset.seat = me === null ? "" : String(me);
  body.dataset.status = msg.table.status;
  body.dataset.seats = String(msg.table.seats.length);
  body.classList.toggle("my-turn", msg.hand?.your_turn === true);
  drawSeats(view);
  drawStock(view);
  drawTrick(view);
  drawLast(view);
  drawScores(view);
  drawStatus(view);
  drawLobby(view);
  drawDeclarations(view);
  drawHand(view);
  drawGame(msg, me);
  tickClock();
  const dialog = byId<HTMLDialogElement>("ask");
  if (dialog.open) {
    const asked = byId<HTMLButtonElement>("ask-yes");
    const still = msg.hand?.declarations.some((d) => d.yes === asked.textContent);
    if (!still && !dialog.dataset.what) dialog.close();
  }
}

function onMessage(msg: ServerMsg): void {
  switch (msg.type) {
    case "state":
      show(msg);
      break;
    case "refused":
      sent = false;
      asked = false;
      for (const card of Array.from(document.querySelectorAll(".card.sent, .open.sent, .lobby.sent"))) {
        card.classList.remove("sent");
      }
      answered();
      notice(msg.text ?? w("refused"));
      if (body.dataset.state === "no_table" && msg.key !== "tables.errors.expired") {
        // an open refused (a table opened here meanwhile, say): ask for the channel's
        // table again, and wait for the next one as before (a session that ran out is
        // renewed by the connection itself, once the server closes its socket)
        connection?.again();
      }
      break;
    case "hint":
      notice(msg.text);
      for (const card of Array.from(document.querySelectorAll<HTMLElement>("button.card"))) {
        card.classList.toggle("hinted", msg.card !== null && card.dataset.card === msg.card);
      }
      break;
    case "question":
      question(msg);
      break;
    case "done":
      notice(msg.text);
      break;
    case "tricks":
      showTricks(msg);
      break;
    case "settings":
      showSettings(msg);
      break;
    case "no_table":
      view = null;
      asked = false;
      mayOpen = msg.may_open === true;
      clearTable();
      setPageState("no_table");
      break;
    case "lost":
      view = null;
      mayOpen = false;
      clearTable();
      setPageState("lost");
      break;
    case "private":
      view = null;
      mayOpen = false;
      clearTable();
      setPageState("private");
      break;
  }
}

function clearTable(): void {
  for (const id of ["seats", "trick", "taken", "scores", "declarations", "hand", "last"]) {
    fill(byId(id));
  }
  setText(byId("status"), "");
  byId("back").hidden = true;
  byId("lobby").hidden = true;
  byId("variant").hidden = true;
  for (const button of Array.from(document.querySelectorAll(".open.sent"))) {
    button.classList.remove("sent");
  }
  byId("last-trick").hidden = true;
  byId("stock").hidden = true;
  drawGame(null, null);
  notice(""); // a notice goes with its table
  body.dataset.seat = "";
  body.dataset.status = "";
  tickClock();
}

function onPhase(phase: Phase): void {
  // a declined consent keeps its word and its button until pressed
  if (phase === "reconnecting" && body.dataset.state !== "declined") {
    setPageState("reconnecting");
  }
}

// ------------------------------------------------------------------------ start

/** Discord's consent was declined: say so, with a button to be asked again; resolves when it
 *  is pressed. */
function consentAgain(): Promise<void> {
  body.dataset.state = "declined";
  byId("opener").hidden = true;
  banner(w("consent_declined"));
  const button = byId<HTMLButtonElement>("consent");
  setText(button, w("consent_again"));
  button.hidden = false;
  return new Promise((resolve) => {
    button.onclick = () => {
      button.onclick = null;
      button.hidden = true;
      setPageState("connecting");
      resolve();
    };
  });
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

async function retrying<T>(what: () => Promise<T>, giveUp: (error: unknown) => boolean) {
  for (let tries = 0; ; tries++) {
    try {
      return await what();
    } catch (error) {
      if (giveUp(error)) throw error;
      setPageState("reconnecting");
      await new Promise((resolve) => window.setTimeout(resolve, Math.min(15000, 500 * 2 ** tries)));
    }
  }
}

function wire(): void {
  byId("hand").addEventListener("click", onHandClick);
  byId("declarations").addEventListener("click", onDeclareClick);
  byId("variants").addEventListener("click", onOpenClick);
  byId("lobby").addEventListener("click", onLobbyClick);
  byId("ask-no").addEventListener("click", () => byId<HTMLDialogElement>("ask").close());
  byId("last-trick").addEventListener("click", () => {
    lastOpen = !lastOpen;
    if (view) drawLast(view);
  });
  byId("again").addEventListener("click", () => connection?.again());
  byId("back").addEventListener("click", () => {
    if (connection?.send({ type: "back" })) byId("back").hidden = true;
  });
  new ResizeObserver(() => layOutHand()).observe(byId("hand"));
  window.addEventListener("resize", () => layOutHand());
  clockTimer = window.setInterval(tickClock, 250);
}

async function start(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const lang = pickLanguage(params);
  document.documentElement.lang = lang;
  body.dataset.state = "connecting";
  wire();
  const [words, config] = await retrying(
    () => Promise.all([getJson<Words>(`/api/words?lang=${lang}`), getJson<Config>("/api/config")]),
    () => false,
  );
  WORDS = words;
  setCardsVersion(config.cards ?? "");
  document.title = w("title");
  buildOpener();
  setPageState("connecting");
  const login = new Login(config, params);
  const refusedLogin = (error: unknown) =>
    error instanceof ConsentDeclined || (error instanceof LoginError && error.status < 500);
  const relogin = () => login.session();
  let session: string | null = null;
  while (session === null) {
    try {
      session = await retrying(relogin, refusedLogin);
    } catch (error) {
      if (!(error instanceof ConsentDeclined)) {
        setPageState("lost");
        notice(w("login_refused"));
        return;
      }
      await consentAgain();
    }
  }
  const reconnecting = async (): Promise<string> => {
    try {
      return await relogin();
    } catch (error) {
      if (error instanceof ConsentDeclined) {
        connection?.stop(); // no more asking until the member says so
        void consentAgain().then(() => connection?.again());
      }
      throw error;
    }
  };
  connection = new Connection(session, lang, {
    message: onMessage,
    phase: onPhase,
    login: reconnecting,
  });
  connection.open();
  let current = session;
  const replays = new Replays(
    { w, card: cardName, suit: (letter) => WORDS.suits[letter] ?? letter },
    {
      lang,
      session: () => current,
      login: async () => (current = await relogin()),
    },
  );
  replays.ready();
  wireGame({
    w,
    said,
    send: (message) => connection?.send(message) ?? false,
    notice,
    replay: (table, deal) => void replays.openDeal(table, deal),
    card: cardName,
  });
}

void start();
void clockTimer;
