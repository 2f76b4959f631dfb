// Drives ui/ (with the mock back end) in headless Chromium as a user would, checks what it shows,
// and saves screenshots to ui-dev/shots/. Prints "N passed, N failed" and exits 1 on any failure.
//
//   apt-get install -y chromium      # Debian's Chromium; no browser download
//   cd ui-dev && npm install && node check.mjs
//
// It serves the repository itself on a free localhost port, so no other server is needed.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = normalize(join(here, '..'));
const shots = join(here, 'shots');
mkdirSync(shots, { recursive: true });

let passed = 0;
let failed = 0;
function expect(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? ` — ${detail}` : ''}`);
}

// ---- static checks of ui/ -------------------------------------------------------------------------

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
const uiFiles = filesUnder(join(root, 'ui')).filter((p) => /\.(js|html|css)$/.test(p));
for (const file of uiFiles) {
  const text = readFileSync(file, 'utf8');
  const name = relative(root, file);
  if (file.endsWith('.js')) {
    expect(`${name}: no HTML parsing APIs`, !/\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write)\b/.test(text));
    expect(`${name}: no eval`, !/\beval\s*\(|new\s+Function\s*\(|setTimeout\(\s*['"`]/.test(text));
    if (!file.endsWith(join('js', 'api.js'))) expect(`${name}: no __TAURI__`, !text.includes('__TAURI__'));
    expect(`${name}: no setAttribute('style')`, !/setAttribute\(\s*['"]style['"]/.test(text));
  }
  if (file.endsWith('.html')) {
    expect(`${name}: no inline style attributes`, !/\sstyle\s*=/.test(text));
    expect(`${name}: no inline scripts`, !/<script(?![^>]*\bsrc=)[^>]*>/.test(text));
    expect(`${name}: no inline event handlers`, !/\son[a-z]+\s*=/.test(text));
  }
  expect(`${name}: nothing remote`, !/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}\//i.test(text.replace(/https:\/\/schema\.tauri\.app[^"]*/g, '')));
}

// ---- a static server for the repository -------------------------------------------------------------

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.json': 'application/json' };
const server = createServer((req, res) => {
  const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  if (!path.startsWith(root) || !existsSync(path) || statSync(path).isDirectory()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  res.end(readFileSync(path));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

// ---- the browser ----------------------------------------------------------------------------------

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

async function openPage({ query = '', width = 1280, height = 800, path = '/ui-dev/index.html', locale = 'en-US', loaded = true } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale });
  const page = await context.newPage();
  page.problems = [];
  page.dialogs = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') page.problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    page.dialogs.push(d.message());
    d.dismiss();
  });
  await page.goto(`${base}${path}${query}`);
  if (loaded) await page.waitForSelector('body.loaded');
  return page;
}

