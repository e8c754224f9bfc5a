// The table itself: the seats around it (whose turn, who a robot stands in for, how many
// cards each holds), the trick in play, the stock and trumps, the last trick, a trick taken
// going to its winner, and the cantes sung.

import { byId, cardSrc, el, fill, robotIcon } from "./dom";
import { notice } from "./notices";
import { page, type View } from "./state";
import type { Played, SeatJ, TableJ } from "./wire";
import { WORDS, cardName, w } from "./words";

const SUIT_LETTERS = ["O", "C", "E", "B"];
const PLACES: Record<number, string[]> = {
  1: ["bottom"],
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
};
export const TEAM_COLOURS = 2; // pairs: two teams, two colours (CSS: .team-0, .team-1)

let takenTimer: number | undefined;

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

export function seatName(table: TableJ, seat: number): string {
  const occupant = table.seats[seat];
  if (occupant === null || occupant === undefined) return w("empty_seat");
  return occupant.name ?? robotName(occupant);
}

function sideOf(table: TableJ, seat: number): number {
  return table.sides.findIndex((side) => side.includes(seat));
}

export function isTeamGame(table: TableJ): boolean {
  return table.sides.length === TEAM_COLOURS && table.sides.every((side) => side.length > 1);
}

export function sideName(table: TableJ, side: number[], me: number | null): string {
  if (me !== null && side.includes(me)) {
    return side.length > 1 ? w("us") : w("you");
  }
  if (me !== null && side.length > 1 && isTeamGame(table)) return w("them");
  return side.map((seat) => seatName(table, seat)).join(" & ");
}

export function drawSeats(v: View): void {
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

export function cardImage(code: string, extra: Record<string, string | number> = {}): HTMLImageElement {
  return el("img", {
    src: cardSrc(code),
    alt: cardName(code),
    width: 96,
    height: 150,
    draggable: "false",
    ...extra,
  });
}

export function drawTrick(v: View): void {
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

export function drawStock(v: View): void {
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

export function drawLast(v: View): void {
  const last = v.table.deal?.last_trick ?? null;
  const toggle = byId<HTMLButtonElement>("last-trick");
  const panel = byId("last");
  toggle.hidden = last === null;
  panel.hidden = last === null || !page.lastOpen;
  if (last === null) {
    fill(toggle);
    fill(panel);
    return;
  }
  toggle.setAttribute("aria-expanded", page.lastOpen ? "true" : "false");
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
  if (!page.lastOpen) {
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
export function showTaken(before: View | null, now: View): void {
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
export function tellCantes(before: View | null, now: View): void {
  const was = before?.table.deal;
  const deal = now.table.deal;
  if (!was || !deal || before?.table.deal_no !== now.table.deal_no) return;
  for (const [seat, suit, points] of deal.cantes.slice(was.cantes.length)) {
    const letter = SUIT_LETTERS[suit] ?? "O";
    const who = seat === now.me ? w("you") : seatName(now.table, seat);
    notice(w("sang", { name: who, points, suit: WORDS.suits[letter] ?? letter }));
  }
}

