import fs from 'node:fs';
import type { Machine } from './machine';
import { spread } from './stats';

/** The goal a figure aims at (printed and recorded, never asserted). */
export interface Target {
  op: '>=' | '<=';
  value: number;
}

/** One measured quantity: its value in each run. */
export interface Figure {
  name: string;
  unit: string;
  runs: number[];
  target?: Target;
  /** Why the target cannot be met, from what the same run measured; printed under the table when missed. */
  why?: string;
}

export interface Section {
  title: string;
  /** What the reader needs to interpret the figures: sizes, rates, settings. */
  setup: string;
  figures: Figure[];
}

function meets(value: number, target: Target): boolean {
  return target.op === '>=' ? value >= target.value : value <= target.value;
}

function formatNumber(value: number): string {
  const abs = Math.abs(value);
  const fractionDigits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
}

function formatTarget(target: Target | undefined): string {
  return target ? `${target.op === '>=' ? '≥' : '≤'} ${formatNumber(target.value)}` : '';
}

const MISSED_WITH_REASON = 'NO, why:';

function verdictOf(figure: Figure): string {
  if (!figure.target) return '';
  if (meets(spread(figure.runs).median, figure.target)) return 'yes';
  return figure.why === undefined ? 'NO' : MISSED_WITH_REASON;
}

function row(figure: Figure): string[] {
  const { median, min, max } = spread(figure.runs);
  return [
    figure.name,
    figure.unit,
    formatNumber(median),
    formatNumber(min),
    formatNumber(max),
    formatTarget(figure.target),
    verdictOf(figure),
  ];
}

const HEADER = ['measure', 'unit', 'median', 'min', 'max', 'target', 'met'];
const NUMERIC_COLUMNS = new Set([2, 3, 4]);

/** A plain-text table: a header, then each section's title, setup and figures. */
export function renderTable(sections: Section[]): string {
  const rows = sections.flatMap((section) => section.figures.map(row));
  const widths = HEADER.map((title, column) => Math.max(title.length, ...rows.map((r) => r[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        NUMERIC_COLUMNS.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const out = [line(HEADER)];
  for (const section of sections) {
    out.push(
      '',
      `${section.title} (${section.setup})`,
      ...section.figures.map((figure) => line(row(figure))),
      ...section.figures.flatMap((figure) =>
        verdictOf(figure) === MISSED_WITH_REASON ? [`  why: ${figure.name}: ${figure.why}`] : [],
      ),
    );
  }
  return out.join('\n');
}

export function describeMachineLine(machine: Machine): string {
  return [
    `${machine.cores} × ${machine.cpu}, ${machine.memoryGiB} GiB, ${machine.os}`,
    `node ${machine.node}, postgres ${machine.postgres}, redis ${machine.redis}`,
    `load average at start ${machine.loadAverage.join(' / ')}`,
  ].join('\n');
}

export function writeResults(
  file: string,
  results: { machine: Machine; startedAt: Date; durationSeconds: number; runs: number; sections: Section[] },
): void {
  const sections = results.sections.map((section) => ({
    ...section,
    figures: section.figures.map((figure) => ({
      ...figure,
      ...spread(figure.runs),
      met: figure.target ? meets(spread(figure.runs).median, figure.target) : undefined,
    })),
  }));
  fs.writeFileSync(file, `${JSON.stringify({ ...results, sections }, null, 2)}\n`);
}
