/** How a rule file's values and errors are shown in a one-line message. */

/** A value as a message shows it: short, on one line. */
export function describeValue(value: unknown): string {
  let shown: string;
  if (value === undefined) shown = 'undefined';
  else if (typeof value === 'function') shown = 'a function';
  else if (typeof value === 'bigint') shown = `${value}n`;
  else if (typeof value === 'number') shown = String(value);
  else {
    try {
      shown = JSON.stringify(value) ?? String(value);
    } catch {
      shown = String(value);
    }
  }
  shown = oneLine(shown);
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return oneLine(`${error.name}: ${error.message}`);
  return `the value ${describeValue(error)}`;
}

export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
