/**
 * `muster card --pdf` with a Chromium that misbehaves, played by shell
 * scripts named through MUSTER_CHROMIUM: one that prints, one that hangs
 * (deaf to SIGTERM, with a helper process holding its stderr, as Chromium's
 * zygote would), one that fails. Before, a hung Chromium kept the card
 * waiting forever: the old timeout sent SIGTERM, which the hang ignored, and
 * the wait was for its output to close, which the helper held open.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pdfTimeoutSeconds } from '../../reports/card/pdf.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('card-pdf');
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const READY = new URL('../fixtures/signal-ready.mjs', import.meta.url).href;

afterEach(() => {
  delete process.env.MUSTER_CHROMIUM;
  delete process.env.MUSTER_PDF_TIMEOUT;
});

/**
 * A shell script standing in for Chromium; `body` runs with the --print-to-pdf path in $pdf, and records its pids in
 * `pids`.
 */
function fakeChromium(name: string, body: string): { path: string; pids: string } {
  const path = join(folder, `${name}.sh`);
  const pids = join(folder, `${name}.pids`);
  writeFileSync(
    path,
    `#!/bin/sh
pdf=""
for arg in "$@"; do case "$arg" in --print-to-pdf=*) pdf="\${arg#--print-to-pdf=}";; esac; done
${body}
`,
  );
  chmodSync(path, 0o755);
  return { path, pids };
}

