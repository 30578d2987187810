/** One line of the benchmark table: the service's figure beside the baseline's, measured in the same run. */
export interface BenchRow {
  case: string;
  measure: string;
  unit: "req/s" | "ms" | "µs" | "MB";
  service: number;
  baseline: number | null;
  /** What the baseline was, in a few words. */
  baselineName: string;
  /** For throughput, ratio ≥ minimum; for times and sizes, service value ≤ maximum. */
  target?: { minimumRatio?: number; maximum?: number };
}

export function ratioOf(row: BenchRow): number | null {
  return row.baseline === null || row.baseline === 0 ? null : row.service / row.baseline;
}

export function meetsTarget(row: BenchRow): boolean | null {
  if (!row.target) return null;
  const ratio = ratioOf(row);
  if (row.target.minimumRatio !== undefined && (ratio === null || ratio < row.target.minimumRatio))
    return false;
  if (row.target.maximum !== undefined && row.service > row.target.maximum) return false;
  return true;
}

function figure(value: number | null, unit: BenchRow["unit"]): string {
  if (value === null || Number.isNaN(value)) return "—";
  const digits = unit === "req/s" || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

function targetText(row: BenchRow): string {
  if (!row.target) return "";
  const parts: string[] = [];
  if (row.target.minimumRatio !== undefined) parts.push(`ratio ≥ ${row.target.minimumRatio}`);
  if (row.target.maximum !== undefined) parts.push(`≤ ${row.target.maximum} ${row.unit}`);
  const met = meetsTarget(row);
  return `${parts.join(", ")} ${met ? "✓" : "✗"}`;
}

function cells(row: BenchRow): string[] {
  const ratio = ratioOf(row);
  return [
    row.case,
    row.measure,
    figure(row.service, row.unit),
    row.baseline === null ? "—" : `${figure(row.baseline, row.unit)} (${row.baselineName})`,
    ratio === null ? "—" : `${ratio.toFixed(2)}×`,
    targetText(row),
  ];
}

const headings = ["case", "measure", "service", "baseline", "service ÷ baseline", "target"];

export function formatTable(rows: readonly BenchRow[]): string {
  const table = [headings, ...rows.map(cells)];
  const widths = headings.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
  const line = (values: string[]) => values.map((value, column) => value.padEnd(widths[column]!)).join("  ");
  return [
    line(headings),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...rows.map((row) => line(cells(row))),
  ].join("\n");
}

export function formatMarkdown(rows: readonly BenchRow[]): string {
  const escape = (value: string) => value.replaceAll("|", "\\|");
  return [
    `| ${headings.join(" | ")} |`,
    `| ${headings.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${cells(row).map(escape).join(" | ")} |`),
  ].join("\n");
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
