/**
 * Hostile rule files, generated: every member a rule file has (id, title,
 * params and their items, metrics, trial, the step form, exact, validate,
 * setup, outcomes, read, headline, readings, matrix, presentation) made
 * hostile in each way a JavaScript value can be — a getter that throws, a
 * Proxy whose every trap throws (an object's, an array's, a function's), an
 * object whose toString, valueOf, Symbol.toPrimitive and toJSON throw — and
 * every function member made to throw what is not a plain Error (an error
 * whose `message` and `name` getters throw, a Proxy, a symbol, null) or to
 * return such a value. Before, 44 such cases printed "internal error (please
 * report)" with a stack trace and exit 1. A rule's fault is the user's: one
 * line naming the file and the member, exit status 2, no stack.
 *
 * The commands run in-process (main() with a buffer Io), so a case costs a
 * few milliseconds; the same files on the real command line, under the
 * supervisor, are sampled at the end.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeError, describeValue } from '../../src/guard/rule-text.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('hostile-rules');
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** The hostile values, defined in each generated file. */
const HELPERS = `
const traps = {};
for (const trap of ['get', 'set', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'setPrototypeOf',
  'defineProperty', 'deleteProperty', 'apply', 'construct', 'isExtensible', 'preventExtensions'])
  traps[trap] = () => { throw new Error('trap ' + trap); };
const proxy = () => new Proxy({}, traps);
const proxyArray = () => new Proxy([], traps);
const proxyFunction = () => new Proxy(function () {}, traps);
const primitiveThrows = () => ({
  toString() { throw new Error('toString'); },
  valueOf() { throw new Error('valueOf'); },
  [Symbol.toPrimitive]() { throw new Error('toPrimitive'); },
  toJSON() { throw new Error('toJSON'); },
});
const badError = () => {
  const error = new Error('unread');
  Object.defineProperty(error, 'message', { get() { throw new Error('message getter'); } });
  Object.defineProperty(error, 'name', { get() { throw new Error('name getter'); } });
  return error;
};
const set = (container, key, value) =>
  Object.defineProperty(container, key, { value, enumerable: true, configurable: true, writable: true });
const getterThrows = (container, key) =>
  Object.defineProperty(container, key, { get() { throw new Error('getter ' + key); }, enumerable: true, configurable: true });
`;

/** A sound rule in the trial form: every member a trial-form file may have. */
const TRIAL_RULE = `{
  id: 'hostile', title: 'Hostile', summary: 'a summary', source: 'a source',
  params: [
    { name: 'n', type: 'integer', default: 1, min: 1, max: 3, doc: 'n' },
    { name: 'm', type: 'integer', default: 1, min: 1, max: 3, doc: 'm' },
  ],
  metrics: [{ name: 'win', probability: true, doc: 'w' }],
  headline: ['win'],
  readings(p) { return [{ param: 'n', text: 'n as read' }]; },
  validate(p) { return undefined; },
  setup(p) { return { ready: true }; },
  trial(dice, p, out, prepared) { out.win = dice.d(6) >= 4; },
  exact(p) { return { win: '1/2' }; },
  matrix: { row: 'n', col: 'm', metrics: ['win'], values: [1, 2] },
  presentation: { charts: [{ kind: 'every' }] },
}`;

/** The step form: start, step, done, report. */
const STEP_RULE = `{
  id: 'hostile', title: 'Hostile',
  params: [{ name: 'n', type: 'integer', default: 1, min: 1, max: 3, doc: 'n' }],
  metrics: [{ name: 'win', probability: true, doc: 'w' }],
  start(p) { return 0; },
  step(state, dice, p, out) { return dice.d(6) >= 4 ? 1 : 2; },
  done(state, p) { return state > 0; },
  report(state, p, out) { out.win = state === 1; },
}`;

/** Counting outcomes: trial returns an outcome, read writes its metrics. */
const OUTCOME_RULE = `{
  id: 'hostile', title: 'Hostile',
  params: [{ name: 'n', type: 'integer', default: 1, min: 1, max: 3, doc: 'n' }],
  metrics: [{ name: 'win', probability: true, doc: 'w' }],
  outcomes(p) { return 2; },
  trial(dice, p, out) { return dice.d(6) >= 4 ? 1 : 0; },
  read(outcome, p, out) { out.win = outcome === 1; },
}`;

type Command = 'describe' | 'run' | 'exact';
const ARGV: Record<Command, (file: string) => string[]> = {
  describe: (file) => ['describe', file],
  run: (file) => ['run', file, '--trials', '2000', '--quiet'],
  exact: (file) => ['run', file, '--exact'],
};
const ALL: Command[] = ['describe', 'run', 'exact'];

interface Member {
  /** The rule it belongs to, the object holding it (a JavaScript expression) and its key. */
  base: string;
  container: string;
  key: string;
  /** What the one line must name: the member, or the rule's function that met the hostile value. */
  named: string | RegExp;
  /** The commands that read or call it, so must refuse it (the others may not need it at all). */
  refusedBy: Command[];
  /** A function member: also made to throw, and to return hostile values. */
  fn?: boolean;
}

