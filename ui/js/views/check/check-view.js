// The Check tab: choose or drop submissions, check them against the library, and read the report.
// The threshold slider re-filters the kept results through `report` (no new check); with several
// submissions, #report-document chooses which one is shown. A cited quotation's button disputes its
// citation (or restores it) through `dispute_quotation`, which answers with the whole report again.

import * as api from '../../api.js';
import { $, clear, el, isTypingTarget } from '../../dom.js';
import * as fmt from '../../format.js';
import { language, t } from '../../i18n.js';
import * as store from '../../store.js';
import { confirmOpen } from '../shell/confirm.js';
import { showError, showStatus } from '../shell/notices.js';
import { showTab } from '../shell/tabs.js';
import { runTask } from '../shell/task.js';
import { closeCompare, initCompare, isOpen, openCompare, refreshCompare, step } from './compare-view.js';
import { documentError, flaggedIndices, isFailed, renderDocument } from './report-view.js';

const REFILTER_DELAY_MS = 100;

let selectedFile = null; // DocumentReport.file shown
let refilterTimer = 0;
let refilterSeq = 0;

export function initCheckView({ refreshLibrary }) {
  initCompare({ currentDocument });
  $('#check-pick').addEventListener('click', pickAndCheck);
  $('#check-sample').addEventListener('click', () => runDemo({ refreshLibrary }));
  $('#report-document').addEventListener('change', (event) => {
    const doc = store.get('report')?.documents?.[Number(event.target.value)];
    if (!doc) return;
    selectedFile = doc.file;
    closeCompare();
    render();
    window.scrollTo({ top: 0 });
  });
  $('#threshold').addEventListener('input', onThresholdInput);
  $('#export-html').addEventListener('click', () => exportReport('html'));
  $('#export-pdf').addEventListener('click', () => exportReport('pdf'));
  // The exclusions re-filter like the slider: no new check.
  for (const box of document.querySelectorAll('.exclusions input[type=checkbox]')) {
    box.addEventListener('change', () => {
      const report = store.get('report');
      if (report) refilter(Number(report.threshold));
    });
  }
  $('#print').addEventListener('click', () => {
    closeCompare();
    window.print();
  });
  document.addEventListener('keydown', onKeyDown);
  window.addEventListener('beforeprint', render); // the printed header carries the time of printing

  store.on('report', () => {
    render();
    refreshCompare();
  });
  store.on('documents', renderEmptyState);
  store.on('tab', () => closeCompare()); // the panel belongs to the Check tab
  store.on('busy', reflectBusy);
  store.on('lang', () => {
    render();
    refreshCompare();
  });
  render();
}

/** Checks `paths` and shows the report. */
export async function checkPaths(paths) {
  if (!paths.length) return;
  if (store.get('busy')) {
    showStatus(t('status.busy'));
    return;
  }
  showTab('check');
  const author = $('#check-author').value.trim() || null;
  const report = await runTask('task.checking', (onProgress) => api.check(paths, onProgress, author));
  if (report) showReport(report);
}

/** The kinds of passage the user leaves out of the similarity ratio: "quotes", "references", "own". */
export function excluded() {
  return [...document.querySelectorAll('.exclusions input[type=checkbox]')]
    .filter((box) => box.checked)
    .map((box) => box.value);
}

/** Adds the demo library, checks the demo submission and shows its report. */
export async function runDemo({ refreshLibrary }) {
  const report = await runTask('task.demo', (onProgress) => api.demo(onProgress));
  if (!report) return;
  showTab('check');
  showReport(report);
  try {
    await refreshLibrary();
  } catch (err) {
    showError(err);
  }
}

function showReport(report) {
  closeCompare();
  selectedFile = report.documents?.[0]?.file ?? null;
  store.set('report', report);
  // A new check reports without exclusions: apply the ones ticked.
  if (excluded().length) refilter(Number(report.threshold));
  window.scrollTo({ top: 0 });
  const failed = (report.documents ?? []).filter(isFailed).length;
  if (failed) showStatus(t('check.someFailed', { count: failed }));
}

