// The web table: the table seen from your seat, your hand to tap, in your language.
//
// DOM contract (browser tests rely on it):
//   body[data-state]   connecting | playing | no_table | lost | private | reconnecting
//                      | declined (Discord's consent was declined: a button asks again)
//   body[data-seat]    your seat number, or "" for a spectator
//   body[data-status]  the table's status (lobby, playing, finished, closed, cancelled)
//   button.card[data-card][data-playable="1"|"0"]   each card of your hand
//   button.declare[data-code]                        each declaration you may make
//   button.declare.hint   at a friendly table on your turn: what the hard robot would do
//                         (the answer in #notice; the card it plays gets .hinted)
//   #trick [data-card][data-seat]                     the cards of the trick in play
//   .seat[data-seat] (data-turn="1" on the seat to play)
//   #notice (the last refusal or notice, in words; it goes when its moment does: another
//           table, deal or trick, or the game's end), #scores, #clock
//   button.open[data-variant]   no table here (state no_table): open one of that game
//   button.lobby[data-do]       in a lobby: join | robot | start | leave (each only when
//                               it may be pressed); #variant: the lobby's game in words
//   the replays: see replay.ts

import { Connection, type Phase } from "./connection";
import { byId, fill, setCardsVersion, setText } from "./dom";
import { drawLast, drawSeats, drawStock, drawTrick, showTaken, tellCantes } from "./felt";
import { answered, drawGame, question, showSettings, showTricks, wireGame } from "./game";
import { drawDeclarations, drawHand, layOutHand, onDeclareClick, onHandClick } from "./hand";
import { buildOpener, drawLobby, mySeat, onLobbyClick, onOpenClick } from "./lobby";
import { type Config, ConsentDeclined, Login, LoginError } from "./login";
import { banner, notice, noticeOutlived, setPageState } from "./notices";
import { Replays } from "./replay";
import { body, page } from "./state";
import { drawScores, drawStatus, tickClock } from "./status";
import type { ServerMsg, StateMsg, Words } from "./wire";
import { WORDS, cardName, pickLanguage, said, setWords, w } from "./words";

let clockTimer: number | undefined;

// ------------------------------------------------------------------------ messages

function show(msg: StateMsg): void {
  const before = page.view;
  const me = mySeat(msg, before);
  page.view = {
    table: msg.table,
    hand: msg.hand,
    me,
    you: msg.you ?? null,
    result: msg.result !== undefined,
    received: performance.now(),
  };
  if (noticeOutlived(page.view)) notice(""); // its moment has passed
  showTaken(before, page.view);
  tellCantes(before, page.view);
  page.sent = false;
  page.asked = false;
  page.mayOpen = false;
  setPageState("playing");
  body.dataset.seat = me === null ? "" : String(me);
  body.dataset.status = msg.table.status;
  body.dataset.seats = String(msg.table.seats.length);
  body.classList.toggle("my-turn", msg.hand?.your_turn === true);
  drawSeats(page.view);
  drawStock(page.view);
  drawTrick(page.view);
  drawLast(page.view);
  drawScores(page.view);
  drawStatus(page.view);
  drawLobby(page.view);
  drawDeclarations(page.view);
  drawHand(page.view);
  drawGame(msg, me);
  tickClock();
  const dialog = byId<HTMLDialogElement>("ask");
  if (dialog.open) {
    const asked = byId<HTMLButtonElement>("ask-yes");
    const still = msg.hand?.declarations.some((d) => d.yes === asked.textContent);
    if (!still && !dialog.dataset.what) dialog.close();
  }
}

function onMessage(msg: ServerMsg): void {
  switch (msg.type) {
    case "state":
      show(msg);
      break;
    case "refused":
      page.sent = false;
      page.asked = false;
      for (const card of Array.from(document.querySelectorAll(".card.sent, .open.sent, .lobby.sent"))) {
        card.classList.remove("sent");
      }
      answered();
      notice(msg.text ?? w("refused"));
      if (body.dataset.state === "no_table" && msg.key !== "tables.errors.expired") {
        // an open refused (a table opened here meanwhile, say): ask for the channel's
        // table again, and wait for the next one as before (a session that ran out is
        // renewed by the connection itself, once the server closes its socket)
        page.connection?.again();
      }
      break;
    case "hint":
      notice(msg.text);
      for (const card of Array.from(document.querySelectorAll<HTMLElement>("button.card"))) {
        card.classList.toggle("hinted", msg.card !== null && card.dataset.card === msg.card);
      }
      break;
    case "question":
      question(msg);
      break;
    case "done":
      notice(msg.text);
      break;
    case "tricks":
      showTricks(msg);
      break;
    case "settings":
      showSettings(msg);
      break;
    case "no_table":
      page.view = null;
      page.asked = false;
      page.mayOpen = msg.may_open === true;
      clearTable();
      setPageState("no_table");
      break;
    case "lost":
      page.view = null;
      page.mayOpen = false;
      clearTable();
      setPageState("lost");
      break;
    case "private":
      page.view = null;
      page.mayOpen = false;
      clearTable();
      setPageState("private");
      break;
  }
}

