/**
 * `npm run bench:generators`: seedrandom's generators on the loop muster's
 * rules run most, a d6 from one uniform (1 + ⌊6u⌋), as ratios to alea
 * measured in the same invocation. Each generator runs in its own child
 * process, so every loop's call site sees one generator only and none is
 * slowed by the others' code (a shared loop turns megamorphic and slows
 * every generator after the first). Median of five runs each.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { median } from 'simple-statistics';

const GENERATORS = ['alea', 'xor128', 'tychei', 'xorwow', 'xor4096', 'xorshift7', 'arc4'] as const;
type Generator = (typeof GENERATORS)[number];
const DICE = 5e7;
const REPEATS = 5;

function make(name: Generator): () => number {
  return name === 'arc4' ? seedrandom('bench') : seedrandom[name]('bench');
}

/** d6 per second of one generator, in this process. */
function measure(name: Generator): number[] {
  const rates: number[] = [];
  for (let repeat = 0; repeat < REPEATS + 1; repeat++) {
    const rng = make(name);
    let total = 0;
    const started = performance.now();
    for (let i = 0; i < DICE; i++) total += 1 + ((rng() * 6) | 0);
    const seconds = (performance.now() - started) / 1000;
    if (total < DICE) throw new Error('unreachable: keeps the loop from being optimised away');
    if (repeat > 0) rates.push(DICE / seconds); // the first run warms the JIT
  }
  return rates;
}

const one = process.argv[2] as Generator | undefined;
if (one) {
  process.stdout.write(JSON.stringify(measure(one)));
} else {
  const script = fileURLToPath(import.meta.url);
  const rates = new Map(
    GENERATORS.map((name) => [
      name,
      median(JSON.parse(execFileSync(process.execPath, [script, name], { encoding: 'utf8' })) as number[]),
    ]),
  );
  const alea = rates.get('alea')!;
  process.stdout.write(
    `seedrandom generators on a d6 loop, median of ${REPEATS} runs of ${DICE.toExponential(0)} dice, ratio to alea\n`,
  );
  for (const [name, rate] of rates)
    process.stdout.write(
      `${name.padEnd(10)} ${(rate / 1e6).toFixed(1).padStart(6)}M d6/s  ${(rate / alea).toFixed(2)}×\n`,
    );
}
