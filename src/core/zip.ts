import zlib from 'node:zlib';

/**
 * A ZIP archive of a few small files held in memory (the console's GSTR-1 download): each deflated, with
 * its CRC-32, local headers, the central directory and its end record (APPNOTE 6.3, no ZIP64: the files
 * are CSVs of a month, far below 4 GB). Times are written as 1 January 1980, ZIP's epoch, so an archive of
 * the same files is the same bytes.
 */
export function zipFiles(files: { name: string; content: string | Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const data = Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content, 'utf8');
    const deflated = zlib.deflateRawSync(data);
    const name = Buffer.from(file.name, 'utf8');
    const crc = zlib.crc32(data);
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed: 2.0 (deflate)
      header.writeUInt16LE(0x0800, at + 2); // names in UTF-8
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt16LE(0, at + 6); // 00:00
      header.writeUInt16LE(0x21, at + 8); // 1980-01-01
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(deflated.length, at + 14);
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    locals.push(local, name, deflated);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    common(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
