/**
 * The option parser's (commander's) errors in muster's own wording: one
 * line, the `muster:` prefix every error has, what was given, the nearest
 * name ("did you mean"), and what is allowed.
 */

/** What the parser knows of the command being parsed, for hints on an argument too many. */
export interface ParsedCommand {
  /** Its arguments as given (the operands: options and their values removed). */
  args: readonly string[];
  /** The names of the arguments it takes (`rule`). */
  names: readonly string[];
  /** Its long options (`--set`, `--vary`), to suggest the one an argument was meant for. */
  options: readonly string[];
}

/** Rewrites one message commander would print ("error: …\n(Did you mean …?)"). */
export function parserError(
  message: string,
  command: string,
  commands: readonly string[] = [],
  parsed?: ParsedCommand,
): string {
  const [first, ...rest] = message.trim().split('\n');
  const text = first.replace(/^error:\s*/, '');
  const hint = /\(Did you mean (.+)\?\)/.exec(rest.join(' '));
  const mean = hint
    ? ` (did you mean ${hint[1]
        .replace(/^one of /, '')
        .split(/, | or /)
        .map((name) => JSON.stringify(name))
        .join(' or ')}?)`
    : '';
  const help = `muster ${command === 'muster' ? '' : `${command} `}--help`;
  let match: RegExpExecArray | null;
  if ((match = /^unknown command '(.*)'$/.exec(text)))
    return (
      `muster: command: got ${JSON.stringify(match[1])}${mean}; allowed: ` +
      `${commands.length > 0 ? commands.join(', ') : 'a command muster --help lists'}\n`
    );
  if ((match = /^unknown option '(.*)'$/.exec(text)))
    return `muster: option: got ${JSON.stringify(match[1])}${mean}; allowed: an option ${help} lists\n`;
  if ((match = /^missing required argument '(.*)'$/.exec(text)))
    return (
      `muster: ${match[1]}: missing; allowed: ` + `${match[1] === 'rule' ? 'a rule id (muster list)' : `see ${help}`}\n`
    );
  if ((match = /^option '([^' ]+)[^']*' argument missing$/.exec(text)))
    return `muster: ${match[1]}: missing its value; allowed: see ${help}\n`;
  if ((match = /^too many arguments(?: for '.*')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(text)) && parsed) {
    const extra = parsed.args[parsed.names.length];
    const allowed =
      parsed.names.length === 0
        ? 'no arguments'
        : `${parsed.names.map((name) => `<${name}>`).join(' ')} alone (quote a value that holds spaces)`;
    if (extra !== undefined)
      return (
        `muster: unexpected argument ${JSON.stringify(extra)}${meantOption(extra, parsed.options)}; allowed: ` +
        `${allowed}\n`
      );
  }
  if ((match = /^too many arguments(?: for '.*')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(text)))
    return `muster: arguments: got ${match[2]}; allowed: ${match[1]} (quote a value that holds spaces)\n`;
  return `muster: ${text}${mean}\n`;
}

/**
 * " (did you mean --set wipA=13?)" for an argument that reads as a
 * parameter setting: `name=a..b` or a list to a command that varies
 * parameters, `name=value` to one that sets them.
 */
function meantOption(extra: string, options: readonly string[]): string {
  if (!/^[A-Za-z][\w.]*=/.test(extra)) return '';
  const value = extra.slice(extra.indexOf('=') + 1);
  const quoted = /^[\w.,:=+\-/]+$/.test(extra) ? extra : JSON.stringify(extra);
  // A range or a list of plain values is what a sweep varies; a strategy such as standard:1,2,3 is one value.
  if (
    options.includes('--vary') &&
    (value.includes('..') || value.includes(';') || (value.includes(',') && !value.includes(':')))
  )
    return ` (did you mean --vary ${quoted}?)`;
  if (options.includes('--set')) return ` (did you mean --set ${quoted}?)`;
  if (options.includes('--vary')) return ` (did you mean --vary ${quoted}?)`;
  return '';
}
