// Loads the real ui/index.html into this page (its <head> links and <body>) and then the real app
// modules, so ui/ itself never mentions the mock. Serve the repository, from the repository root:
//   python3 -m http.server -d . 8765  →  http://localhost:8765/ui-dev/index.html

const page = new URL('../ui/index.html', import.meta.url);
const response = await fetch(page);
if (!response.ok) throw new Error(`cannot load ${page}: ${response.status}`);
const parsed = new DOMParser().parseFromString(await response.text(), 'text/html');

for (const link of parsed.head.querySelectorAll('link[rel="stylesheet"]')) {
  const copy = document.createElement('link');
  copy.rel = 'stylesheet';
  copy.href = new URL(link.getAttribute('href'), page).href;
  if (link.media) copy.media = link.media;
  document.head.append(copy);
}
for (const meta of parsed.head.querySelectorAll('meta[name="color-scheme"]')) document.head.append(document.importNode(meta, true));
for (const node of [...parsed.body.childNodes]) {
  if (node.nodeName === 'SCRIPT') continue;
  document.body.append(document.importNode(node, true));
}
document.documentElement.lang = parsed.documentElement.lang;

const entry = parsed.head.querySelector('script[type="module"]');
await import(new URL(entry.getAttribute('src'), page).href);
