// What the server's socket sends (bot/web/wire.py) and what the page sends back.

export interface SeatJ {
  name: string | null; // a member's name (null for a robot): always inserted as text
  robot: number | null; // a robot's number
  level: string | null;
  away: boolean;
  left: boolean;
}

export type Played = [number, string]; // (seat, card code)

export interface DealJ {
  sides: number[][];
  trump: number; // 0..3: oros, copas, espadas, bastos
  turned: string;
  face_up: string | null;
  stock_left: number | null;
  turn: number;
  auction: boolean;
  trick: Played[];
  trick_no: number;
  last_trick: { cards: Played[]; winner: number; points: number } | null;
  cantes: [number, number, number][]; // (seat, suit, points)
  scores: number[];
  hand_sizes: number[];
  contract: { seat: number; points: number } | null;
  capote_seat: number | null;
}

export interface TableJ {
  id: number;
  variant: string;
  language: string;
  status: string; // lobby | playing | finished | closed | cancelled
  deal_no: number;
  seats: (SeatJ | null)[];
  turn_deadline: number | null;
  turn_left: number | null; // seconds left of the turn when the message was sent
  paused_until: number | null;
  deal: DealJ | null;
  winner: number | null; // a side, of `sides`
  sides: number[][];
  rounds_won: number[] | null;
  /** The first 12 hex digits of the commitment to the shuffle (null: the older one). */
  commitment: string | null;
}

export interface Refusal {
  card: string;
  key: string;
  params: Record<string, string | number>;
  text: string;
}

export interface Declaration {
  code: string;
  label: string;
  ask?: string; // a question before it (capote, resigning), and its Yes
  yes?: string;
}

export interface HandJ {
  seat: number;
  deal_no: number;
  trick_no: number;
  cards: string[];
  playable: string[];
  refusals: Refusal[];
  declarations: Declaration[];
  your_turn: boolean;
  hint?: boolean; // the Hint button: the player's turn at a friendly table
  sits_out: boolean;
  away: boolean;
  left: boolean;
}

export interface StateMsg {
  type: "state";
  protocol: number;
  lang: string;
  table: TableJ;
  hand: HandJ | null;
  you?: YouJ; // what the viewer may do in a lobby
  stakes?: string[]; // a lobby: what moves chips (a bet, arrastrado's chips, the plato)
  result?: ResultJ; // a finished game
}

/** A finished game, in words (names as typed: inserted as text). */
export interface ResultJ {
  title: string;
  winner: string | null;
  rounds_title: string;
  rounds: string[];
  tally_title: string | null; // null: nothing moved for any member (a friendly game)
  tally: string[]; // what moved for each member: chips, experience, place, rating
  rematch: boolean; // it may be played again (a daily deal may not)
  replay_deal: number | null; // its last deal, to replay
  deal: DealEndJ | null; // its last deal: how it ended and each side's points
  hints: string | null; // the hints each member asked for (null: none did)
}

/** The game's last deal, as the chat's result ends: its title, how it ended (the cards, a
 *  tute, capote, a claim, a resignation; a contract made or failed), each side's points. */
export interface DealEndJ {
  title: string;
  ending: string[];
  sides: string[];
}

/** The question before a leave or a vote to cancel (``{"type": "ask", "what": ...}``); its
 *  Yes sends ``{"type": what}``. */
export type Asked = "leave" | "cancel";

export interface QuestionMsg {
  type: "question";
  what: Asked;
  text: string | null; // null: nothing to ask (only getting up from a lobby): done at once
  yes?: string;
  no?: string;
}

export interface YouJ {
  seated: boolean;
  host: boolean;
  seat?: number | null; // your seat, where the server says it
}

/** The games a page may open where no table plays (``{"type": "open", "variant": ...}``). */
export const VARIANTS = ["habanero", "arrastrado", "individual", "pairs"] as const;
export type Variant = (typeof VARIANTS)[number];

/** A lobby's buttons (``{"type": "lobby", "do": ...}``). */
export type LobbyDo = "join" | "robot" | "start" | "leave";

export type ServerMsg =
  | StateMsg
  | { type: "refused"; key: string; params: Record<string, unknown>; text?: string }
  | { type: "no_table"; may_open?: boolean } // may_open: the page may open one
  | { type: "lost"; table: number }
  | { type: "private"; table: number } // the channel's game has no spectators, and we sit out
  | { type: "hint"; text: string; card: string | null } // card: the one it plays
  | QuestionMsg
  | { type: "done"; what: Asked; text: string } // what a leave or a vote did
  | TricksMsg
  | SettingsMsg;

/** A lobby's Settings form, for its host (``{"type": "settings"}``); a value chosen sends
 *  ``{"type": "set", "name": ..., "value": ...}`` (the value as typed). */
export interface SettingsMsg {
  type: "settings";
  title: string;
  said: string; // what the form does, or what was just saved
  options: {
    name: string;
    label: string;
    help: string;
    value: string;
    choices: { value: string; label: string }[];
  }[];
}

/** The deal's tricks so far (``{"type": "tricks"}``), oldest first, in words. */
export interface TricksMsg {
  type: "tricks";
  title: string;
  trumps: string;
  happened: { line: string; cards: Played[] | null; winner: number | null }[];
  none: string | null; // no trick is over yet
}

export interface Words {
  lang: string;
  words: Record<string, string>;
  cards: Record<string, string>;
  suits: Record<string, string>;
}
