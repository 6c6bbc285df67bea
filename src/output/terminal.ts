/**
 * Text for a terminal. User text (labels, seeds, parameter values, shard
 * fields, the input an error message quotes) could otherwise carry escape
 * sequences that clear the screen, set the window title or reorder what is
 * shown. Every control character is shown as a visible escape instead:
 * C0 (but the line feed, and a carriage return that ends a CSV line with
 * it), DEL, C1, the Unicode line and paragraph
 * separators, and the bidirectional overrides and isolates.
 */
const CONTROL = new RegExp(
  '[\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f' +
    '\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufeff]|\\r(?!\\n)',
  'gu',
);

function visible(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character (see above) replaced by a visible escape such as `\x1b` or `\u202e`; line feeds
 * kept.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Line ends terminalSafe keeps: LF, and CR before it (a lone CR it has already escaped). */
const LINE_BREAK = /\r?\n|\r/g;

/**
 * The same for text that must stay on one line (a message, a table cell, a
 * path in "wrote …"): line feeds and carriage returns escaped too, so user
 * text can neither start a line that looks like muster's own nor, with a
 * bare CR, return to the start of one and overwrite it.
 */
export function terminalLine(text: string): string {
  const shown = (end: string) => (end === '\r\n' ? '\\x0d\\x0a' : end === '\n' ? '\\x0a' : '\\x0d');
  return terminalSafe(text).replace(LINE_BREAK, shown);
}

interface TerminalIo {
  out(text: string): void;
  err(text: string): void;
  errIsTTY: boolean;
}

/** What a progress line may begin with: a carriage return, and the sequence that clears the line. */
const PROGRESS_PREFIX = /^(?:\r\x1b\[2K|\r)/;
/** How a plain progress bar (TERM=dumb, NO_COLOR) clears its line: spaces between two carriage returns. */
const PLAIN_CLEAR = /^\r +\r$/;

/**
 * An Io whose writes show control characters as escapes: on stdout every
 * one but the line feed; on stderr the same, except the carriage return and
 * line clear a progress line starts with, and the spaces between two
 * carriage returns that clear a plain one.
 */
export function terminalIo<T extends TerminalIo>(io: T): T {
  return {
    ...io,
    out: (text: string) => io.out(terminalSafe(text)),
    err: (text: string) => {
      // Nothing but spaces to escape there; before, its second CR showed as \x0d after every plain bar.
      if (PLAIN_CLEAR.test(text)) return io.err(text);
      const prefix = PROGRESS_PREFIX.exec(text)?.[0] ?? '';
      io.err(prefix + terminalSafe(text.slice(prefix.length)));
    },
  };
}
