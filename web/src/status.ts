// The lines about the game: the scores of each side (and the rounds won), the turn's
// clock, and what now in a line (or, once the game is over, in the middle).

import { byId, el, fill, setText } from "./dom";
import { isTeamGame, seatName, sideName } from "./felt";
import { lobbyLine } from "./lobby";
import { banner } from "./notices";
import { page, type View } from "./state";
import { w } from "./words";

export function drawScores(v: View): void {
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

export function tickClock(): void {
  const clock = byId("clock");
  const v = page.view;
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

export function drawStatus(v: View): void {
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
  // the commitment to the shuffle, before the deal and while it plays (docs/game-records.md)
  const shuffle = byId("shuffle");
  const code = v.table.commitment;
  shuffle.hidden = code === null || !(playing || lobby);
  setText(shuffle, code === null ? "" : w("shuffle", { code }));
  const back = byId<HTMLButtonElement>("back");
  back.hidden = !(v.hand?.away && !v.hand.left && v.table.status === "playing");
  setText(back, w("im_back"));
}