/** Whether a process is still alive (signal 0 probes without signalling). */
/**
 * Whether a process still runs. A zombie (killed, its parent gone before reaping it) answers signal 0 like a live one
 * until whoever adopted it reaps it, and a container's first process may take its time: on Linux its state in
 * /proc/PID/stat says Z, and it counts as stopped.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

const HANG = (pids: string) => `trap '' TERM INT
sleep 600 &
echo "$$ $!" > ${pids}
wait
sleep 600`;

describe('card --pdf through a stand-in Chromium', () => {
  it('one that prints: both files written, the PDF as it printed it', async () => {
    const { path } = fakeChromium('prints', 'printf "%%PDF-1.4 stand-in" > "$pdf"');
    process.env.MUSTER_CHROMIUM = path;
    const out = join(folder, 'ok.html');
    const pdf = join(folder, 'ok.pdf');
    const { status, stderr } = await cli('card', 'infinity', '--out', out, '--pdf', pdf);
    expect({ status, stderr: stderr.replace(/^wrote .*\n/gm, '') }).toEqual({ status: 0, stderr: '' });
    expect(readFileSync(pdf, 'utf8')).toBe('%PDF-1.4 stand-in');
    expect(readFileSync(out, 'utf8')).toContain('<html');
  });

  it(
    'one that hangs: stopped after MUSTER_PDF_TIMEOUT, one line, exit 2, nothing written, no process ' + 'left',
    async () => {
      const { path, pids } = fakeChromium('hangs', HANG(join(folder, 'hangs.pids')));
      process.env.MUSTER_CHROMIUM = path;
      process.env.MUSTER_PDF_TIMEOUT = '1';
      const out = join(folder, 'hang.html');
      const pdf = join(folder, 'hang.pdf');
      const started = Date.now();
      const { status, stdout, stderr } = await cli('card', 'infinity', '--out', out, '--pdf', pdf);
      // 1 s of timeout, plus the card's own work; the hang itself would last 600 s.
      expect(Date.now() - started).toBeLessThan(30_000);
      expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
      expect(stderr).toBe(
        `muster: --pdf: Chromium at ${path} did not print the card within 1 s and was stopped; allowed: a working ` +
          `Chromium (MUSTER_CHROMIUM), or a longer MUSTER_PDF_TIMEOUT in seconds for a slow machine\n`,
      );
      expect(existsSync(out) || existsSync(pdf)).toBe(false);
      const [shell, helper] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
      // SIGKILL to the group is delivered at once, but the kernel may take a moment to reap.
      const deadline = Date.now() + 5_000;
      while ((alive(shell) || alive(helper)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect({ shell: alive(shell), helper: alive(helper) }).toEqual({ shell: false, helper: false });
    },
  );

  it('one that fails: its last line of stderr, exit 2, nothing written', async () => {
    const { path } = fakeChromium(
      'fails',
      'echo "starting" >&2; echo "[0101/000000.000:ERROR:headless] cannot open display" >&2; exit 3',
    );
    process.env.MUSTER_CHROMIUM = path;
    const out = join(folder, 'fail.html');
    const { status, stderr } = await cli('card', 'infinity', '--out', out, '--pdf', join(folder, 'fail.pdf'));
    expect(status).toBe(2);
    expect(stderr).toBe(
      `muster: --pdf: Chromium could not print the card ([0101/000000.000:ERROR:headless] cannot open display); ` +
        `allowed: a working Chromium at ${path}\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('one that exits at once without printing: said so, exit 2, nothing written', async () => {
    const { path } = fakeChromium('silent', 'exit 0');
    process.env.MUSTER_CHROMIUM = path;
    const out = join(folder, 'silent.html');
    const { status, stderr } = await cli('card', 'infinity', '--out', out, '--pdf', join(folder, 'silent.pdf'));
    expect(status).toBe(2);
    expect(stderr).toBe(
      `muster: --pdf: Chromium at ${path} exited without printing the card; allowed: a working Chromium ` +
        `(MUSTER_CHROMIUM)\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('MUSTER_PDF_TIMEOUT is checked before any work', async () => {
    for (const bad of ['0', '-1', 'soon', '1e3', '3601', 'Infinity']) {
      expect(() => pdfTimeoutSeconds({ MUSTER_PDF_TIMEOUT: bad })).toThrow(
        /^MUSTER_PDF_TIMEOUT: got ".*"; allowed: seconds Chromium may take to print a card, greater than 0 and at most 3600 \(default 60\)$/,
      );
    }
    expect(pdfTimeoutSeconds({})).toBe(60);
    expect(pdfTimeoutSeconds({ MUSTER_PDF_TIMEOUT: '2.5' })).toBe(2.5);
    process.env.MUSTER_CHROMIUM = fakeChromium('unused', 'exit 0').path;
    process.env.MUSTER_PDF_TIMEOUT = 'soon';
    const { status, stderr } = await cli(
      'card',
      'infinity',
      '--out',
      join(folder, 'x.html'),
      '--pdf',
      join(folder, 'x.pdf'),
    );
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: MUSTER_PDF_TIMEOUT: got "soon"/);
  });

  it('Ctrl-C while Chromium hangs: Chromium stopped, exit 130, nothing written', async () => {
    const pids = join(folder, 'ctrl-c.pids');
    const { path } = fakeChromium('ctrl-c', HANG(pids));
    const out = join(folder, 'ctrl-c.html');
    const child = spawn(
      process.execPath,
      ['--import', READY, CLI, 'card', 'infinity', '--out', out, '--pdf', join(folder, 'ctrl-c.pdf')],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        env: { ...process.env, MUSTER_CHROMIUM: path, MUSTER_PDF_TIMEOUT: '600' },
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
    // Signalled once the stand-in has started (it writes its pids first thing).
    const deadline = Date.now() + 30_000;
    while (!existsSync(pids) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe(
      'muster: PARTIAL: interrupted while Chromium printed the card; it was stopped and nothing was written\n',
    );
    expect(readdirSync(folder).filter((name) => name.startsWith('ctrl-c.') && name.endsWith('html'))).toEqual([]);
    const [shell, helper] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    const reaped = Date.now() + 5_000;
    while ((alive(shell) || alive(helper)) && Date.now() < reaped)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ shell: alive(shell), helper: alive(helper) }).toEqual({ shell: false, helper: false });
  });
});