const text = (page, selector) => page.$eval(selector, (n) => n.textContent);
const visible = (page, selector) => page.isVisible(selector);
const count = (page, selector) => page.$$eval(selector, (n) => n.length);
const mockCalls = (page, command) => page.evaluate((c) => window.__mock.calls.filter((x) => x.command === c).map((x) => x.args?.threshold ?? null), command);
async function setRange(page, selector, value) {
  await page.$eval(selector, (input, v) => {
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}
async function idle(page) {
  await page.waitForFunction(() => document.getElementById('progress').hidden && !document.getElementById('report').hasAttribute('aria-busy'));
  await page.waitForTimeout(60);
}

// ---- first start, the sample, the report, the comparison --------------------------------------------

{
  const page = await openPage({ query: '?empty=1' });
  expect('first start: empty library shown', await visible(page, '#library-empty'));
  expect('first start: empty text', (await text(page, '#library-empty')).includes('Your library is empty'));
  expect('first start: table hidden', !(await visible(page, '#library-table')));
  expect('first start: #try-sample visible', await visible(page, '#try-sample'));
  await page.screenshot({ path: join(shots, 'library-empty-1280.png') });

  await page.click('#tab-check');
  expect('check tab: empty state mentions empty library', (await text(page, '#check-empty-body')).includes('library is empty'));
  await page.click('#tab-library');

  await page.click('#try-sample');
  await page.waitForSelector('#progress:not([hidden])', { timeout: 2000 });
  expect('sample: progress shown', await visible(page, '#progress-bar'));
  await page.waitForSelector('#report:not([hidden])', { timeout: 5000 });
  await idle(page);
  expect('sample: switched to the check tab', (await page.getAttribute('#tab-check', 'aria-selected')) === 'true');
  const ratio = await text(page, '#report-ratio');
  expect('report: ratio like 60.0%', /^\d{1,3}\.\d%$/.test(ratio) && ratio === '60.0%', ratio);
  expect('report: largest source', (await text(page, '#report-largest')) === '35.6%');
  expect('report: 4 paragraphs', (await count(page, '#paragraphs .para[data-index]')) === 4);
  expect('report: 3 flagged', (await count(page, '#paragraphs .para.flagged')) === 3);
  const share0 = await page.$eval('.para[data-index="0"]', (n) => n.style.getPropertyValue('--share'));
  expect('report: --share on a paragraph', Math.abs(Number(share0) - 62 / 74) < 0.001, share0);
  expect('report: unflagged paragraph has no colour', (await page.$eval('.para[data-index="1"]', (n) => n.style.getPropertyValue('--share'))) === '0.0000');
  const mark0 = await page.$$eval('.para[data-index="0"] mark', (n) => n.map((m) => m.textContent));
  expect('report: Chinese span highlighted exactly', mark0.length === 1 && mark0[0] === '节水行动是从去年秋天开始试行的。学校在每栋宿舍楼都安装了智能水表，后勤处每周公布各个楼层的用水数据，用水量下降明显的楼层会在', mark0.join('|'));
  const sources = await page.$$eval('#sources li', (n) => n.map((li) => li.querySelector('.source-title').textContent));
  expect('report: sources ranked', sources.join(',') === 'night-sky,campus-water,reading-club', sources.join(','));
  expect('report: threshold from the report', (await page.inputValue('#threshold')) === '0.3' && (await text(page, '#threshold-value')) === '30%');
  expect('report: no document selector for one document', !(await visible(page, '#report-document')));
  await page.screenshot({ path: join(shots, 'report-1280.png') });
  await page.screenshot({ path: join(shots, 'report-1280-full.png'), fullPage: true });

  // threshold: debounced re-filter through `report`, no new check
  const checksBefore = (await mockCalls(page, 'demo')).length + (await mockCalls(page, 'check')).length;
  await setRange(page, '#threshold', 0.5);
  await page.waitForTimeout(20);
  await setRange(page, '#threshold', 0.6);
  await page.waitForTimeout(20);
  await setRange(page, '#threshold', 0.2);
  expect('threshold: label follows at once', (await text(page, '#threshold-value')) === '20%');
  await page.waitForFunction(() => document.getElementById('report-ratio').textContent !== '60.0%');
  await idle(page);
  const reports = await mockCalls(page, 'report');
  expect('threshold: debounced to one report call', reports.length === 1 && reports[0] === 0.2, JSON.stringify(reports));
  expect('threshold: re-filtered ratio', (await text(page, '#report-ratio')) === '74.6%', await text(page, '#report-ratio'));
  expect('threshold: lower threshold adds a match', (await count(page, '.para[data-index="2"] .para-sources li')) === 2);
  expect('threshold: no new check', (await mockCalls(page, 'demo')).length + (await mockCalls(page, 'check')).length === checksBefore);
  await setRange(page, '#threshold', 0.75);
  await page.waitForFunction(() => document.querySelectorAll('.para.flagged').length === 1);
  await idle(page);
  expect('threshold: 75% leaves one flagged paragraph', (await count(page, '.para.flagged')) === 1);
  await setRange(page, '#threshold', 0.3);
  await page.waitForFunction(() => document.querySelectorAll('.para.flagged').length === 3);
  await idle(page);

  // comparison
  await page.click('.para[data-index="0"]');
  await page.waitForSelector('#compare:not([hidden])');
  expect('compare: opens on click', (await page.getAttribute('#compare', 'data-index')) === '0');
  expect('compare: submission marked', (await count(page, '#compare-submission mark')) === 1);
  expect('compare: source marked', (await text(page, '#compare-source mark')).startsWith('节水行动从去年秋季开始试行'));
  expect('compare: title and similarity', (await text(page, '#compare-source .match-meta')).includes('83.8%'));
  await page.mouse.move(5, 700);
  await page.screenshot({ path: join(shots, 'compare-1280.png') });
  await page.keyboard.press('j');
  expect('compare: j → next flagged', (await page.getAttribute('#compare', 'data-index')) === '2');
  await page.keyboard.press('ArrowDown');
  expect('compare: ArrowDown → next flagged', (await page.getAttribute('#compare', 'data-index')) === '3');
  expect('compare: next disabled at the end', await page.isDisabled('#compare-next'));
  await page.keyboard.press('j');
  expect('compare: j at the end stays', (await page.getAttribute('#compare', 'data-index')) === '3');
  await page.keyboard.press('k');
  expect('compare: k → previous', (await page.getAttribute('#compare', 'data-index')) === '2');
  await page.keyboard.press('ArrowUp');
  expect('compare: ArrowUp → previous', (await page.getAttribute('#compare', 'data-index')) === '0');
  await page.click('#compare-next');
  expect('compare: next button', (await page.getAttribute('#compare', 'data-index')) === '2');
  await page.click('#compare-prev');
  expect('compare: prev button', (await page.getAttribute('#compare', 'data-index')) === '0');
  await page.keyboard.press('Escape');
  expect('compare: Esc closes', !(await visible(page, '#compare')));
  expect('compare: focus back on the paragraph', await page.evaluate(() => document.activeElement?.id === 'para-0'));
  await page.keyboard.press('j');
  expect('report: j focuses the next flagged paragraph', await page.evaluate(() => document.activeElement?.id === 'para-2'));
  await page.keyboard.press('Enter');
  expect('report: Enter opens it', (await page.getAttribute('#compare', 'data-index')) === '2');
  await page.click('#compare-close');
  await page.click('.para[data-index="3"]');
  expect('compare: page behind is inert', await page.$eval('main', (m) => m.inert));
  await page.click('#tab-library');
  expect('compare: closed by leaving the tab', !(await visible(page, '#compare')) && !(await page.$eval('main', (m) => m.inert)));
  await page.click('#tab-check');

  // source click jumps to its first paragraph
  await page.click('#sources li:first-child .source-button');
  expect('sources: click opens its paragraph', (await page.getAttribute('#compare', 'data-index')) === '2');
  await page.keyboard.press('Escape');

  // export and print
  await page.click('#export-html');
  await page.waitForFunction(() => window.__mock.exported.length === 1);
  const exported = await page.evaluate(() => window.__mock.exported[0]);
  expect('export: save dialog then export_html', exported.path.endsWith('student-essay-tongwen.html') && exported.threshold === 0.3, JSON.stringify(exported));
  expect('export: in the interface language (en)', exported.lang === 'en', JSON.stringify(exported));
  expect('export: status shown', (await text(page, '#status')).includes('student-essay-tongwen.html'));
  await page.evaluate(() => { window.__mock.nextSave = null; });
  await page.click('#export-html');
  await page.waitForTimeout(150);
  expect('export: cancelled save dialog writes nothing', (await page.evaluate(() => window.__mock.exported.length)) === 1);

  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: join(shots, 'print-preview.png'), fullPage: true });
  expect('print: header hidden', !(await visible(page, '.app-header')));
  expect('print: slider hidden, value shown', !(await visible(page, '#threshold')) && (await visible(page, '#threshold-value')));
  await page.pdf({ path: join(shots, 'report.pdf'), format: 'A4', printBackground: true });
  await page.emulateMedia({ media: 'screen' });
  try {
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', join(shots, 'report.pdf'), join(shots, 'print-page')]);
  } catch {
    console.log('(pdftoppm not installed: print page not rendered to PNG)');
  }

  // errors from Rust go to the banner
  await page.evaluate(() =>
    window.__mock.failNext('report', {
      code: 'library',
      kind: 'library_database',
      path: '/home/user/.local/share/tongwen/library.sqlite',
      message: 'library database /home/user/.local/share/tongwen/library.sqlite: database is locked',
      params: { detail: 'database is locked' },
    }),
  );
  await setRange(page, '#threshold', 0.4);
  await page.waitForSelector('#error:not([hidden])');
  expect('error: banner says the kind with file and params', (await text(page, '#error-message')) === '/home/user/.local/share/tongwen/library.sqlite: the library database failed (database is locked)', await text(page, '#error-message'));
  expect('error: banner title for the code', (await text(page, '#error-title')) === 'The library could not be used');
  expect('error: data-code and data-kind', (await page.getAttribute('#error', 'data-code')) === 'library' && (await page.getAttribute('#error', 'data-kind')) === 'library_database');
  expect('error: no action for this kind', !(await visible(page, '#error-action')));
  await page.screenshot({ path: join(shots, 'error-banner.png') });
  await page.click('#error-close');
  expect('error: dismissed', !(await visible(page, '#error')));

  expect('first start run: no console errors', page.problems.length === 0, page.problems.join(' | '));
  expect('first start run: no dialogs', page.dialogs.length === 0, page.dialogs.join(' | '));
  await page.context().close();
}

