import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';

// The Python SDK's own unittest suite (scripted-server retry tests and live tests) against the
// real `wrangler dev`, run with the system python3 exactly as a user would.
function runUnittest(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-m', 'unittest', 'discover', '-v', '-s', 'sdk/python/tests'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('Python SDK (python3 -m unittest) against a real local server', () => {
  it('passes its suite, live tests included', async () => {
    const { code, output } = await runUnittest({
      ENGRAM_BASE_URL: inject('baseUrl'),
      ENGRAM_MANAGEMENT_KEY: inject('bootstrapKey'),
      PYTHONDONTWRITEBYTECODE: '1',
    });
    expect(code, output).toBe(0);
    // The live class ran (it is defined only when the server is given).
    expect(output).toContain('test_ten_line_quick_start');
    expect(output).toMatch(/Ran \d+ tests/);
  }, 120_000);
});
