// A class comparison (ClassReport, see ../../../API.md): the summary, the submissions that could not be
// read, the sortable pair list (#class-pairs), the groups at the threshold (#class-groups) and the
// similarity matrix (#class-matrix). Pairs are named by their index in `report.pairs`, which the
// threshold never changes. A pair is "strong" when its larger ratio reaches the threshold.

import { $, clear, el, pathText } from '../../dom.js';
import * as fmt from '../../format.js';
import { t } from '../../i18n.js';
import * as store from '../../store.js';
import { documentError, isFailed } from '../check/report-view.js';

/** Documents in the matrix at most (as in the exported report): those with the strongest pairs. */
export const MATRIX_MAX = 60;
/** Pair rows added at a time; "Show N more" adds the next ones. */
const PAIR_PAGE = 200;
/** Pairs listed under a group at most. */
const GROUP_PAIRS_MAX = 6;
/** The same tolerance as Rust's `max_ratio() >= threshold - 1e-9`. */
const EPSILON = 1e-9;

const COLUMNS = [
  { key: 'a', label: 'class.col.a', compare: (x, y) => textOrder(fmt.basename(x.a), fmt.basename(y.a)) },
  { key: 'b', label: 'class.col.b', compare: (x, y) => textOrder(fmt.basename(x.b), fmt.basename(y.b)) },
  { key: 'a_ratio', label: 'class.col.a_ratio', numeric: true, compare: (x, y) => x.a_ratio - y.a_ratio },
  { key: 'b_ratio', label: 'class.col.b_ratio', numeric: true, compare: (x, y) => x.b_ratio - y.b_ratio },
  { key: 'passages', label: 'class.col.passages', numeric: true, compare: (x, y) => passagesOf(x) - passagesOf(y) },
];

let sort = { key: null, direction: -1 }; // null: Rust's order, the larger ratio first
let shown = PAIR_PAGE;
let onOpen = () => {};

export function initClassReport({ onOpen: open }) {
  onOpen = open;
  for (const column of COLUMNS) {
    $(`#class-sort-${column.key}`).addEventListener('click', () => {
      sort =
        sort.key === column.key
          ? { key: column.key, direction: -sort.direction }
          : { key: column.key, direction: column.numeric ? -1 : 1 };
      rerender();
    });
  }
  $('#class-pairs-more').addEventListener('click', () => {
    shown += PAIR_PAGE;
    rerender();
  });
  // One listener for the whole matrix: a cell of a pair opens it.
  $('#class-matrix').addEventListener('click', (event) => {
    const cell = event.target instanceof Element ? event.target.closest('td[data-pair]') : null;
    if (cell) onOpen(Number(cell.dataset.pair));
  });
}

/** A new comparison: the pair list starts again from its first page (the sort order is kept). */
export function resetPairList() {
  shown = PAIR_PAGE;
}

function rerender() {
  const report = store.get('classReport');
  if (report) renderClassReport(report);
}

// ---- helpers shared with the comparison ---------------------------------------------------------

/** A pair's larger ratio, what sorts pairs and forms groups. */
export function maxRatio(pair) {
  return Math.max(Number(pair?.a_ratio) || 0, Number(pair?.b_ratio) || 0);
}

/** Shared passages of a pair: every span of every matching paragraph pair. */
export function passagesOf(pair) {
  return (pair?.matches ?? []).reduce((sum, m) => sum + (m.spans?.length ?? 0), 0);
}

export function isStrong(pair, threshold) {
  return maxRatio(pair) >= Number(threshold) - EPSILON;
}

/** Indices into `report.pairs` in the pair list's current order. */
export function orderedPairs(report) {
  const pairs = report?.pairs ?? [];
  const indices = pairs.map((_, i) => i);
  const column = COLUMNS.find((c) => c.key === sort.key);
  if (!column) return indices;
  return indices.sort((i, j) => sort.direction * column.compare(pairs[i], pairs[j]) || i - j);
}

// ---- rendering ----------------------------------------------------------------------------------

export function renderClassReport(report) {
  renderSummary(report);
  renderFailures(report);
  renderPairs(report);
  renderGroups(report);
  renderMatrix(report);
}

