/**
 * The option parser's (commander's) errors in muster's own wording: one
 * line, the `muster:` prefix every error has, what was given, the nearest
 * name ("did you mean"), and what is allowed.
 */

/** Rewrites one message commander would print ("error: …\n(Did you mean …?)"). */
export function parserError(message: string, command: string, commands: readonly string[] = []): string {
  const [first, ...rest] = message.trim().split('\n');
  const text = first.replace(/^error:\s*/, '');
  const hint = /\(Did you mean (.+)\?\)/.exec(rest.join(' '));
  const mean = hint ? ` (did you mean ${hint[1].replace(/^one of /, '').split(/, | or /).map((name) => JSON.stringify(name)).join(' or ')}?)` : '';
  const help = `muster ${command === 'muster' ? '' : `${command} `}--help`;
  let match: RegExpExecArray | null;
  if ((match = /^unknown command '(.*)'$/.exec(text))) return `muster: command: got ${JSON.stringify(match[1])}${mean}; allowed: ${commands.length > 0 ? commands.join(', ') : 'a command muster --help lists'}\n`;
  if ((match = /^unknown option '(.*)'$/.exec(text))) return `muster: option: got ${JSON.stringify(match[1])}${mean}; allowed: an option ${help} lists\n`;
  if ((match = /^missing required argument '(.*)'$/.exec(text))) return `muster: ${match[1]}: missing; allowed: ${match[1] === 'rule' ? 'a rule id (muster list)' : `see ${help}`}\n`;
  if ((match = /^option '([^' ]+)[^']*' argument missing$/.exec(text))) return `muster: ${match[1]}: missing its value; allowed: see ${help}\n`;
  if ((match = /^too many arguments(?: for '.*')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(text))) return `muster: arguments: got ${match[2]}; allowed: ${match[1]} (quote a value that holds spaces)\n`;
  return `muster: ${text}${mean}\n`;
}
