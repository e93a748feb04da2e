import { zipSync } from 'fflate';

/** ZIP's epoch: every entry carries it, so an archive of the same files is the same bytes. */
const ZIP_EPOCH = new Date(1980, 0, 1);

/** A ZIP archive of a few small files held in memory (the console's GSTR-1 download), each deflated. */
export function zipFiles(files: { name: string; content: string | Buffer }[]): Buffer {
  const entries = Object.fromEntries(
    files.map((file) => [
      file.name,
      Buffer.isBuffer(file.content) ? new Uint8Array(file.content) : new TextEncoder().encode(file.content),
    ]),
  );
  return Buffer.from(zipSync(entries, { level: 6, mtime: ZIP_EPOCH }));
}