const DATA = (container: string, key: string, named = key, base = TRIAL_RULE): Member => ({
  base,
  container,
  key,
  named,
  refusedBy: ALL,
});
const FN = (container: string, key: string, refusedBy: Command[], base = TRIAL_RULE): Member => ({
  base,
  container,
  key,
  named: key,
  refusedBy,
  fn: true,
});

const MEMBERS: Member[] = [
  DATA('rule', 'id'),
  DATA('rule', 'title'),
  DATA('rule', 'summary'),
  DATA('rule', 'source'),
  DATA('rule', 'params'),
  DATA('rule.params', '0', 'params[0]'),
  DATA('rule.params[0]', 'name', 'params[0]'),
  DATA('rule.params[0]', 'max', 'max'),
  DATA('rule.params[0]', 'default', 'default'),
  DATA('rule', 'metrics'),
  DATA('rule.metrics', '0', 'metrics[0]'),
  DATA('rule.metrics[0]', 'name', 'metrics[0]'),
  DATA('rule.metrics[0]', 'probability', 'probability'),
  DATA('rule', 'headline'),
  DATA('rule', 'matrix'),
  // A function's Proxy is a function until it is called, and only matrix and card call values().
  { ...DATA('rule.matrix', 'values', 'matrix'), refusedBy: [] },
  DATA('rule', 'presentation'),
  DATA('rule.presentation', 'charts', 'presentation'),
  DATA('rule.presentation.charts', '0', 'presentation'),
  FN('rule', 'trial', ['run', 'exact'], STEP_RULE.replace('start(p)', 'trial(d, p, o) {}, start(p)')),
  FN('rule', 'trial', ['run']),
  FN('rule', 'exact', ['exact']),
  FN('rule', 'validate', ALL),
  FN('rule', 'readings', ['describe']),
  FN('rule', 'setup', ['run']),
  FN('rule', 'start', ['run', 'exact'], STEP_RULE),
  FN('rule', 'step', ['run', 'exact'], STEP_RULE),
  FN('rule', 'done', ['run', 'exact'], STEP_RULE),
  FN('rule', 'report', ['run', 'exact'], STEP_RULE),
  FN('rule', 'outcomes', ['run', 'exact'], OUTCOME_RULE),
  FN('rule', 'read', ['run', 'exact'], OUTCOME_RULE),
];

/** Ways a member's value can be hostile, as the statement that makes it so. */
const VALUE_KINDS: Record<string, (container: string, key: string) => string> = {
  'a getter that throws': (c, k) => `getterThrows(${c}, ${JSON.stringify(k)});`,
  'a Proxy whose traps throw': (c, k) => `set(${c}, ${JSON.stringify(k)}, proxy());`,
  "an array's Proxy whose traps throw": (c, k) => `set(${c}, ${JSON.stringify(k)}, proxyArray());`,
  "a function's Proxy whose traps throw": (c, k) => `set(${c}, ${JSON.stringify(k)}, proxyFunction());`,
  'an object whose toString, valueOf and toPrimitive throw': (c, k) =>
    `set(${c}, ${JSON.stringify(k)}, primitiveThrows());`,
};

/** What a function member may throw, or return, that is not a plain Error or plain data. */
const THROWN = {
  'an error whose message and name getters throw': 'badError()',
  'a Proxy': 'proxy()',
  'a symbol': "Symbol('thrown')",
  null: 'null',
  'an object whose toString throws': 'primitiveThrows()',
};
const RETURNED = {
  'a Proxy': 'proxy()',
  "an array's Proxy": 'proxyArray()',
  'a toString that throws': 'primitiveThrows()',
};

let files = 0;
function ruleFile(base: string, statement: string): string {
  const path = join(folder, `hostile-${++files}.mjs`);
  writeFileSync(path, `${HELPERS}\nconst rule = ${base};\n${statement}\nexport default rule;\n`);
  return path;
}

/** The contract: 0 where the command never touches the member, else one line naming file and member, exit 2. */
async function expectRefused(path: string, member: Member, command: Command): Promise<void> {
  const got = await cli(...ARGV[command](path));
  const context = `${command} ${path}: ${got.stderr}`;
  expect(got.stderr, context).not.toMatch(/internal error|\n\s+at /);
  if (!member.refusedBy.includes(command) && got.status === 0) return;
  expect(got.status, context).toBe(2);
  expect(got.stderr, context).toMatch(/^muster: [^\n]*\n$/);
  expect(got.stderr, context).toContain(path.split('/').pop());
  if (typeof member.named === 'string') expect(got.stderr, context).toContain(member.named);
  else expect(got.stderr, context).toMatch(member.named);
}

