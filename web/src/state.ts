// What the page knows and is doing now, which its parts share: the table as last shown,
// the connection, and the one tap that is on its way.

import type { Connection } from "./connection";
import type { HandJ, TableJ, YouJ } from "./wire";

export interface View {
  table: TableJ;
  hand: HandJ | null;
  me: number | null; // your seat
  you: YouJ | null; // whether you sit at it, whether you host it (null: not said)
  result: boolean; // a finished game whose result came in words (the result panel says it)
  received: number; // performance.now() when it came
}

export const page: {
  view: View | null;
  connection: Connection | null;
  sent: boolean; // an action is on its way: one tap, one action
  asked: boolean; // an open or a lobby button is on its way: one tap, one answer
  mayOpen: boolean; // no table here, and the page may open one
  lastOpen: boolean; // the last trick's panel is open
} = {
  view: null,
  connection: null,
  sent: false,
  asked: false,
  mayOpen: false,
  lastOpen: false,
};

export const body = document.body;
