// A small line-chart writer for the soak part's report: panels of series over time as SVG (axes with ticks and
// labels, a legend per panel), rendered to PNG with resvg (system fonts; DejaVu Sans on the bench machines).
import { Resvg } from '@resvg/resvg-js';

export interface Series {
  name: string;
  /** [x, y] pairs, x ascending; a non-finite y breaks the line. */
  points: [number, number][];
}

export interface Panel {
  title: string;
  yLabel: string;
  /** `log`: powers of ten; values at or below zero are left out. Default linear. */
  yScale?: 'linear' | 'log';
  series: Series[];
}

export interface ChartOptions {
  title?: string;
  xLabel?: string;
  columns?: number;
  panelWidth?: number;
  panelHeight?: number;
}

// Tableau 10: distinct, and readable on white.
const COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
const FONT = 'DejaVu Sans, sans-serif';
const LEGEND_WIDTH = 250;

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A round step (1, 2 or 5 × 10^n) that cuts `range` into about `count` intervals. */
export function niceStep(range: number, count = 5): number {
  if (!(range > 0)) return 1;
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const m = raw / magnitude;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * magnitude;
}

/** Ticks from 0 (or the lowest value, when negative) to the first round number at or above the highest. */
export function ticks(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, min);
  const hi = max > lo ? max : lo + 1;
  const step = niceStep(hi - lo, count);
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step * 0.999; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}

/** Powers of ten around the positive values (1 to 10 when there are none). */
export function logTicks(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min > 0 ? min : 1));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(max > 0 ? max : 10)));
  return Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
}

const label = (v: number) => {
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(Number(v.toPrecision(4)));
};

function panelSvg(
  panel: Panel,
  x0: number,
  y0: number,
  width: number,
  height: number,
  xLabel: string,
): string {
  const left = 70;
  const top = 34;
  const bottom = 48;
  const plotW = width - left - LEGEND_WIDTH - 20;
  const plotH = height - top - bottom;
  const xs = panel.series.flatMap((s) => s.points.map(([x]) => x)).filter(Number.isFinite);
  const log = panel.yScale === 'log';
  // On a log scale a value at or below zero has no place: it breaks the line like a missing one.
  const yOf = (y: number) => (log ? (y > 0 ? Math.log10(y) : Number.NaN) : y);
  const ys = panel.series.flatMap((s) => s.points.map(([, y]) => y)).filter((y) => Number.isFinite(yOf(y)));
  const xTicks = ticks(0, xs.length > 0 ? Math.max(...xs) : 1, 6);
  const yTicks = log
    ? logTicks(ys.length > 0 ? Math.min(...ys) : 1, ys.length > 0 ? Math.max(...ys) : 10)
    : ticks(ys.length > 0 ? Math.min(...ys) : 0, ys.length > 0 ? Math.max(...ys) : 1, 5);
  const [xMin, xMax] = [xTicks[0]!, xTicks.at(-1)!];
  const [yMin, yMax] = [yOf(yTicks[0]!), yOf(yTicks.at(-1)!)];
  const px = (x: number) => x0 + left + ((x - xMin) / (xMax - xMin)) * plotW;
  const py = (y: number) => y0 + top + plotH - ((yOf(y) - yMin) / (yMax - yMin)) * plotH;
  const out: string[] = [];
  out.push(
    `<text x="${x0 + left}" y="${y0 + 20}" font-size="15" font-weight="bold">${xml(panel.title)}</text>`,
  );
  // Grid, ticks and their labels.
  for (const t of yTicks) {
    const y = py(t).toFixed(1);
    out.push(
      `<line x1="${x0 + left}" x2="${x0 + left + plotW}" y1="${y}" y2="${y}" stroke="#e4e4e4"/>`,
      `<text x="${x0 + left - 6}" y="${y}" font-size="11" text-anchor="end" dominant-baseline="middle">${label(t)}</text>`,
    );
  }
  for (const t of xTicks) {
    const x = px(t).toFixed(1);
    out.push(
      `<line x1="${x}" x2="${x}" y1="${y0 + top}" y2="${y0 + top + plotH}" stroke="#f0f0f0"/>`,
      `<line x1="${x}" x2="${x}" y1="${y0 + top + plotH}" y2="${y0 + top + plotH + 5}" stroke="#333"/>`,
      `<text x="${x}" y="${y0 + top + plotH + 18}" font-size="11" text-anchor="middle">${label(t)}</text>`,
    );
  }
  // Axes and their labels.
  out.push(
    `<line x1="${x0 + left}" x2="${x0 + left}" y1="${y0 + top}" y2="${y0 + top + plotH}" stroke="#333"/>`,
    `<line x1="${x0 + left}" x2="${x0 + left + plotW}" y1="${y0 + top + plotH}" y2="${y0 + top + plotH}" stroke="#333"/>`,
    `<text x="${x0 + left + plotW / 2}" y="${y0 + height - 8}" font-size="12" text-anchor="middle">${xml(xLabel)}</text>`,
    `<text transform="translate(${x0 + 16},${y0 + top + plotH / 2}) rotate(-90)" font-size="12" text-anchor="middle">${xml(panel.yLabel)}</text>`,
  );
  // Lines, broken where a value is missing; a lone point is drawn as a dot.
  panel.series.forEach((series, i) => {
    const color = COLORS[i % COLORS.length]!;
    const runs: [number, number][][] = [[]];
    for (const [x, y] of series.points) {
      if (Number.isFinite(x) && Number.isFinite(yOf(y))) runs.at(-1)!.push([x, y]);
      else if (runs.at(-1)!.length > 0) runs.push([]);
    }
    for (const run of runs) {
      if (run.length === 1)
        out.push(
          `<circle cx="${px(run[0]![0]).toFixed(1)}" cy="${py(run[0]![1]).toFixed(1)}" r="2" fill="${color}"/>`,
        );
      else if (run.length > 1)
        out.push(
          `<polyline fill="none" stroke="${color}" stroke-width="1.8" stroke-linejoin="round" points="${run
            .map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`)
            .join(' ')}"/>`,
        );
    }
    // Legend entry, at the right of the plot.
    const lx = x0 + left + plotW + 16;
    const ly = y0 + top + 8 + i * 18;
    const name = series.name.length > 34 ? `${series.name.slice(0, 33)}…` : series.name;
    out.push(
      `<line x1="${lx}" x2="${lx + 18}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>`,
      `<text x="${lx + 24}" y="${ly}" font-size="11" dominant-baseline="middle">${xml(name)}</text>`,
    );
  });
  return out.join('\n');
}

/** Panels in a grid (`columns` wide), each with its own y axis and legend, sharing the x label. */
export function chartSvg(panels: Panel[], options: ChartOptions = {}): string {
  const columns = options.columns ?? 2;
  const w = options.panelWidth ?? 800;
  const h = options.panelHeight ?? 400;
  const titleH = options.title ? 36 : 0;
  const rows = Math.ceil(panels.length / columns);
  const width = columns * w;
  const height = titleH + rows * h;
  const body = panels.map((panel, i) =>
    panelSvg(
      panel,
      (i % columns) * w,
      titleH + Math.floor(i / columns) * h,
      w,
      h,
      options.xLabel ?? 'minutes',
    ),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" fill="#222">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    options.title
      ? `<text x="${width / 2}" y="24" font-size="17" font-weight="bold" text-anchor="middle">${xml(options.title)}</text>`
      : '',
    ...body,
    '</svg>',
  ].join('\n');
}

/** The SVG as PNG, at its own size, with the machine's fonts. */
export function renderPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    background: '#ffffff',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