function renderSummary(report) {
  const documents = report.documents ?? [];
  const readable = documents.filter((d) => !isFailed(d)).length;
  const unread = documents.length - readable;
  const pairs = report.pairs?.length ?? 0;
  const groups = report.clusters?.length ?? 0;
  const parts = [
    t('class.summary', {
      documents: fmt.integer(readable),
      documentCount: readable,
      pairs: fmt.integer(pairs),
      pairCount: pairs,
      groups: fmt.integer(groups),
      groupCount: groups,
      threshold: fmt.percent(Number(report.threshold), 0),
    }),
  ];
  if (unread) parts.push(t('class.unread', { count: fmt.integer(unread) }));
  $('#class-summary').textContent = parts.join(t('list.separator'));

  const templates = report.templates ?? [];
  const used = $('#class-used-templates');
  used.hidden = templates.length === 0;
  used.textContent = templates.length
    ? t('class.usedTemplates', { names: templates.map((p) => fmt.basename(p)).join(t('list.separator')) })
    : '';
  used.title = templates.join('\n');
}

function renderFailures(report) {
  const failed = (report.documents ?? []).filter(isFailed);
  $('#class-failures-box').hidden = failed.length === 0;
  const list = clear($('#class-failures'));
  for (const doc of failed) {
    list.append(
      el(
        'li',
        { dataset: { path: doc.file } },
        el('span', { class: 'failure-name', title: doc.file, text: fmt.basename(doc.file) }),
        el('span', { class: 'failure-path' }, pathText(doc.file)),
        el('span', { class: 'failure-reason', text: documentError(doc, { withFile: false }) }),
      ),
    );
  }
}

