const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `2026-12-24 21:21 UTC`, as the demo page writes times. */
export function friendlyTime(seconds: number | null): string {
  return seconds === null
    ? '-'
    : `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A whole page around `body`, which must already be escaped. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<link rel="icon" href="data:,">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; background: #f2f3f5; display: grid; place-items: center; min-height: 100vh; margin: 0; padding: 1rem; box-sizing: border-box; }
main { background: #fff; border-radius: 8px; padding: 1.5rem; max-width: 26rem; width: 100%; box-sizing: border-box; box-shadow: 0 2px 10px #0002; overflow-wrap: anywhere; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; }
form p { flex-basis: 100%; }
button { font: inherit; padding: 0.6rem 1.4rem; border-radius: 4px; border: 0; cursor: pointer; flex: 1 1 10rem; }
button.primary { background: #5865f2; color: #fff; }
.note { color: #666; font-size: 0.85rem; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}
