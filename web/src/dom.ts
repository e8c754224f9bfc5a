// A few helpers to build the page. Text goes in as text nodes (textContent), never as
// markup: a member's name is shown as typed, and nothing in it runs.

type Attrs = Record<string, string | number | boolean | undefined | null>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = String(value);
    else if (name.startsWith("data-")) node.setAttribute(name, String(value));
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

/** Replace an element's children (text stays text). */
export function fill(parent: Element, ...children: (Node | string | null | undefined | false)[]) {
  const nodes: Node[] = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    nodes.push(typeof child === "string" ? document.createTextNode(child) : child);
  }
  parent.replaceChildren(...nodes);
}

export function setText(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

let cardsVersion = "";

/** The cards' pictures' version (``/api/config`` says it): their addresses carry it, so the
 *  browser keeps them for good and a new release's pictures are asked anew. */
export function setCardsVersion(version: string): void {
  cardsVersion = version;
}

/** The address of a card's picture (``back``: its back), with the pictures' version. */
export function cardSrc(code: string): string {
  const path = `/cards/${encodeURIComponent(code)}.png`;
  return cardsVersion ? `${path}?v=${encodeURIComponent(cardsVersion)}` : path;
}

const SVG = "http://www.w3.org/2000/svg";

/** A small robot's head, drawn (no emoji font needed), in the text's colour. */
export function robotIcon(label: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "robot");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const parts: [string, Record<string, string>][] = [
    ["line", { x1: "12", y1: "2.5", x2: "12", y2: "6", stroke: "currentColor", "stroke-width": "2" }],
    ["circle", { cx: "12", cy: "2.5", r: "1.8", fill: "currentColor" }],
    ["rect", { x: "3.5", y: "6", width: "17", height: "14", rx: "4", fill: "currentColor" }],
    ["rect", { x: "1", y: "11", width: "2.5", height: "5", rx: "1", fill: "currentColor" }],
    ["rect", { x: "20.5", y: "11", width: "2.5", height: "5", rx: "1", fill: "currentColor" }],
    ["circle", { cx: "8.7", cy: "12", r: "2", class: "eye" }],
    ["circle", { cx: "15.3", cy: "12", r: "2", class: "eye" }],
    ["rect", { x: "8", y: "16", width: "8", height: "1.8", rx: "0.9", class: "eye" }],
  ];
  for (const [tag, attrs] of parts) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    svg.append(node);
  }
  return svg;
}