function renderPairs(report) {
  const pairs = report.pairs ?? [];
  $('#class-no-pairs').hidden = pairs.length > 0;
  $('#class-pairs-wrap').hidden = pairs.length === 0;

  for (const column of COLUMNS) {
    const button = $(`#class-sort-${column.key}`);
    button.textContent = t(column.label);
    const th = button.closest('th');
    if (column.key === sort.key) th.setAttribute('aria-sort', sort.direction > 0 ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
  }

  const body = clear($('#class-pairs tbody'));
  const order = orderedPairs(report);
  for (const index of order.slice(0, shown)) body.append(pairRow(pairs[index], index, report.threshold));

  const more = $('#class-pairs-more');
  const rest = Math.max(0, order.length - shown);
  more.hidden = rest === 0;
  more.textContent = t('class.more', { count: fmt.integer(Math.min(rest, PAIR_PAGE)) });
}

function pairRow(pair, index, threshold) {
  const strong = isStrong(pair, threshold);
  const a = fmt.basename(pair.a);
  const b = fmt.basename(pair.b);
  return el(
    'tr',
    {
      class: strong ? 'strong' : null,
      dataset: { pair: index, strong: String(strong) },
      onclick: (event) => {
        // Selecting a file name to copy it is not a request to compare.
        if (String(window.getSelection?.() ?? '').length > 0 && !(event.target instanceof HTMLButtonElement)) return;
        onOpen(index);
      },
    },
    el(
      'td',
      { class: 'pair-file' },
      el(
        'button',
        {
          type: 'button',
          class: 'pair-open',
          title: pair.a,
          'aria-label': t('class.openPair', { a, b }),
          onclick: (event) => {
            event.stopPropagation();
            onOpen(index);
          },
        },
        a,
      ),
      strong ? el('span', { class: 'sr-only', text: ` (${t('class.strong')})` }) : null,
    ),
    el('td', { class: 'pair-file', title: pair.b }, el('span', { class: 'pair-name', text: b })),
    ratioCell(pair.a_ratio),
    ratioCell(pair.b_ratio),
    el('td', { class: 'num', text: fmt.integer(passagesOf(pair)) }),
  );
}

function ratioCell(ratio) {
  const r = clamp(ratio);
  return el('td', { class: 'num ratio', style: { '--ratio': r.toFixed(4) }, dataset: { ratio: String(ratio) }, text: fmt.percent(r) });
}

function renderGroups(report) {
  const clusters = report.clusters ?? [];
  $('#class-no-groups').hidden = clusters.length > 0;
  const list = clear($('#class-groups'));
  const pairs = report.pairs ?? [];
  clusters.forEach((cluster, n) => {
    const files = new Set(cluster.files ?? []);
    // The listed pairs that connect the group, strongest first (Rust's order).
    const inside = [];
    pairs.forEach((pair, i) => {
      if (files.has(pair.a) && files.has(pair.b)) inside.push(i);
    });
    const shownPairs = inside.slice(0, GROUP_PAIRS_MAX);
    list.append(
      el(
        'li',
        { class: 'class-group', dataset: { files: files.size } },
        el('div', {
          class: 'class-group-head',
          text: t('class.groupHead', {
            n: n + 1,
            count: fmt.integer(files.size),
            ratio: fmt.percent(clamp(cluster.max_ratio)),
          }),
        }),
        el(
          'ul',
          { class: 'class-group-files' },
          (cluster.files ?? []).map((file) => el('li', { title: file, text: fmt.basename(file) })),
        ),
        el(
          'div',
          { class: 'class-group-pairs' },
          shownPairs.map((i) =>
            el('button', {
              type: 'button',
              class: 'btn small',
              dataset: { pair: i },
              text: t('class.groupPair', {
                a: fmt.basename(pairs[i].a),
                b: fmt.basename(pairs[i].b),
                ratio: fmt.percent(maxRatio(pairs[i]), 0),
              }),
              onclick: () => onOpen(i),
            }),
          ),
          inside.length > shownPairs.length ? el('span', { class: 'muted', text: '…' }) : null,
        ),
      ),
    );
  });
}

/** The documents of the matrix: those of the strongest pairs, at most MATRIX_MAX, in the input order. */
export function matrixDocuments(report) {
  const chosen = [];
  const seen = new Set();
  let inPairs = 0;
  for (const pair of report.pairs ?? []) {
    for (const file of [pair.a, pair.b]) {
      if (seen.has(file)) continue;
      seen.add(file);
      inPairs += 1;
      if (chosen.length < MATRIX_MAX) chosen.push(file);
    }
  }
  const order = new Map((report.documents ?? []).map((d, i) => [d.file, i]));
  chosen.sort((x, y) => (order.get(x) ?? 0) - (order.get(y) ?? 0));
  return { files: chosen, inPairs };
}

function renderMatrix(report) {
  const { files, inPairs } = matrixDocuments(report);
  $('#class-matrix-box').hidden = files.length === 0;
  const more = $('#class-matrix-more');
  more.hidden = inPairs <= files.length;
  more.textContent = t('class.matrixMore', { shown: fmt.integer(files.length), total: fmt.integer(inPairs) });

  const table = clear($('#class-matrix'));
  if (!files.length) return;
  const pairs = report.pairs ?? [];
  const byFiles = new Map();
  pairs.forEach((pair, i) => {
    byFiles.set(`${pair.a}\u0000${pair.b}`, i);
    byFiles.set(`${pair.b}\u0000${pair.a}`, i);
  });

  const head = el('tr', {}, el('td', { class: 'corner' }));
  files.forEach((file, c) => head.append(el('th', { scope: 'col', class: 'col-num', title: file, text: c + 1 })));
  const body = el('tbody');
  files.forEach((row, r) => {
    const tr = el(
      'tr',
      {},
      el(
        'th',
        { scope: 'row', class: 'row-name', title: row },
        el('span', { class: 'row-num', text: r + 1 }),
        el('span', { class: 'row-file', text: fmt.basename(row) }),
      ),
    );
    files.forEach((col, c) => {
      if (r === c) {
        tr.append(el('td', { class: 'cell self' }));
        return;
      }
      const index = byFiles.get(`${row}\u0000${col}`);
      if (index == null) {
        tr.append(el('td', { class: 'cell' }));
        return;
      }
      const pair = pairs[index];
      const ratio = clamp(maxRatio(pair));
      const strong = isStrong(pair, report.threshold);
      tr.append(
        el('td', {
          class: `cell pair${strong ? ' strong' : ''}${ratio >= 0.55 ? ' dark' : ''}`,
          dataset: { pair: index, ratio: String(ratio) },
          style: { '--ratio': ratio.toFixed(4) },
          title: t('class.matrixCell', { a: fmt.basename(row), b: fmt.basename(col), ratio: fmt.percent(ratio) }),
          text: Math.round(ratio * 100),
        }),
      );
    });
    body.append(tr);
  });
  table.append(el('thead', {}, head), body);
}

function clamp(ratio) {
  return Math.max(0, Math.min(1, Number(ratio) || 0));
}

function textOrder(a, b) {
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { numeric: true, sensitivity: 'base' });
}
