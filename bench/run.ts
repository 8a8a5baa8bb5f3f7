/**
 * `npm run bench`: prints a markdown table per benchmark and writes every
 * figure to bench/results/latest.json. Benchmarks report; they never fail.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchGenerate } from './generate.js';
import { benchValidators } from './validators.js';

const root = process.cwd();

function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30) };
console.log(`Machine: Node ${machine.node}, ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB\n`);

process.stderr.write('generation...\n');
const generation = benchGenerate(root);
console.log('## Generation (median of 5 runs, wall time)\n');
console.log(table(['run', 'median ms', 'runs ms'], generation.map((r) => [r.name, Math.round(r.medianMs), r.runs.map(Math.round).join(', ')])));

process.stderr.write('validators...\n');
const validators = await benchValidators({ root });
console.log('\n## Validators: generated vs ajv on the spec examples\n');
console.log(table(['case', 'ops/s', 'ratio vs ajv'], validators.map((r) => [r.name, Math.round(r.opsPerSec).toLocaleString('en-US'), r.ratioVsAjv.toFixed(2)])));

mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify({ machine, generation, validators }, null, 2)}\n`);
console.log('\nWrote bench/results/latest.json');
