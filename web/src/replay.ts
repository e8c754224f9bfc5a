// Replays: a finished deal of this server stepped through, every hand shown (the deal is
// over: nothing is hidden any more). The list of your recent deals, then one deal step by
// step: the deal as dealt, each trick (with the cantes, swaps and declarations that came
// with it), the result. Everything comes from /api/replays (bot/web/replays.py).
//
// DOM contract (besides main.ts's):
//   button#replays-open                     opens the replays (once logged in)
//   dialog#replay[data-step]                the replays; data-step: the step shown (0 first)
//   button.replay-deal[data-table][data-deal]   a deal of yours to replay
//   .replay-seat[data-seat] img[data-card]  each seat's hand at this step
//   #replay-trick img[data-card][data-seat] the trick that closed at this step
//   button.replay-go[data-go]               first | back | next | last (disabled at the ends)
//   #replay-lines                           what happened, in words
//   button#replay-review                    the review of your own decisions in this deal
//   #replay-reviewed                        that review: its summary, then each costliest
//     button.review-step[data-step]         decision, a button stepping to it

import { byId, cardSrc, el, fill, setText } from "./dom";

export interface ReplayWords {
  w(key: string, params?: Record<string, string | number>): string;
  card(code: string): string;
  suit(letter: string): string;
}

export interface ReplayAccess {
  lang: string;
  session(): string;
  login(): Promise<string>; // a fresh session, when the server no longer takes this one
}

interface SeatR {
  user_id: string | null;
  name: string | null;
  robot: number | null;
}

interface TrickR {
  number: number;
  cards: [number, string][];
  winner: number;
  points: number;
}

interface ResultR {
  end: string;
  sides: number[][];
  scores: number[];
  winner: number | null;
}

interface StepR {
  kind: "dealt" | "played" | "result";
  hands: string[][];
  trick: TrickR | null;
  cantes: { seat: number; suit: string; points: number }[];
  exchanges: { seat: number; gave: string; took: string }[];
  declared: Record<string, number>[];
  scores: number[];
  face_up: string | null;
  stock_left: number;
  result: ResultR | null;
}

interface ReplayR {
  table_id: number;
  deal_no: number;
  variant: string;
  trump: string;
  turned: string;
  dealer: number;
  seats: SeatR[];
  sides: number[][];
  steps: StepR[];
}

interface ReviewR {
  table_id: number;
  deal_no: number;
  accuracy: number;
  summary: string[];
  items: { step: number; mark: string; text: string }[];
  how: string;
}

interface DealR {
  table_id: number;
  deal_no: number;
  variant: string;
  finished_at: number;
}

const DECLARED = ["tute", "capote", "claim", "resign", "bid", "pass"];

class Refused extends Error {}

export class Replays {
  private replay: ReplayR | null = null;
  private step = 0;

