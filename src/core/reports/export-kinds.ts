/** What `exportTable` exports; apart, so that the CLI names them without loading the reports. */
export const EXPORTS = ['revenue', 'orders', 'subscribers'] as const;
export type ExportKind = (typeof EXPORTS)[number];
