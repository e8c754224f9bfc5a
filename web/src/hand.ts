// Your hand: its cards laid out as big as the screen allows, a tap to play one (or why
// not, in words), the declarations you may make (asked first where the chat asks), and a
// hint at a friendly table.

import { byId, el, fill, setText } from "./dom";
import { cardImage } from "./felt";
import { notice, sendOrSay } from "./notices";
import { body, page, type View } from "./state";
import type { Declaration } from "./wire";
import { cardName, w } from "./words";

const FELT_LEAST = 200; // px: the table keeps at least this much height
const MIN_STEP = 40; // px of each card a fanned hand shows: what a finger taps
const FAN_LEAST = 60; // px: the narrowest card a fanned hand may have
// a phone on its side: the table beside the hand (as table.css lays it out)
const SIDEWAYS = window.matchMedia("(max-height: 480px) and (min-width: 560px)");

export function drawHand(v: View): void {
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
export function layOutHand(): void {
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

export function drawDeclarations(v: View): void {
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
  const hand = page.view?.hand;
  if (!hand || page.connection === null || page.sent) return;
  if (page.connection.send({ type: "act", code, deal: hand.deal_no, trick: hand.trick_no })) {
    page.sent = true;
  } else {
    notice(w("not_connected"));
  }
}

export function onHandClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.card");
  const hand = page.view?.hand;
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

export function onDeclareClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.declare");
  if (!button || !page.view?.hand) return;
  if (button.classList.contains("hint")) {
    sendOrSay({ type: "hint" });
    return;
  }
  const code = button.dataset.code ?? "";
  const declaration = page.view.hand.declarations.find((d) => d.code === code);
  if (!declaration) return;
  if (declaration.ask) {
    ask(declaration);
    return;
  }
  act(code);
}

export function ask(declaration: Declaration): void {
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