function clearTable(): void {
  for (const id of ["seats", "trick", "taken", "scores", "declarations", "hand", "last"]) {
    fill(byId(id));
  }
  setText(byId("status"), "");
  byId("back").hidden = true;
  byId("lobby").hidden = true;
  byId("variant").hidden = true;
  for (const button of Array.from(document.querySelectorAll(".open.sent"))) {
    button.classList.remove("sent");
  }
  byId("last-trick").hidden = true;
  byId("stock").hidden = true;
  drawGame(null, null);
  notice(""); // a notice goes with its table
  body.dataset.seat = "";
  body.dataset.status = "";
  tickClock();
}

function onPhase(phase: Phase): void {
  // a declined consent keeps its word and its button until pressed
  if (phase === "reconnecting" && body.dataset.state !== "declined") {
    setPageState("reconnecting");
  }
}

// ------------------------------------------------------------------------ start

/** Discord's consent was declined: say so, with a button to be asked again; resolves when it
 *  is pressed. */
function consentAgain(): Promise<void> {
  body.dataset.state = "declined";
  byId("opener").hidden = true;
  banner(w("consent_declined"));
  const button = byId<HTMLButtonElement>("consent");
  setText(button, w("consent_again"));
  button.hidden = false;
  return new Promise((resolve) => {
    button.onclick = () => {
      button.onclick = null;
      button.hidden = true;
      setPageState("connecting");
      resolve();
    };
  });
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

async function retrying<T>(what: () => Promise<T>, giveUp: (error: unknown) => boolean) {
  for (let tries = 0; ; tries++) {
    try {
      return await what();
    } catch (error) {
      if (giveUp(error)) throw error;
      setPageState("reconnecting");
      await new Promise((resolve) => window.setTimeout(resolve, Math.min(15000, 500 * 2 ** tries)));
    }
  }
}

function wire(): void {
  byId("hand").addEventListener("click", onHandClick);
  byId("declarations").addEventListener("click", onDeclareClick);
  byId("variants").addEventListener("click", onOpenClick);
  byId("lobby").addEventListener("click", onLobbyClick);
  byId("ask-no").addEventListener("click", () => byId<HTMLDialogElement>("ask").close());
  byId("last-trick").addEventListener("click", () => {
    page.lastOpen = !page.lastOpen;
    if (page.view) drawLast(page.view);
  });
  byId("again").addEventListener("click", () => page.connection?.again());
  byId("back").addEventListener("click", () => {
    if (page.connection?.send({ type: "back" })) byId("back").hidden = true;
  });
  new ResizeObserver(() => layOutHand()).observe(byId("hand"));
  window.addEventListener("resize", () => layOutHand());
  clockTimer = window.setInterval(tickClock, 250);
}

async function start(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const lang = pickLanguage(params);
  document.documentElement.lang = lang;
  body.dataset.state = "connecting";
  wire();
  const [words, config] = await retrying(
    () => Promise.all([getJson<Words>(`/api/words?lang=${lang}`), getJson<Config>("/api/config")]),
    () => false,
  );
  setWords(words);
  setCardsVersion(config.cards ?? "");
  document.title = w("title");
  buildOpener();
  setPageState("connecting");
  const login = new Login(config, params);
  const refusedLogin = (error: unknown) =>
    error instanceof ConsentDeclined || (error instanceof LoginError && error.status < 500);
  const relogin = () => login.session();
  let session: string | null = null;
  while (session === null) {
    try {
      session = await retrying(relogin, refusedLogin);
    } catch (error) {
      if (!(error instanceof ConsentDeclined)) {
        setPageState("lost");
        notice(w("login_refused"));
        return;
      }
      await consentAgain();
    }
  }
  const reconnecting = async (): Promise<string> => {
    try {
      return await relogin();
    } catch (error) {
      if (error instanceof ConsentDeclined) {
        page.connection?.stop(); // no more asking until the member says so
        void consentAgain().then(() => page.connection?.again());
      }
      throw error;
    }
  };
  page.connection = new Connection(session, lang, {
    message: onMessage,
    phase: onPhase,
    login: reconnecting,
  });
  page.connection.open();
  let current = session;
  const replays = new Replays(
    { w, card: cardName, suit: (letter) => WORDS.suits[letter] ?? letter },
    {
      lang,
      session: () => current,
      login: async () => (current = await relogin()),
    },
  );
  replays.ready();
  wireGame({
    w,
    said,
    replay: (table, deal) => void replays.openDeal(table, deal),
    card: cardName,
  });
}

void start();
void clockTimer;