// ---- library management --------------------------------------------------------------------------

{
  const page = await openPage({ query: '?empty=1&step=30' });
  await page.click('#try-sample');
  await page.waitForSelector('#report:not([hidden])');
  await idle(page);
  await page.click('#tab-library');
  expect('library: demo documents listed', (await count(page, '#library-table tbody tr[data-id]')) === 3);

  await page.click('#library-add-folder');
  await page.waitForSelector('#progress:not([hidden])');
  await page.waitForFunction(() => document.getElementById('progress-count').textContent.includes('of'));
  await page.waitForFunction(() => Number(document.getElementById('progress-bar').getAttribute('aria-valuenow')) >= 5);
  const fill = await page.$eval('#progress-fill', (n) => n.getBoundingClientRect().width);
  expect('progress: bar fills with done/total', fill > 10, String(fill));
  await page.screenshot({ path: join(shots, 'library-progress.png') });
  await idle(page);
  const rows = await count(page, '#library-table tbody tr[data-id]');
  expect('add folder: documents added', rows === 39, String(rows));
  expect('add folder: failures listed', (await count(page, '#failures li')) === 3);
  const failure = await page.$eval('#failures li[data-path$="notes>.txt"]', (li) => li.textContent);
  expect('add folder: failure path and reason shown literally', failure.includes('empty <notes>.txt') && failure.includes('the file is empty'), failure);
  const docxReason = await text(page, '#failures li[data-path$="locked.docx"] .failure-reason');
  expect('add folder: reason from kind and params', docxReason === 'the Word document is damaged (invalid Zip archive: Could not find central directory end)', docxReason);
  expect('add folder: duplicates reported', (await count(page, '#present li')) === 1);
  expect('add folder: summary', (await text(page, '#import-summary')).startsWith('Added 36 documents'), await text(page, '#import-summary'));
  const title4 = await page.$eval('tr[data-id="4"] .doc-title', (n) => ({ text: n.textContent, html: n.children.length }));
  expect('library: HTML in a title stays text', title4.text === 'Web safety <em>style</em> guide' && title4.html === 0);
  await page.screenshot({ path: join(shots, 'library-1280.png') });

  await page.fill('#library-filter', 'night');
  expect('filter: by name', (await count(page, '#library-table tbody tr')) === 1);
  await page.fill('#library-filter', '池塘');
  expect('filter: Chinese name', (await count(page, '#library-table tbody tr')) === 1);
  await page.fill('#library-filter', 'zzz');
  expect('filter: no match message', await visible(page, '#library-no-match'));
  await page.fill('#library-filter', '');

  await page.click('#library-sort-title');
  const firstTitle = await page.$eval('#library-table tbody tr .doc-title', (n) => n.textContent);
  expect('sort: by title', firstTitle === 'Astronomy club minutes', firstTitle);

  await page.check('tr[data-id="6"] input[type="checkbox"]');
  await page.click('tr[data-id="5"] .doc-title');
  expect('select: row click selects', (await page.getAttribute('tr[data-id="5"]', 'aria-selected')) === 'true');
  expect('remove: button shows the count', (await text(page, '#library-remove')).includes('2'));
  await page.click('#library-remove');
  await page.waitForSelector('#confirm[open]');
  await page.screenshot({ path: join(shots, 'confirm.png') });
  await page.keyboard.press('Escape');
  expect('remove: Esc keeps the documents', (await count(page, 'tr[data-id="6"]')) === 1);
  await page.click('#library-remove');
  await page.click('#confirm-ok');
  await page.waitForFunction(() => !document.querySelector('tr[data-id="6"]'));
  expect('remove: confirmed removal', (await count(page, '#library-table tbody tr[data-id]')) === 37);

  await page.evaluate(() => { window.__mock.nextPick = ['/home/user/big-folder']; });
  await page.click('#library-add-folder');
  await page.waitForFunction(() => /^[3-9] of/.test(document.getElementById('progress-count').textContent));
  await page.click('#progress-cancel');
  await idle(page);
  expect('cancel: import stopped and said so', (await text(page, '#import-summary')).includes('cancelled'), await text(page, '#import-summary'));
  expect('cancel: partial import kept', (await count(page, '#library-table tbody tr[data-id]')) < 37 + 24);

  // drag and drop onto the window
  await page.evaluate(() => window.__mock.dragEnter(['/home/user/x.docx']));
  expect('drop: overlay on enter', (await visible(page, '#drop-overlay')) && (await text(page, '#drop-overlay-text')).includes('library'));
  await page.screenshot({ path: join(shots, 'drop-overlay.png') });
  await page.evaluate(() => window.__mock.dragLeave());
  expect('drop: overlay hidden on leave', !(await visible(page, '#drop-overlay')));
  const before = await count(page, '#library-table tbody tr[data-id]');
  await page.evaluate(() => window.__mock.drop(['/home/user/dropped/thesis.docx', '/home/user/dropped/old.doc']));
  await page.waitForFunction((n) => document.querySelectorAll('#library-table tbody tr[data-id]').length === n + 1, before);
  await idle(page);
  expect('drop: on the library adds', (await count(page, '#failures li')) === 1);

  await page.setViewportSize({ width: 1024, height: 640 });
  await page.screenshot({ path: join(shots, 'library-1024.png') });

  expect('library run: no console errors', page.problems.length === 0, page.problems.join(' | '));
  await page.context().close();
}

