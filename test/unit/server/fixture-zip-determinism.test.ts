import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { streamFixtureZip, type OpenedFile } from '../../../electron/server/fixture-zip.js';

const dir = mkdtempSync(join(tmpdir(), 'zip-determinism-'));
const NAMES = ['a.wav', 'report.json'];
writeFileSync(join(dir, 'a.wav'), Buffer.from('RIFF....WAVE fake samples'));
writeFileSync(join(dir, 'report.json'), '{"verdict": "pass"}\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function zipHere(): Promise<Buffer> {
  const files: OpenedFile[] = await Promise.all(NAMES.map(async (name) => ({ name, handle: await open(join(dir, name)) })));
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  try {
    await streamFixtureZip(out, 'fixture', files);
  } finally {
    await Promise.all(files.map((f) => f.handle.close()));
  }
  return Buffer.concat(chunks);
}

/** The same zip made by a separate Node process (TypeScript through tsx) under time zone `tz`. */
function zipUnder(tz: string): Promise<Buffer> {
  const entry = resolve('electron/server/fixture-zip.ts');
  const code = `
    const { open } = await import('node:fs/promises');
    const { PassThrough } = await import('node:stream');
    const { streamFixtureZip } = await import(${JSON.stringify(entry)});
    const files = [];
    for (const name of ${JSON.stringify(NAMES)}) files.push({ name, handle: await open(${JSON.stringify(dir)} + '/' + name) });
    const out = new PassThrough();
    const chunks = [];
    out.on('data', (c) => chunks.push(c));
    await streamFixtureZip(out, 'fixture', files);
    process.stdout.write(Buffer.concat(chunks));`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { ...process.env, TZ: tz } });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (status) => (status === 0 ? done(Buffer.concat(out)) : fail(new Error(`TZ=${tz}: exit ${status}: ${err}`))));
  });
}

describe('the fixture zip is the same bytes for the same files', () => {
  it('under any server time zone (a child each under TZ=UTC and TZ=Asia/Kolkata, +05:30)', async () => {
    const [utc, kolkata] = await Promise.all([zipUnder('UTC'), zipUnder('Asia/Kolkata')]);
    expect(utc.length).toBeGreaterThan(0);
    expect(kolkata.equals(utc)).toBe(true);
    expect((await zipHere()).equals(utc)).toBe(true);
  }, 30_000);

  it('whatever the files’ mtimes, every entry dated 1980-01-01 00:00:00 in DOS fields', async () => {
    const before = await zipHere();
    for (const name of NAMES) utimesSync(join(dir, name), new Date('2031-07-04T12:34:56Z'), new Date('2031-07-04T12:34:56Z'));
    expect((await zipHere()).equals(before)).toBe(true);
    // APPNOTE.TXT 4.3.7 local file header: signature 0x04034b50, then at offset 10 the DOS time
    // (hour << 11 | minute << 5 | second / 2) and at 12 the DOS date ((year - 1980) << 9 | month << 5 | day):
    // 00:00:00 -> 0, 1980-01-01 -> (0 << 9) | (1 << 5) | 1 = 33.
    expect(before.readUInt32LE(0)).toBe(0x04034b50);
    expect([before.readUInt16LE(10), before.readUInt16LE(12)]).toEqual([0, 33]);
  });
});
