// The page's lines in words: its state (connecting, no table here...), the big line in the
// middle of the table, and the notice line (a refusal, a cante), which goes with its moment.

import { byId, setText } from "./dom";
import { body, page, type View } from "./state";
import { w } from "./words";

export function setPageState(state: string): void {
  body.dataset.state = state;
  const line = {
    connecting: w("connecting"),
    reconnecting: w("reconnecting"),
    no_table: w("no_table"),
    lost: w("lost"),
    private: w("watch_private"),
  }[state];
  const opening = state === "no_table" && page.mayOpen;
  byId("opener").hidden = !opening;
  if (opening) {
    banner(null);
  } else if (line !== undefined) {
    banner(line, { again: state === "no_table" });
  } else if (page.view === null || page.view.table.status === "playing") {
    banner(null);
  }
}

/** The big line in the middle of the table (null: none), with its button when asked. */
export function banner(line: string | null, { again = false, won = false } = {}): void {
  const box = byId("banner");
  box.hidden = line === null;
  box.classList.toggle("won", won);
  setText(byId("banner-text"), line ?? "");
  const button = byId<HTMLButtonElement>("again");
  button.hidden = !again || line === null;
  setText(button, w("look_again"));
}

/** The moment a notice belongs to: the table, its status, its deal and trick. */
export function moment(v: View | null): string {
  if (v === null) return "";
  const t = v.table;
  return `${t.id}/${t.status}/${t.deal_no}/${t.deal?.trick_no ?? ""}`;
}

let noticeMoment = "";

/** Whether the notice line's moment has passed: another table, deal or trick. */
export function noticeOutlived(v: View | null): boolean {
  return moment(v) !== noticeMoment;
}

export function notice(text: string): void {
  const box = byId("notice");
  box.classList.remove("fresh");
  setText(box, text);
  noticeMoment = moment(page.view);
  void box.offsetWidth; // restart its animation
  box.classList.add("fresh");
}

/** Send ``message`` to the table; false, and a notice that says why, when the page is not
 *  connected. */
export function sendOrSay(message: Record<string, unknown>): boolean {
  if (page.connection?.send(message)) return true;
  notice(w("not_connected"));
  return false;
}
