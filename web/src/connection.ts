// The socket to the table: opened with the session, opened again with a growing wait when
// it drops, and after a new login when the server no longer takes the session (401), or
// closes the socket because the session ran out (SESSION_ENDED).

import type { ServerMsg } from "./wire";

export type Phase = "connecting" | "open" | "reconnecting" | "ended";

export interface Handlers {
  message(msg: ServerMsg): void;
  phase(phase: Phase): void;
  login(): Promise<string>; // a fresh session
}

const FIRST_WAIT = 500; // ms
const LONGEST_WAIT = 15_000;
const NO_TABLE_WAIT = 10_000; // how often a channel without a table is asked again
const SESSION_ENDED = 4401; // the server's close code for a session that ran out

export class Connection {
  private ws: WebSocket | null = null;
  private tries = 0;
  private timer: number | undefined;
  private stopped = false;
  private quietRetry = false;

  constructor(
    private session: string,
    private readonly lang: string,
    private readonly on: Handlers,
  ) {}

  open(): void {
    this.stopped = false;
    window.clearTimeout(this.timer);
    const ws = new WebSocket(this.url(location.protocol === "https:" ? "wss:" : "ws:"));
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.tries = 0;
      this.on.phase("open");
    };
    ws.onmessage = (event: MessageEvent) => {
      let msg: ServerMsg;
      try {
        msg = JSON.parse(String(event.data)) as ServerMsg;
      } catch {
        return;
      }
      if (msg.type === "no_table") {
        this.quietRetry = true;
      } else if (msg.type === "lost") {
        this.stopped = true;
      } else if (msg.type === "state") {
        this.quietRetry = false;
      }
      this.on.message(msg);
    };
    ws.onclose = (event: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (event.code === SESSION_ENDED) {
        void this.renew();
        return;
      }
      if (this.quietRetry) {
        // nothing plays in the channel: ask again now and then, without alarm
        this.timer = window.setTimeout(() => this.open(), NO_TABLE_WAIT);
        return;
      }
      this.on.phase("reconnecting");
      void this.retry(opened);
    };
  }

  send(message: Record<string, unknown>): boolean {
    if (this.ws === null || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Look for the channel's table again now (after a game ended). */
  again(): void {
    const ws = this.ws;
    this.ws = null; // its close is not a drop
    ws?.close();
    this.open();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
  }

  private url(scheme: string): string {
    const query = new URLSearchParams({ session: this.session, lang: this.lang });
    return `${scheme}//${location.host}/api/ws?${query.toString()}`;
  }

  /** The session ran out: a new one from a new login, and the socket again at once. */
  private async renew(): Promise<void> {
    try {
      this.session = await this.on.login();
    } catch {
      // no new session now: try again as after a drop (its probe logs in again)
      this.on.phase("reconnecting");
      void this.retry(false);
      return;
    }
    if (!this.stopped) this.open();
  }

  private async retry(opened: boolean): Promise<void> {
    const wait = Math.min(LONGEST_WAIT, FIRST_WAIT * 2 ** this.tries);
    this.tries += 1;
    await sleep(wait * (0.75 + Math.random() / 2));
    if (this.stopped) return;
    if (!opened) {
      // The socket never opened: the same address over plain HTTP says why (401: the
      // session is no longer taken, so log in again; anything else: try again).
      try {
        const probe = await fetch(this.url(location.protocol), { cache: "no-store" });
        if (probe.status === 401) {
          this.session = await this.on.login();
        }
      } catch {
        // the server is not there yet
      }
    }
    if (!this.stopped) this.open();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}
