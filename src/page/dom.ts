/// <reference lib="dom" />
/** The page's own elements (./build.ts writes them), looked up once, and a helper that makes text-only nodes. */

export const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** A new element with a class and text (never HTML): rule text reaches the page only this way or escaped. */
export const make = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = '',
  text = '',
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
};
