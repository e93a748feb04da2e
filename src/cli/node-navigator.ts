// pg asks at load whether it runs in a Cloudflare Worker. Without a global `navigator` (Node before 21)
// it builds a `Response` to find out, and that first touch loads Node's whole fetch implementation: a
// tenth of the CLI's time in `report subscribers` (docs/performance.md). Node 21 and later define
// `navigator` themselves, with this user agent; there this does nothing.
if (!('navigator' in globalThis)) {
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: `Node.js/${process.versions.node.split('.')[0]}` },
    configurable: true,
    writable: true,
  });
}

export {};
