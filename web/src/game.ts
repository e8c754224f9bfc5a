// The game's own buttons and its end, as the chat's table has them: Leave and Vote to
// cancel (each asked first, in the chat's words: what it costs), the game over (who won,
// the rounds, what moved for each member, how the last deal ended) with Rematch and Replay,
// and a lobby's stakes.
//
// DOM contract (besides main.ts's):
//   #game button.game[data-do]   during a game: tricks (the deal's tricks so far, in
//                                dialog#tricks: #tricks-list li, img[data-card]); and where
//                                you play: cancel | leave (asked first, in dialog#ask)
//   #result                      a finished game: #result-title, #result-winner,
//                                #result-rounds li, #result-tally li (one a member),
//                                #result-hints, #result-deal li (how the last deal ended,
//                                then each side's points), button#rematch, button#replay-deal
//   #stakes li                   in a lobby: what moves chips
//   button#settings-open         in a lobby, for its host: the Settings form (dialog#settings,
//                                #settings-said, select[data-option] each option's values)

import { byId, cardSrc, el, fill, setText } from "./dom";
import { sendOrSay } from "./notices";
import type { Asked, QuestionMsg, SettingsMsg, StateMsg, TricksMsg } from "./wire";

export interface GameDoors {
  w(key: string, params?: Record<string, string | number>): string;
  said(key: string): string; // the chat's words (its buttons' labels)
  replay(table: number, deal: number): void;
  card(code: string): string; // a card's name in words
}

let doors: GameDoors | null = null;
let shown: StateMsg | null = null;
let waiting = false; // a question or a rematch is on its way: one tap, one answer

export function wireGame(given: GameDoors): void {
  doors = given;
  byId("game").addEventListener("click", (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>("button.game");
    if (!button) return;
    if (button.dataset.do === "tricks") {
      sendOrSay({ type: "tricks" });
    } else {
      ask((button.dataset.do ?? "") as Asked);
    }
  });
  byId("settings-open").addEventListener("click", () => {
    sendOrSay({ type: "settings" });
  });
  const settings = byId<HTMLDialogElement>("settings");
  byId("settings-close").addEventListener("click", () => settings.close());
  setText(byId("settings-close"), given.w("replay.close"));
  byId("settings-options").addEventListener("change", (event) => {
    const select = (event.target as Element).closest<HTMLSelectElement>("select[data-option]");
    if (!select || doors === null) return;
    sendOrSay({ type: "set", name: select.dataset.option ?? "", value: select.value });
  });
  const tricks = byId<HTMLDialogElement>("tricks");
  byId("tricks-close").addEventListener("click", () => tricks.close());
  setText(byId("tricks-close"), given.w("replay.close"));
  byId("rematch").addEventListener("click", () => {
    if (waiting || doors === null) return;
    if (sendOrSay({ type: "rematch" })) {
      waiting = true;
      byId("rematch").classList.add("sent");
    }
  });
  byId("replay-deal").addEventListener("click", () => {
    const deal = shown?.result?.replay_deal;
    if (shown && deal !== null && deal !== undefined) doors?.replay(shown.table.id, deal);
  });
}

export function ask(what: Asked): void {
  if (waiting || doors === null) return;
  if (sendOrSay({ type: "ask", what })) waiting = true;
}

/** The server's question before a leave or a vote: Yes does it, No changes nothing. */
export function question(msg: QuestionMsg): void {
  waiting = false;
  if (msg.text === null) {
    sendOrSay({ type: msg.what });
    return;
  }
  const dialog = byId<HTMLDialogElement>("ask");
  dialog.dataset.what = msg.what;
  setText(byId("ask-text"), msg.text);
  const yes = byId<HTMLButtonElement>("ask-yes");
  setText(yes, msg.yes ?? "");
  setText(byId("ask-no"), msg.no ?? "");
  yes.onclick = () => {
    dialog.close();
    sendOrSay({ type: msg.what });
  };
  if (!dialog.open) dialog.showModal();
}

/** The deal's tricks so far: each in a line of words, a trick's cards drawn small (the
 *  one that took it marked). */
export function showTricks(msg: TricksMsg): void {
  const dialog = byId<HTMLDialogElement>("tricks");
  setText(byId("tricks-title"), msg.title);
  setText(byId("tricks-trumps"), msg.none === null ? msg.trumps : `${msg.trumps} · ${msg.none}`);
  fill(
    byId("tricks-list"),
    ...msg.happened.map((h) =>
      el(
        "li",
        { class: h.cards === null ? "between" : "trick" },
        h.cards === null
          ? null
          : el(
              "span",
              { class: "cards", "aria-hidden": "true" },
              ...h.cards.map(([seat, code]) =>
                el("img", {
                  src: cardSrc(code),
                  alt: doors?.card(code) ?? code,
                  "data-card": code,
                  class: seat === h.winner ? "won" : "",
                }),
              ),
            ),
        el("span", { class: "line" }, h.line),
      ),
    ),
  );
  if (!dialog.open) dialog.showModal();
  const list = byId("tricks-list");
  list.scrollTop = list.scrollHeight; // the newest last, in sight
}

