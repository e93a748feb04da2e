import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RESPONSE_LIMIT } from '../../core/outgoing-webhooks';

export type PostAnswer = { status: number; response: string } | { status: null; error: string };

/**
 * POSTs `body` to `url`, connecting to `address` (resolved and checked by the caller: no second
 * lookup), within `timeoutMs`. Redirects are answers like any other (never followed); at most
 * RESPONSE_LIMIT bytes of the answer are read.
 */
export function postTo(
  url: URL,
  address: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostAnswer> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [address] as never);
    else callback(null, address.address, address.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, {
      method: 'POST',
      lookup,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: null, error: error.message });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          response: Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT).toString(),
        });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_LIMIT) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(body);
  });
}