async function pickAndCheck() {
  try {
    const paths = await api.pickPaths({
      multiple: true,
      directory: false,
      title: t('dialog.chooseSubmissions'),
      filters: [{ name: t('dialog.documents'), extensions: ['txt', 'docx', 'pdf'] }],
    });
    await checkPaths(paths);
  } catch (err) {
    showError(err);
  }
}

/** The DocumentReport on screen, or null. */
function currentDocument() {
  const docs = store.get('report')?.documents ?? [];
  return docs.find((d) => d.file === selectedFile) ?? docs[0] ?? null;
}

function render() {
  const report = store.get('report');
  const doc = currentDocument();
  $('#report').hidden = !doc;
  $('#check-empty').hidden = Boolean(doc);
  $('#export-html').disabled = !doc || store.get('busy');
  $('#export-pdf').disabled = !doc || store.get('busy');
  $('#print').disabled = !doc;
  renderEmptyState();
  renderDocumentSelector(report);
  renderFailures(report);
  if (!doc) return;
  renderDocument(
    doc,
    { threshold: Number(report.threshold), method: report.method ?? '', documentIndex: report.documents.indexOf(doc) },
    { onOpen: openCompare, onDispute: disputeQuotation },
  );
}

function renderEmptyState() {
  const count = store.get('documents')?.length ?? 0;
  $('#check-empty-body').textContent = count
    ? t('check.emptyBody', { count: fmt.integer(count) })
    : t('check.emptyLibrary');
  $('#check-empty').classList.toggle('library-empty', count === 0);
}

function renderDocumentSelector(report) {
  const docs = report?.documents ?? [];
  const select = clear($('#report-document'));
  $('#report-document-field').hidden = docs.length < 2;
  docs.forEach((doc, i) => {
    const label =
      isFailed(doc)
        ? t('check.docOptionFailed', { name: fmt.basename(doc.file) })
        : t('check.docOption', { name: fmt.basename(doc.file), ratio: fmt.percent(doc.similarity_ratio) });
    select.append(el('option', { value: i, text: label, selected: doc === currentDocument() }));
  });
}

function renderFailures(report) {
  const failed = (report?.documents ?? []).filter(isFailed);
  $('#check-failures-box').hidden = failed.length === 0;
  const list = clear($('#check-failures'));
  for (const doc of failed) {
    list.append(
      el(
        'li',
        { dataset: { path: doc.file } },
        el('span', { class: 'failure-name', title: doc.file, text: fmt.basename(doc.file) }),
        el('span', { class: 'failure-reason', text: documentError(doc, { withFile: false }) }),
      ),
    );
  }
}

function reflectBusy(busy) {
  $('#check-pick').disabled = busy;
  $('#check-sample').disabled = busy;
  $('#export-html').disabled = busy || !currentDocument();
  $('#export-pdf').disabled = busy || !currentDocument();
}

// ---- threshold ----------------------------------------------------------------------------------

function onThresholdInput(event) {
  const threshold = Number(event.target.value);
  $('#threshold-value').textContent = fmt.percent(threshold, 0);
  clearTimeout(refilterTimer);
  refilterTimer = setTimeout(() => refilter(threshold), REFILTER_DELAY_MS);
}

async function refilter(threshold) {
  const seq = ++refilterSeq;
  $('#report').setAttribute('aria-busy', 'true');
  try {
    const report = await api.report(threshold, excluded());
    if (seq !== refilterSeq) return; // a later move of the slider wins
    store.set('report', report);
  } catch (err) {
    if (seq === refilterSeq) showError(err);
  } finally {
    if (seq === refilterSeq) $('#report').removeAttribute('aria-busy');
  }
}

// ---- cited quotations ---------------------------------------------------------------------------

/**
 * Disputes the citation of the quotation starting at `start` of paragraph `paragraph` of the document
 * on screen (or takes the dispute back), at the threshold and exclusions on screen, and shows the
 * report that comes back: its figures count the quotation as copied (or excused again).
 */