/** The lobby's Settings form, as the chat's: each option named, what it does, and its
 *  values in words, the table's own chosen. */
export function showSettings(msg: SettingsMsg): void {
  const dialog = byId<HTMLDialogElement>("settings");
  setText(byId("settings-title"), msg.title);
  setText(byId("settings-said"), msg.said);
  fill(
    byId("settings-options"),
    ...msg.options.map((option) =>
      el(
        "label",
        { class: "setting" },
        el("span", { class: "name" }, option.label),
        el("small", {}, option.help),
        el(
          "select",
          { "data-option": option.name },
          ...option.choices.map((choice) =>
            el(
              "option",
              { value: choice.value, selected: choice.value === option.value },
              choice.label,
            ),
          ),
        ),
      ),
    ),
  );
  if (!dialog.open) dialog.showModal();
}

/** A refusal came: whatever was asked is answered. */
export function answered(): void {
  waiting = false;
  byId("rematch").classList.remove("sent");
}

/** The game's buttons, its result and a lobby's stakes, as the table is now (null: no
 *  table). */
export function drawGame(msg: StateMsg | null, me: number | null): void {
  shown = msg;
  waiting = false;
  const inPlay = msg?.table.status === "playing";
  const playing = inPlay && me !== null && msg?.hand != null && !msg.hand.left;
  const box = byId("game");
  box.hidden = !inPlay;
  const labels: Record<string, string> = {
    tricks: "tables.btn.tricks",
    cancel: "tables.btn.cancel",
    leave: "tables.btn.leave_game",
  };
  for (const button of Array.from(box.querySelectorAll<HTMLButtonElement>("button.game"))) {
    const what = button.dataset.do ?? "";
    button.hidden = what !== "tricks" && !playing; // a spectator only looks
    setText(button, doors?.said(labels[what] ?? what) ?? what);
  }
  const dialog = byId<HTMLDialogElement>("ask");
  const lobby = msg?.table.status === "lobby";
  if (dialog.open && dialog.dataset.what && !playing && !lobby) dialog.close();
  if (!inPlay) byId<HTMLDialogElement>("tricks").close();
  const host = lobby && msg?.you?.host === true;
  const settingsOpen = byId<HTMLButtonElement>("settings-open");
  settingsOpen.hidden = !host;
  setText(settingsOpen, doors?.said("tables.btn.settings") ?? "");
  if (!host) byId<HTMLDialogElement>("settings").close();
  drawStakes(msg);
  drawResult(msg);
}

function drawStakes(msg: StateMsg | null): void {
  const stakes = msg?.table.status === "lobby" ? (msg.stakes ?? []) : [];
  const list = byId("stakes");
  list.hidden = stakes.length === 0;
  fill(list, ...stakes.map((line) => el("li", {}, line)));
}

function drawResult(msg: StateMsg | null): void {
  const result = msg?.result;
  const box = byId("result");
  box.hidden = !result;
  if (!result || doors === null) return;
  setText(byId("result-title"), result.title);
  const winner = byId("result-winner");
  winner.hidden = result.winner === null;
  setText(winner, result.winner ?? "");
  setText(byId("result-rounds-title"), result.rounds_title);
  fill(byId("result-rounds"), ...result.rounds.map((line) => el("li", {}, line)));
  const tally = byId("result-tally-box");
  tally.hidden = result.tally_title === null;
  setText(byId("result-tally-title"), result.tally_title ?? "");
  fill(byId("result-tally"), ...result.tally.map((line) => el("li", {}, line)));
  const hints = byId("result-hints");
  hints.hidden = result.hints === null;
  setText(hints, result.hints ?? "");
  const deal = result.deal;
  byId("result-deal-box").hidden = deal === null;
  setText(byId("result-deal-title"), deal?.title ?? "");
  const lines = deal === null ? [] : [...deal.ending, ...deal.sides];
  fill(byId("result-deal"), ...lines.map((line) => el("li", {}, line)));
  const rematch = byId<HTMLButtonElement>("rematch");
  rematch.hidden = !(result.rematch && msg?.you?.seated === true);
  rematch.classList.remove("sent");
  setText(rematch, doors.said("tables.btn.rematch"));
  const replay = byId<HTMLButtonElement>("replay-deal");
  replay.hidden = result.replay_deal === null;
  setText(replay, doors.said("replays.btn.open"));
}
