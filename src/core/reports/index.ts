/**
 * The seller's figures (revenue, subscribers, failing charges, open disputes), each one readable SQL query
 * over PostgreSQL; docs/reports.md lists them. Used by the CLI's `premium report …`, the console and the
 * worker's business metrics.
 */
export { revenueReport } from './revenue';
export { subscribersReport } from './subscribers';
export { openDisputes } from './disputes';
export type * from './types';
export { recentSales } from './sales';
export { customers } from './customers';
export { exportTable, type Export } from './exports';
export { EXPORTS, type ExportKind } from './export-kinds';