describe('a hostile member is one line naming the file and the member, exit 2', () => {
  for (const member of MEMBERS) {
    const title = `${member.container}.${member.key}${member.base === STEP_RULE ? ' (step form)' : member.base === OUTCOME_RULE ? ' (outcomes)' : ''}`;
    it(`${title}: as a value`, async () => {
      for (const make of Object.values(VALUE_KINDS)) {
        const path = ruleFile(member.base, make(member.container, member.key));
        for (const command of ALL) await expectRefused(path, member, command);
      }
    });
    if (!member.fn) continue;
    it(`${title}: what it throws and what it returns`, async () => {
      const statements = [
        ...Object.values(THROWN).map((thrown) => `rule.${member.key} = function () { throw ${thrown}; };`),
        ...Object.values(RETURNED).map((value) => `rule.${member.key} = function () { return ${value}; };`),
      ];
      for (const statement of statements) {
        const path = ruleFile(member.base, statement);
        // A member whose returned value is not read (trial without outcomes) may pass: refusedBy holds for throws.
        const returns = statement.includes('return');
        const lenient = returns && ['trial', 'setup', 'report', 'done', 'read'].includes(member.key);
        // A state start or step returns is read first by done: the line names the function that met it.
        const named = returns && ['start', 'step'].includes(member.key) ? /\b(start|step|done)\b/ : member.named;
        for (const command of ALL)
          await expectRefused(path, { ...member, named, refusedBy: lenient ? [] : member.refusedBy }, command);
      }
    });
  }

  it('the default export itself: a Proxy, an array Proxy, a function Proxy, a toString that throws', async () => {
    // An object whose toString throws is an object without an id: that is what is wrong with it.
    const member: Member = { base: TRIAL_RULE, container: '', key: '', named: /default export|: id:/, refusedBy: ALL };
    for (const value of ['proxy()', 'proxyArray()', 'proxyFunction()', 'primitiveThrows()']) {
      const path = join(folder, `hostile-${++files}.mjs`);
      writeFileSync(path, `${HELPERS}\nexport default ${value};\n`);
      for (const command of ALL) await expectRefused(path, member, command);
    }
  });

  it('top-level code that throws a Proxy, a symbol, null or an error whose message getter throws', async () => {
    const member: Member = { base: TRIAL_RULE, container: '', key: '', named: 'does not load', refusedBy: ALL };
    for (const thrown of Object.values(THROWN)) {
      const path = join(folder, `hostile-${++files}.mjs`);
      writeFileSync(path, `${HELPERS}\nthrow ${thrown};\nexport default {};\n`);
      for (const command of ALL) await expectRefused(path, member, command);
    }
  });
});

describe('describing what a rule threw or returned never throws', () => {
  it('a Proxy, a throwing toString, an error with throwing getters, a symbol, null: each one line', () => {
    const traps: ProxyHandler<object> = {};
    for (const trap of ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'] as const)
      traps[trap] = () => {
        throw new Error(`trap ${trap}`);
      };
    const badError = new Error('unread');
    Object.defineProperty(badError, 'message', {
      get() {
        throw new Error('message getter');
      },
    });
    const throws = () => {
      throw new Error('toString');
    };
    const cases: Array<[unknown, string]> = [
      [new Proxy({}, traps), 'an object that cannot be shown'],
      [new Proxy([], traps), 'an array that cannot be shown'],
      [{ toString: throws, toJSON: throws, [Symbol.toPrimitive]: throws }, 'an object that cannot be shown'],
      [badError, 'Error (its message cannot be read)'],
      [Symbol('thrown'), 'the value Symbol(thrown)'],
      [null, 'the value null'],
      [new RangeError('plain'), 'RangeError: plain'],
    ];
    for (const [value, shown] of cases) expect(describeError(value)).toBe(shown);
    expect(describeValue(new Proxy({}, traps))).toBe('an object that cannot be shown');
  });
});

describe('on the real command line, under the supervisor', () => {
  it('a getter, a Proxy and a thrown Proxy are one line, exit 2, for run, run --exact and describe', () => {
    const cases = [
      { path: ruleFile(TRIAL_RULE, "getterThrows(rule, 'title');"), named: 'title' },
      { path: ruleFile(TRIAL_RULE, "set(rule.params, '0', proxy());"), named: 'params[0]' },
      { path: ruleFile(TRIAL_RULE, 'rule.validate = () => { throw proxy(); };'), named: 'validate' },
    ];
    for (const { path, named } of cases) {
      for (const command of ALL) {
        const child = spawnSync(process.execPath, [CLI, ...ARGV[command](path)], {
          cwd: folder,
          encoding: 'utf8',
          timeout: 30_000,
        });
        const context = `${command} ${path}: ${child.stderr}`;
        expect(child.status, context).toBe(2);
        expect(child.stderr, context).toMatch(/^muster: [^\n]*\n$/);
        expect(child.stderr, context).toContain(named);
      }
    }
  }, 60_000);
});