async function disputeQuotation({ paragraph, start, button }) {
  const report = store.get('report');
  const documentIndex = report?.documents?.indexOf(currentDocument()) ?? -1;
  if (documentIndex < 0) return;
  // A pending move of the slider is taken along: the answer is the report at this threshold.
  clearTimeout(refilterTimer);
  const threshold = Number($('#threshold').value);
  const seq = ++refilterSeq;
  if (button) button.disabled = true;
  $('#report').setAttribute('aria-busy', 'true');
  try {
    const next = await api.disputeQuotation(documentIndex, paragraph, start, threshold, excluded());
    if (seq !== refilterSeq) return; // a later re-filter shows the dispute too
    store.set('report', next);
    const disputed = isDisputed(next.documents?.[documentIndex], paragraph, start);
    showStatus(t(disputed ? 'status.quotationDisputed' : 'status.citationRestored'));
    // The paragraphs were drawn again: keep the keyboard on the same quotation's button.
    document
      .querySelector(`#paragraphs button[data-action="dispute"][data-paragraph="${CSS.escape(String(paragraph))}"][data-start="${CSS.escape(String(start))}"]`)
      ?.focus({ preventScroll: true });
  } catch (err) {
    if (button && document.contains(button)) button.disabled = false;
    if (seq === refilterSeq) showError(err);
  } finally {
    if (seq === refilterSeq) $('#report').removeAttribute('aria-busy');
  }
}

/** Whether the quotation starting at `start` of paragraph `index` of `doc` is disputed. */
function isDisputed(doc, index, start) {
  const paragraph = doc?.paragraphs?.find((p) => p.index === index);
  return [...(paragraph?.matches ?? []), ...(paragraph?.passages ?? [])].some((match) =>
    (match.spans ?? []).some((span) => span.cited_by?.quotation?.[0] === start && span.cited_by.disputed),
  );
}

// ---- export -------------------------------------------------------------------------------------

async function exportReport(format) {
  const report = store.get('report');
  const doc = currentDocument();
  if (!report || !doc) return;
  const html = format === 'html';
  try {
    const path = await api.pickSavePath({
      title: t('dialog.saveReport'),
      defaultPath: `${fmt.stem(doc.file) || 'report'}-tongwen.${format}`,
      filters: [{ name: t(html ? 'dialog.htmlReport' : 'dialog.pdfReport'), extensions: [format] }],
    });
    if (!path) return;
    // Written in the interface's language, with the exclusions the user chose.
    const save = html ? api.exportHtml : api.exportPdf;
    await save(path, Number(report.threshold), language(), excluded());
    showStatus(t('status.exported', { path }));
  } catch (err) {
    showError(err);
  }
}

// ---- keyboard -----------------------------------------------------------------------------------

function onKeyDown(event) {
  if (store.get('tab') !== 'check' || !currentDocument() || confirmOpen()) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'Escape' && isOpen()) {
    event.preventDefault();
    closeCompare();
    return;
  }
  if (isTypingTarget(event.target)) return;
  const forward = event.key === 'j' || event.key === 'ArrowDown';
  const backward = event.key === 'k' || event.key === 'ArrowUp';
  if (!forward && !backward) return;
  if (isOpen()) {
    event.preventDefault();
    step(forward ? 1 : -1);
  } else if (event.key === 'j' || event.key === 'k') {
    // With the panel closed, j/k walk the flagged paragraphs (Enter opens one); the arrow keys keep
    // scrolling the page.
    event.preventDefault();
    focusFlagged(forward ? 1 : -1);
  }
}

function focusFlagged(direction) {
  const flagged = flaggedIndices(currentDocument());
  if (!flagged.length) return;
  const focused = document.activeElement?.closest?.('.para');
  const at = focused ? Number(focused.dataset.index) : null;
  let next;
  if (at == null) next = direction > 0 ? flagged[0] : flagged[flagged.length - 1];
  else if (direction > 0) next = flagged.find((i) => i > at) ?? flagged[flagged.length - 1];
  else next = [...flagged].reverse().find((i) => i < at) ?? flagged[0];
  const para = document.getElementById(`para-${next}`);
  para?.focus({ preventScroll: true });
  para?.scrollIntoView({ block: 'center', behavior: 'smooth' });
}
