// No table here (the games to open), and a lobby (its game, and the buttons its viewer may
// press); and which seat is yours while the lobby's messages carry no hand.

import { byId, el, fill, setText } from "./dom";
import { TEAM_COLOURS } from "./felt";
import { ask as askFirst } from "./game";
import { notice } from "./notices";
import { page, type View } from "./state";
import type { StateMsg } from "./wire";
import { type LobbyDo, VARIANTS } from "./wire";
import { w } from "./words";

/** The four games to open where no table plays: each a big button, its name and who plays. */
export function buildOpener(): void {
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

export function onOpenClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.open");
  if (!button || page.asked || page.connection === null) return;
  if (page.connection.send({ type: "open", variant: button.dataset.variant ?? "" })) {
    page.asked = true;
    button.classList.add("sent");
  } else {
    notice(w("not_connected"));
  }
}

/** What a lobby's viewer may do now, in a line. */
export function lobbyLine(v: View): string {
  const you = v.you;
  if (you === null) return w("status_lobby");
  if (you.host) return w("lobby_host");
  if (you.seated) return w("lobby_seated");
  return v.table.seats.includes(null) ? w("lobby_free") : w("lobby_full");
}

/** A lobby: its game in the middle of the felt, and the buttons its viewer may press. */
export function drawLobby(v: View): void {
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

export function onLobbyClick(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>("button.lobby");
  if (!button || page.asked || page.connection === null) return;
  if (button.dataset.do === "leave" && page.view?.you?.host) {
    askFirst("leave"); // the host alone closes the table: the chat asks first, so does this
    return;
  }
  const what = button.dataset.do ?? "";
  // a start carries a nonce the page draws: the shuffle mixes in what the bot cannot choose
  const extra = what === "start" ? { nonce: nonce() } : {};
  if (page.connection.send({ type: "lobby", do: what, ...extra })) {
    page.asked = true;
    button.classList.add("sent");
  } else {
    notice(w("not_connected"));
  }
}

/** 32 hex digits from the browser's own source of randomness. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Your seat: your hand's; in a lobby (whose messages carry no hand), the one you had, or
 *  the one just taken when you sat down. */
export function mySeat(msg: StateMsg, before: View | null): number | null {
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