// ---- several submissions, hostile text, settings and language ---------------------------------------

{
  const page = await openPage({ query: '?lang=en' });
  expect('populated start: table shown', (await count(page, '#library-table tbody tr[data-id]')) > 30);
  await page.click('#tab-check');
  await page.click('#check-pick');
  await page.waitForSelector('#report:not([hidden])');
  await idle(page);
  expect('several: document selector', (await visible(page, '#report-document')) && (await count(page, '#report-document option')) === 3);
  expect('several: unreadable submission listed', (await count(page, '#check-failures li')) === 1);
  expect('several: unreadable submission reason from error_info', (await text(page, '#check-failures li .failure-reason')) === 'the PDF has no text layer (a scanned document?); Tongwen does not do OCR', await text(page, '#check-failures li .failure-reason'));
  expect('several: path with HTML shown as text', (await page.$$eval('#report-document option', (o) => o.map((x) => x.textContent))).some((t) => t.includes('essay-2 <img src=x onerror=alert(2)>.txt')));

  await page.selectOption('#report-document', '1');
  await page.waitForFunction(() => document.getElementById('report-file').textContent.includes('essay-2'));
  const para0 = await page.$eval('.para[data-index="0"] .para-text', (n) => n.textContent);
  expect('xss: <img> shown literally', para0.includes('<img src=x onerror=alert(1)>'));
  expect('xss: <script> shown literally', para0.includes('<script>alert("xss")</script>'));
  expect('xss: no elements injected', (await count(page, '#report img, #report script, #report b, #report em, #compare img, #compare script')) === 0);
  const passage = '<img src=x onerror=alert(1)> and <script>alert("xss")</script> must always be shown as text and never run, because a document is data, not code.';
  expect('utf16: span after an emoji is exact', (await text(page, '.para[data-index="0"] mark')) === passage, await text(page, '.para[data-index="0"] mark'));
  expect('utf16: Chinese span after an emoji is exact', (await text(page, '.para[data-index="1"] mark')) === '池塘的溶解氧含量在雨后明显升高，而浊度在连续晴天后逐渐下降，这说明降雨对池塘水体有明显的补充作用。');
  expect('xss: source title literal', (await page.$$eval('#sources .source-title', (n) => n.map((x) => x.textContent))).includes('Web safety <em>style</em> guide'));
  await page.screenshot({ path: join(shots, 'report-xss-1280.png') });
  await page.click('.para[data-index="0"]');
  await page.waitForSelector('#compare:not([hidden])');
  expect('xss: compare source mark exact', (await text(page, '#compare-source mark')) === passage);
  await page.mouse.move(5, 700);
  await page.screenshot({ path: join(shots, 'compare-xss-1280.png') });
  await page.keyboard.press('Escape');

  // several matches per paragraph: choose which source is marked
  await setRange(page, '#threshold', 0.2);
  await page.waitForFunction(() => document.querySelectorAll('.para[data-index="3"] .para-sources li').length === 2);
  await idle(page);
  await page.click('.para[data-index="3"] .para-open');
  await page.waitForSelector('#compare:not([hidden])');
  expect('compare: two sources beside the paragraph', (await count(page, '#compare-source .match')) === 2);
  const firstMark = await text(page, '#compare-submission mark');
  await page.click('#compare-source .match:nth-child(2) .match-head');
  const secondMark = await text(page, '#compare-submission mark');
  expect('compare: choosing a source re-marks the submission', firstMark !== secondMark && secondMark.length > 0, `${firstMark} / ${secondMark}`);
  await page.hover('#compare-submission mark');
  expect('compare: hovering pairs the passages', (await count(page, '#compare mark.paired')) === 2);
  await page.mouse.move(5, 700);
  await page.screenshot({ path: join(shots, 'compare-two-sources-1280.png') });
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.screenshot({ path: join(shots, 'compare-1024.png') });
  await page.keyboard.press('Escape');
  await page.screenshot({ path: join(shots, 'report-1024.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // a failed check
  await page.evaluate(() =>
    window.__mock.failNext('check', {
      code: 'bad_input',
      kind: 'encrypted_pdf',
      path: '/home/user/essay.pdf',
      message: '/home/user/essay.pdf: the PDF is encrypted with a password; remove the password and try again',
      params: {},
    }),
  );
  await page.evaluate(() => window.__mock.drop(['/home/user/essay.pdf']));
  await page.waitForSelector('#error:not([hidden])');
  expect('drop on check: checks, error shown', (await text(page, '#error-message')) === '/home/user/essay.pdf: the PDF is protected by a password; remove the password and try again', await text(page, '#error-message'));
  expect('drop on check: title for bad_input', (await text(page, '#error-title')) === 'A file could not be read');
  await page.click('#error-close');

  // settings: language, default threshold, library location
  await page.click('#tab-settings');
  expect('settings: shows stored values', (await page.inputValue('#settings-library-path')).endsWith('library.sqlite') && (await page.inputValue('#settings-language')) === 'en');
  await page.screenshot({ path: join(shots, 'settings-en.png') });
  await page.selectOption('#settings-language', 'zh');
  await setRange(page, '#settings-threshold', 0.45);
  expect('settings: threshold label', (await text(page, '#settings-threshold-value')) === '45%');
  await page.click('#settings-save');
  await page.waitForFunction(() => document.getElementById('tab-library').textContent === '文库');
  expect('language: zh applied', (await page.getAttribute('html', 'lang')) === 'zh-CN');
  expect('language: saved', (await page.evaluate(() => window.__mock.calls.filter((c) => c.command === 'settings_set').pop().args.settings.language)) === 'zh');
  await page.screenshot({ path: join(shots, 'settings-zh.png') });
  await page.click('#tab-check');
  expect('language: report re-rendered', (await text(page, '.para[data-index="0"] .para-num')) === '第 1 段');
  await page.screenshot({ path: join(shots, 'report-zh-1280.png') });
  await page.click('#check-pick');
  await page.waitForSelector('#progress:not([hidden])');
  await idle(page);
  expect('default threshold: used by the next check', (await page.inputValue('#threshold')) === '0.45' && (await text(page, '#threshold-value')) === '45%');
  expect('zh: unreadable submission explained in Chinese', (await text(page, '#check-failures li .failure-reason')) === 'PDF 没有文字层（扫描件？）；同文不做文字识别', await text(page, '#check-failures li .failure-reason'));
  await page.selectOption('#report-document', '2');
  await page.waitForFunction(() => !document.getElementById('report-doc-error').hidden);
  expect('zh: the unreadable document says why in Chinese', (await text(page, '#report-doc-error-message')) === 'PDF 没有文字层（扫描件？）；同文不做文字识别', await text(page, '#report-doc-error-message'));
  await page.selectOption('#report-document', '0');
  await page.evaluate(() => { window.__mock.nextSave = '/home/user/Documents/报告.html'; });
  await page.click('#export-html');
  await page.waitForFunction(() => window.__mock.exported.some((e) => e.path.endsWith('报告.html')));
  expect('zh: HTML report asked for in Chinese', (await page.evaluate(() => window.__mock.exported.find((e) => e.path.endsWith('报告.html')).lang)) === 'zh');

  // a command error in Chinese, its file name (with markup) shown as text
  await page.evaluate(() =>
    window.__mock.failNext('check', {
      code: 'bad_input',
      kind: 'encrypted_pdf',
      path: '/home/user/论文 <img src=x onerror=alert(3)>.pdf',
      message: '/home/user/论文 <img src=x onerror=alert(3)>.pdf: the PDF is encrypted with a password; remove the password and try again',
      params: {},
    }),
  );
  await page.click('#check-pick');
  await page.waitForSelector('#error:not([hidden])');
  expect('zh error: sentence in Chinese with the file', (await text(page, '#error-message')) === '/home/user/论文 <img src=x onerror=alert(3)>.pdf：PDF 设有打开密码；请去除密码后重试', await text(page, '#error-message'));
  expect('zh error: title in Chinese', (await text(page, '#error-title')) === '无法读取文件');
  expect('zh error: file name not parsed as HTML', (await count(page, '#error img')) === 0);
  await page.screenshot({ path: join(shots, 'error-banner-zh.png') });
  await page.click('#error-close');
  await page.evaluate(() =>
    window.__mock.failNext('library_remove', {
      code: 'bad_input',
      kind: 'too_large',
      path: '/home/user/big.txt',
      message: '/home/user/big.txt: the document is 300000000 bytes, more than the limit of 268435456 bytes',
      params: { size: 300000000, limit: 268435456 },
    }),
  );
  await page.click('#tab-library');
  await page.click('#library-table tbody tr[data-id] .doc-title');
  await page.click('#library-remove');
  await page.click('#confirm-ok');
  await page.waitForSelector('#error:not([hidden])');
  expect('zh error: numbers in the sentence', (await text(page, '#error-message')) === '/home/user/big.txt：文档有 300,000,000 字节，超过 268,435,456 字节的上限', await text(page, '#error-message'));
  await page.click('#error-close');
  await page.click('#library-table tbody tr.selected .doc-title');
  await page.click('#tab-check');
  await page.click('#tab-library');
  await page.screenshot({ path: join(shots, 'library-zh-1280.png') });
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.screenshot({ path: join(shots, 'library-zh-1024.png') });
  await page.click('#tab-check');
  await page.click('.para.flagged');
  await page.mouse.move(5, 600);
  await page.screenshot({ path: join(shots, 'compare-zh-1024.png') });
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.click('#tab-settings');
  await page.fill('#settings-library-path', '/home/user/notes.txt');
  await page.click('#settings-save');
  await page.waitForSelector('#error:not([hidden])');
  expect('library path: error from Rust shown', (await text(page, '#error-message')) === '/home/user/notes.txt：文库数据库出错（file is not a database）', await text(page, '#error-message'));
  await page.click('#error-close');
  await page.evaluate(() => { window.__mock.nextPick = ['/home/user/corpus/library.sqlite']; });
  await page.click('#settings-library-browse');
  await page.waitForFunction(() => document.getElementById('settings-library-path').value === '/home/user/corpus/library.sqlite');
  expect('library path: file dialog fills the file', true);
  await page.click('#settings-save');
  await page.waitForFunction(() => !document.getElementById('library-empty').hidden);
  expect('library path: new library opened (empty)', true);
  await page.selectOption('#settings-language', '');
  await page.click('#settings-save');
  await page.waitForFunction(() => document.getElementById('tab-library').textContent === 'Library');
  expect('language: follow the system (en-US)', (await page.getAttribute('html', 'lang')) === 'en');

  // every error kind has a sentence in both languages; an unknown kind falls back to the message
  const KINDS = [
    'file_not_found', 'permission_denied', 'io', 'empty_file', 'no_text', 'no_paragraphs', 'too_large', 'not_a_file', 'unsupported',
    'binary', 'unknown_encoding', 'malformed_text', 'corrupt_docx', 'zip_bomb', 'corrupt_pdf', 'encrypted_pdf',
    'no_text_layer', 'garbled_pdf', 'library_database', 'library_too_new', 'library_missing', 'not_a_library', 'library_damaged', 'library_needs_upgrade',
    'no_such_document', 'cancelled', 'invalid_setting', 'internal',
  ];
  const sentences = await page.evaluate(async (kinds) => {
    const i18n = await import('/ui/js/i18n.js');
    const params = { detail: 'D', size: 3, limit: 2, what: 'W', encoding: 'E', found: 9, supported: 8, id: 7, stale: 6 };
    const out = {};
    for (const lang of ['en', 'zh']) {
      i18n.setLanguage(lang);
      out[lang] = kinds.map((kind) => i18n.errorMessage({ code: 'bad_input', kind, message: 'FALLBACK', path: 'f.txt', params }));
      out[`${lang}-unknown`] = i18n.errorMessage({ code: 'internal', kind: 'not_a_kind', message: 'FALLBACK', params: {} });
      out[`${lang}-missing`] = i18n.errorMessage({ kind: 'too_large', message: 'FALLBACK', params: {} });
      out[`${lang}-plain`] = i18n.errorMessage({ code: 'unavailable', message: 'PLAIN' });
    }
    i18n.setLanguage('en');
    return out;
  }, KINDS);
  for (const lang of ['en', 'zh']) {
    const bad = KINDS.filter((kind, i) => {
      const s = sentences[lang][i];
      return !s.startsWith(lang === 'zh' ? 'f.txt：' : 'f.txt: ') || s.includes('FALLBACK') || /\{\w+\}/.test(s) || s.includes('kind.');
    });
    expect(`i18n: a ${lang} sentence for every error kind`, bad.length === 0, bad.join(','));
    expect(`i18n: ${lang} unknown kind falls back to message`, sentences[`${lang}-unknown`] === 'FALLBACK' && sentences[`${lang}-missing`] === 'FALLBACK' && sentences[`${lang}-plain`] === 'PLAIN');
  }
  expect('i18n: zh sentences are Chinese', sentences.zh.every((s) => /[\u4e00-\u9fff]/.test(s)), sentences.zh.join(' | '));

  const keys = await page.evaluate(async () => (await import('/ui/js/i18n.js')).tableKeys());
  const missingZh = keys.en.filter((k) => !keys.zh.includes(k));
  const missingEn = keys.zh.filter((k) => !keys.en.includes(k));
  expect('i18n: zh and en tables have the same keys', !missingZh.length && !missingEn.length, [...missingZh, ...missingEn].join(','));

  expect('populated run: no console errors or warnings', page.problems.length === 0, page.problems.join(' | '));
  expect('populated run: no dialogs (no script ran)', page.dialogs.length === 0, page.dialogs.join(' | '));
  await page.context().close();
}

// ---- a library made by an older Tongwen ------------------------------------------------------------------

{
  // At start-up library_status says needs_upgrade: the update runs behind the progress strip, then the
  // library is listed.
  const page = await openPage({ query: '?old=1&step=100', loaded: false });
  await page.waitForSelector('#progress:not([hidden])', { timeout: 5000 });
  const label = await text(page, '#progress-label');
  expect('upgrade at start: progress strip says what happens', /^Updating the library made by an older Tongwen: [\d,]+ paragraphs$/.test(label), label);
  await page.waitForFunction(() => document.getElementById('progress-count').textContent.includes('of'));
  expect('upgrade at start: counts paragraphs', /^[\d,]+ of [\d,]+$/.test(await text(page, '#progress-count')), await text(page, '#progress-count'));
  expect('upgrade at start: same strip as an add (cancel button)', await visible(page, '#progress-cancel'));
  await page.screenshot({ path: join(shots, 'upgrade-at-start.png') });
  await page.waitForSelector('body.loaded', { timeout: 10000 });
  expect('upgrade at start: then the library is listed', (await count(page, '#library-table tbody tr[data-id]')) > 30);
  expect('upgrade at start: progress hidden', !(await visible(page, '#progress')));
  expect('upgrade at start: said so', (await text(page, '#status')) === 'The library is up to date.', await text(page, '#status'));
  const order = await page.evaluate(() => window.__mock.calls.map((c) => c.command).filter((c) => c.startsWith('library_')));
  expect('upgrade at start: status, upgrade, then list', order.slice(0, 3).join(',') === 'library_status,library_upgrade,library_list', order.join(','));
  await page.click('#tab-check');
  await page.click('#check-pick');
  await page.waitForSelector('#report:not([hidden])');
  await idle(page);
  expect('upgrade at start: checks work afterwards', !(await visible(page, '#error')));

  // A command failing with library_needs_upgrade offers the same step in the banner.
  await page.evaluate(() => window.__mock.makeStale());
  await page.click('#check-pick');
  await page.waitForSelector('#error:not([hidden])');
  expect('needs upgrade: banner kind', (await page.getAttribute('#error', 'data-kind')) === 'library_needs_upgrade');
  expect('needs upgrade: sentence', (await text(page, '#error-message')).endsWith(': the library was made by an older Tongwen and must be updated first'), await text(page, '#error-message'));
  expect('needs upgrade: offered', (await visible(page, '#error-action')) && (await text(page, '#error-action')) === 'Update the library');
  await page.screenshot({ path: join(shots, 'needs-upgrade-banner.png') });
  await page.click('#error-action');
  await page.waitForSelector('#progress:not([hidden])');
  expect('needs upgrade: banner closed, update running', !(await visible(page, '#error')) && (await text(page, '#progress-label')).startsWith('Updating the library made by an older Tongwen'));
  await idle(page);
  expect('needs upgrade: done', (await text(page, '#status')) === 'The library is up to date.');
  await page.click('#check-pick');
  await page.waitForSelector('#progress:not([hidden])');
  await idle(page);
  expect('needs upgrade: the check works again', !(await visible(page, '#error')));
  expect('old library run: no console errors', page.problems.length === 0, page.problems.join(' | '));
  await page.context().close();
}

{
  const page = await openPage({ query: '?old=1&lang=zh&step=100', loaded: false });
  await page.waitForSelector('#progress:not([hidden])', { timeout: 5000 });
  const label = await text(page, '#progress-label');
  expect('upgrade at start (zh): in Chinese', /^正在更新旧版同文创建的文库：[\d,]+ 个段落$/.test(label), label);
  await page.waitForFunction(() => document.getElementById('progress-count').textContent.includes('/'));
  await page.screenshot({ path: join(shots, 'upgrade-at-start-zh.png') });
  await page.click('#progress-cancel');
  await page.waitForSelector('body.loaded', { timeout: 10000 });
  expect('upgrade cancelled (zh): said so', (await text(page, '#status')) === '已取消。', await text(page, '#status'));
  expect('upgrade cancelled (zh): library still listed', (await count(page, '#library-table tbody tr[data-id]')) > 30);
  await page.click('#tab-check');
  await page.click('#check-pick');
  await page.waitForSelector('#error:not([hidden])');
  expect('upgrade cancelled (zh): a check offers the update in Chinese', (await text(page, '#error-action')) === '更新文库' && (await text(page, '#error-message')).endsWith('：文库由旧版同文创建，需要先更新'), await text(page, '#error-message'));
  expect('upgrade cancelled (zh) run: no console errors', page.problems.length === 0, page.problems.join(' | '));
  await page.context().close();
}

// ---- language from the system at first start ---------------------------------------------------------

{
  const page = await openPage({ query: '?empty=1', locale: 'zh-CN', width: 1024, height: 640 });
  expect('system zh: Chinese at first start', (await text(page, '#tab-library')) === '文库');
  expect('system zh: empty state in Chinese', (await text(page, '#library-empty h2')).includes('文库是空的'));
  await page.screenshot({ path: join(shots, 'library-empty-zh-1024.png') });
  await page.click('#try-sample');
  await page.waitForSelector('#report:not([hidden])');
  await idle(page);
  await page.screenshot({ path: join(shots, 'report-zh-1024.png') });
  expect('system zh run: no console errors', page.problems.length === 0, page.problems.join(' | '));
  await page.context().close();
}

// ---- outside the desktop shell ------------------------------------------------------------------------

{
  const page = await openPage({ path: '/ui/index.html' });
  expect('no __TAURI__: error banner', await visible(page, '#error'));
  expect('no __TAURI__: clear message', (await text(page, '#error-message')).includes('window.__TAURI__'));
  expect('no __TAURI__: title', (await text(page, '#error-title')) === 'The desktop app is not available');
  await page.screenshot({ path: join(shots, 'no-tauri.png') });
  const unexpected = page.problems.filter((p) => !p.includes('window.__TAURI__'));
  expect('no __TAURI__: nothing else fails', unexpected.length === 0, unexpected.join(' | '));
  await page.context().close();
}

await browser.close();
server.close();
console.log(`\nscreenshots in ${relative(process.cwd(), shots) || '.'}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
