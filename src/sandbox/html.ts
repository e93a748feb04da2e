const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

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
body { font-family: system-ui, sans-serif; background: #f2f3f5; display: grid; place-items: center; min-height: 100vh; margin: 0; }
main { background: #fff; border-radius: 8px; padding: 2rem; max-width: 26rem; box-shadow: 0 2px 10px #0002; }
button { font: inherit; padding: 0.6rem 1.4rem; border-radius: 4px; border: 0; cursor: pointer; margin-right: 0.5rem; }
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