  constructor(
    private readonly words: ReplayWords,
    private readonly access: ReplayAccess,
  ) {
    const dialog = byId<HTMLDialogElement>("replay");
    byId("replays-open").addEventListener("click", () => void this.open());
    byId("replay-close").addEventListener("click", () => dialog.close());
    byId("replay-list").addEventListener("click", () => void this.open());
    byId("replay-deals").addEventListener("click", (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>(".replay-deal");
      if (button) void this.load(Number(button.dataset.table), Number(button.dataset.deal));
    });
    byId("replay-review").addEventListener("click", () => void this.review());
    byId("replay-reviewed").addEventListener("click", (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>(".review-step");
      if (button && this.replay !== null) this.show(Number(button.dataset.step));
    });
    byId("replay-goes").addEventListener("click", (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>(".replay-go");
      if (button && !button.disabled) this.go(button.dataset.go ?? "");
    });
    const w = this.words.w;
    setText(byId("replays-open"), w("replay.open"));
    setText(byId("replay-close"), w("replay.close"));
    setText(byId("replay-list"), w("replay.list"));
    setText(byId("replay-review"), w("replay.review"));
    for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>(".replay-go"))) {
      button.setAttribute("aria-label", w(`replay.go.${button.dataset.go ?? ""}`));
    }
  }

  /** Show that the page may open replays (a session is there). */
  ready(): void {
    byId("replays-open").hidden = false;
  }

  private async fetchJson<T>(path: string): Promise<T> {
    const url = `${path}?lang=${this.access.lang}`;
    let session = this.access.session();
    for (let tries = 0; ; tries++) {
      const response = await fetch(url, {
        cache: "no-cache",
        headers: { Authorization: `Bearer ${session}` },
      });
      if (response.status === 401 && tries === 0) {
        session = await this.access.login();
        continue;
      }
      const data = (await response.json()) as T & { text?: string };
      if (!response.ok) throw new Refused(data.text ?? this.words.w("replay.failed"));
      return data;
    }
  }

  private say(text: string): void {
    setText(byId("replay-said"), text);
  }

  async open(): Promise<void> {
    const dialog = byId<HTMLDialogElement>("replay");
    const w = this.words.w;
    this.replay = null;
    byId("replay-view").hidden = true;
    byId("replay-list").hidden = true;
    setText(byId("replay-title"), w("replay.list_title"));
    this.say("");
    fill(byId("replay-deals"));
    if (!dialog.open) dialog.showModal();
    let deals: DealR[];
    try {
      deals = (await this.fetchJson<{ deals: DealR[] }>("/api/replays")).deals;
    } catch (error) {
      this.say(error instanceof Refused ? error.message : w("replay.failed"));
      return;
    }
    if (deals.length === 0) this.say(w("replay.none"));
    const format = new Intl.DateTimeFormat(this.access.lang, {
      dateStyle: "medium",
      timeStyle: "short",
    });
    fill(
      byId("replay-deals"),
      ...deals.map((deal) =>
        el(
          "button",
          {
            class: "replay-deal",
            type: "button",
            "data-table": deal.table_id,
            "data-deal": deal.deal_no,
          },
          el(
            "span",
            {},
            w("replay.choice", {
              id: deal.table_id,
              deal: deal.deal_no + 1,
              variant: w(`variant.${deal.variant}`),
            }),
          ),
          el("small", {}, format.format(new Date(deal.finished_at * 1000))),
        ),
      ),
    );
  }

  /** One deal replayed at once (the game over's Replay). */
  async openDeal(table: number, deal: number): Promise<void> {
    const dialog = byId<HTMLDialogElement>("replay");
    setText(byId("replay-title"), this.words.w("replay.list_title"));
    this.say("");
    if (!dialog.open) dialog.showModal();
    await this.load(table, deal);
  }

  private async load(table: number, deal: number): Promise<void> {
    try {
      this.replay = await this.fetchJson<ReplayR>(`/api/replays/${table}/${deal}`);
    } catch (error) {
      this.say(error instanceof Refused ? error.message : this.words.w("replay.failed"));
      return;
    }
    this.say("");
    fill(byId("replay-deals"));
    fill(byId("replay-reviewed"));
    byId("replay-reviewed").hidden = true;
    byId("replay-review").hidden = false;
    byId("replay-list").hidden = false;
    byId("replay-view").hidden = false;
    this.show(0);
  }

  /** The review of your own decisions in the deal shown: asked once, then kept by the
   * server (a second look is instant); its buttons step to the costliest decisions. */
  private async review(): Promise<void> {
    const replay = this.replay;
    if (replay === null) return;
    const w = this.words.w;
    const button = byId<HTMLButtonElement>("replay-review");
    button.disabled = true;
    this.say(w("replay.reviewing"));
    let review: ReviewR;
    try {
      review = await this.fetchJson<ReviewR>(
        `/api/replays/${replay.table_id}/${replay.deal_no}/review`,
      );
    } catch (error) {
      this.say(error instanceof Refused ? error.message : w("replay.failed"));
      return;
    } finally {
      button.disabled = false;
    }
    if (this.replay !== replay) return; // another deal was opened meanwhile
    this.say("");
    button.hidden = true;
    const shown = byId("replay-reviewed");
    fill(
      shown,
      ...review.summary.map((line) => el("p", {}, line)),
      ...review.items.map((item) =>
        el(
          "div",
          { class: "review-item", "data-mark": item.mark },
          el("p", {}, item.text),
          el(
            "button",
            { class: "review-step", type: "button", "data-step": item.step },
            w("replay.review_step", { step: item.step + 1 }),
          ),
        ),
      ),
      el("p", { class: "review-how" }, review.how),
    );
    shown.hidden = false;
  }

  private go(where: string): void {
    const replay = this.replay;
    if (replay === null) return;
    const last = replay.steps.length - 1;
    const to = { first: 0, back: this.step - 1, next: this.step + 1, last }[where];
    if (to !== undefined) this.show(Math.max(0, Math.min(last, to)));
  }

  private name(seat: number): string {
    const replay = this.replay;
    const sat = replay?.seats[seat];
    const w = this.words.w;
    if (!sat) return "?";
    if (sat.user_id === null) return w("robot", { number: sat.robot ?? seat + 1 });
    return sat.name ?? w("replay.player", { number: seat + 1 });
  }

  private sideNames(side: number[]): string {
    return side.map((seat) => this.name(seat)).join(" & ");
  }

  private lines(step: StepR): string[] {
    const replay = this.replay as ReplayR;
    const { w, card, suit } = this.words;
    const lines: string[] = [];
    if (step.kind === "dealt") {
      lines.push(
        w("replay.dealt", {
          dealer: this.name(replay.dealer),
          suit: suit(replay.trump),
          card: card(replay.turned),
        }),
      );
    }
    if (step.trick) {
      lines.push(
        w("replay.trick", {
          number: step.trick.number,
          leader: this.name(step.trick.cards[0][0]),
          winner: this.name(step.trick.winner),
          points: step.trick.points,
        }),
      );
    }
    for (const swap of step.exchanges) {
      lines.push(
        w("replay.exchange", { name: this.name(swap.seat), gave: card(swap.gave), took: card(swap.took) }),
      );
    }
    for (const cante of step.cantes) {
      lines.push(
        w("sang", { name: this.name(cante.seat), points: cante.points, suit: suit(cante.suit) }),
      );
    }
    for (const said of step.declared) {
      const kind = DECLARED.find((k) => k in said);
      if (kind === undefined) continue;
      lines.push(w(`replay.said.${kind}`, { name: this.name(said.seat), points: said[kind] }));
    }
    const result = step.result;
    const sides = result ? result.sides : replay.sides;
    const scores = (result ? result.scores : step.scores)
      .map((points, side) => `${this.sideNames(sides[side])} ${points}`)
      .join(" · ");
    if (result === null) {
      lines.push(w("replay.scores", { scores }));
    } else if (result.winner === null) {
      lines.push(w("replay.no_winner", { scores }));
    } else {
      lines.push(w("replay.won", { names: this.sideNames(sides[result.winner]), scores }));
    }
    return lines;
  }

  private cardImg(code: string, extra: Record<string, string | number> = {}): HTMLImageElement {
    return el("img", {
      src: cardSrc(code),
      alt: this.words.card(code),
      width: 96,
      height: 150,
      draggable: "false",
      "data-card": code,
      ...extra,
    });
  }

  private show(index: number): void {
    const replay = this.replay as ReplayR;
    const step = replay.steps[index];
    const last = replay.steps.length - 1;
    const w = this.words.w;
    this.step = index;
    byId("replay").dataset.step = String(index);
    setText(byId("replay-title"), w("replay.title", { deal: replay.deal_no + 1, id: replay.table_id }));
    setText(byId("replay-step"), w("replay.step", { step: index + 1, steps: last + 1 }));
    fill(byId("replay-lines"), ...this.lines(step).map((line) => el("p", {}, line)));
    // The result step closes no trick: the deal's last trick stays on the table there.
    const trick = step.trick ?? (step.kind === "result" ? (replay.steps[index - 1]?.trick ?? null) : null);
    fill(
      byId("replay-trick"),
      ...(trick ? trick.cards : []).map(([seat, code]) =>
        el(
          "figure",
          { class: seat === trick?.winner ? "won" : "" },
          this.cardImg(code, { "data-seat": seat }),
          el("figcaption", {}, this.name(seat)),
        ),
      ),
    );
    // A hand played out is no row of its own: the last steps show no empty rows.
    const seats = byId("replay-seats");
    const held = step.hands.map((hand, seat) => [hand, seat] as const).filter(([hand]) => hand.length > 0);
    seats.hidden = held.length === 0;
    fill(
      seats,
      ...held.map(([hand, seat]) =>
        el(
          "div",
          { class: "replay-seat", "data-seat": seat },
          el("p", { class: "who" }, this.name(seat)),
          el("div", { class: "cards" }, ...hand.map((code) => this.cardImg(code))),
        ),
      ),
    );
    for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>(".replay-go"))) {
      const go = button.dataset.go;
      button.disabled = (go === "first" || go === "back") ? index === 0 : index === last;
    }
  }
}
