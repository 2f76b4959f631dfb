// The Class tab: choose or drop the folder of a class's submissions (optionally a template whose text is
// never counted), compare them with each other (`class_compare`, behind the progress strip), and read
// which submissions share text: the pair list, the groups, the similarity matrix, and each pair's shared
// passages side by side. The threshold slider re-groups the kept comparison through `class_report`; the
// pairs themselves do not change. "Save HTML report" writes the comparison through `class_export_html`.

import * as api from '../../api.js';
import { $, clear, el, isTypingTarget } from '../../dom.js';
import * as fmt from '../../format.js';
import { language, t } from '../../i18n.js';
import * as store from '../../store.js';
import { confirmOpen } from '../shell/confirm.js';
import { showError, showStatus } from '../shell/notices.js';
import { showTab } from '../shell/tabs.js';
import { runTask } from '../shell/task.js';
import { closePair, initClassCompare, isPairOpen, openPair, refreshPair, stepPair } from './class-compare.js';
import { initClassReport, renderClassReport, resetPairList } from './class-report.js';
import { isFailed } from '../check/report-view.js';

const REGROUP_DELAY_MS = 100;
const FORMATS = ['txt', 'docx', 'pdf'];

let templates = []; // template files chosen for the next comparison
let lastPaths = []; // what the last comparison was asked to compare ("Compare again")
let reportPaths = []; // what the report on screen compared (the exported file's default name)
let regroupTimer = 0;
let regroupSeq = 0;

export function initClassView() {
  initClassReport({ onOpen: openPair });
  initClassCompare({ onToggle: renderVisibility });
  $('#class-choose').addEventListener('click', () => pickAndCompare(true));
  $('#class-choose-empty').addEventListener('click', () => pickAndCompare(true));
  $('#class-sample').addEventListener('click', trySample);
  $('#class-choose-files').addEventListener('click', () => pickAndCompare(false));
  $('#class-template').addEventListener('click', pickTemplates);
  $('#class-template-clear').addEventListener('click', () => {
    templates = [];
    renderTemplates();
  });
  $('#class-rerun').addEventListener('click', () => comparePaths(lastPaths));
  $('#class-threshold').addEventListener('input', onThresholdInput);
  $('#class-export').addEventListener('click', exportHtml);
  document.addEventListener('keydown', onKeyDown);

  store.on('classReport', () => {
    render();
    refreshPair();
  });
  store.on('lang', () => {
    render();
    refreshPair();
  });
  store.on('busy', reflectBusy);
  render();
}

/** Compares the submissions in `paths` (files or folders) with each other and shows what they share. */
export async function comparePaths(paths) {
  if (!paths?.length) return;
  if (store.get('busy')) {
    showStatus(t('status.busy'));
    return;
  }
  showTab('class');
  lastPaths = [...paths];
  const chosenTemplates = [...templates];
  const report = await runTask('task.comparing', (onProgress) => api.classCompare(paths, chosenTemplates, onProgress));
  renderTemplates();
  if (!report) return;
  reportPaths = [...paths];
  closePair({ restore: false });
  resetPairList();
  store.set('classReport', report);
  window.scrollTo({ top: 0 });
  const failed = (report.documents ?? []).filter(isFailed).length;
  if (failed) showStatus(t('class.someFailed', { count: failed }));
}

/** Compares the bundled sample class, its prompt as the template. */
async function trySample() {
  try {
    const sample = await api.demoClass();
    templates = [sample.template];
    renderTemplates();
    await comparePaths([sample.essays]);
  } catch (err) {
    showError(err);
  }
}

async function pickAndCompare(directory) {
  try {
    const paths = await api.pickPaths({
      directory,
      multiple: true,
      title: t(directory ? 'dialog.chooseClassFolder' : 'dialog.chooseClassFiles'),
      filters: directory ? undefined : [{ name: t('dialog.documents'), extensions: FORMATS }],
    });
    await comparePaths(paths);
  } catch (err) {
    showError(err);
  }
}

async function pickTemplates() {
  try {
    const paths = await api.pickPaths({
      directory: false,
      multiple: true,
      title: t('dialog.chooseTemplates'),
      filters: [{ name: t('dialog.documents'), extensions: FORMATS }],
    });
    if (!paths.length) return;
    templates = [...new Set(paths)];
    renderTemplates();
  } catch (err) {
    showError(err);
  }
}

// ---- rendering ----------------------------------------------------------------------------------

function render() {
  const report = store.get('classReport');
  renderVisibility();
  renderTemplates();
  reflectBusy(store.get('busy'));
  if (!report) return;
  renderClassReport(report);
  const input = $('#class-threshold');
  const threshold = Number(report.threshold);
  if (document.activeElement !== input) input.value = String(threshold);
  $('#class-threshold-value').textContent = fmt.percent(Number(input.value), 0);
}

/** The empty state, the report or the side-by-side view of one pair: one of them is shown. */
function renderVisibility() {
  const report = store.get('classReport');
  const open = isPairOpen();
  $('#class-empty').hidden = Boolean(report);
  $('#class-report').hidden = !report || open;
  $('#class-compare').hidden = !report || !open;
}

/** The templates chosen for the next comparison, and "Compare again" once something was compared. */
function renderTemplates() {
  const box = $('#class-templates-box');
  box.hidden = templates.length === 0;
  const list = clear($('#class-templates'));
  for (const path of templates) {
    list.append(el('li', { title: path, dataset: { path }, text: fmt.basename(path) }));
  }
  // Offered when the templates differ from those of the report on screen.
  const used = store.get('classReport')?.templates ?? [];
  const changed = templates.length !== used.length || templates.some((p, i) => p !== used[i]);
  $('#class-rerun').hidden = !(lastPaths.length && changed);
}

function reflectBusy(busy) {
  for (const id of ['#class-choose', '#class-choose-empty', '#class-sample', '#class-choose-files', '#class-template', '#class-rerun', '#class-template-clear']) {
    $(id).disabled = busy;
  }
  $('#class-export').disabled = busy || !store.get('classReport');
}

// ---- threshold ----------------------------------------------------------------------------------

function onThresholdInput(event) {
  const threshold = Number(event.target.value);
  $('#class-threshold-value').textContent = fmt.percent(threshold, 0);
  clearTimeout(regroupTimer);
  regroupTimer = setTimeout(() => regroup(threshold), REGROUP_DELAY_MS);
}

async function regroup(threshold) {
  const seq = ++regroupSeq;
  $('#class-report').setAttribute('aria-busy', 'true');
  try {
    const report = await api.classReport(threshold);
    if (seq !== regroupSeq) return; // a later move of the slider wins
    store.set('classReport', report);
  } catch (err) {
    if (seq === regroupSeq) showError(err);
  } finally {
    if (seq === regroupSeq) $('#class-report').removeAttribute('aria-busy');
  }
}

// ---- export -------------------------------------------------------------------------------------

/** "作业-tongwen-class.html" for a folder named 作业 (the folder of the files when files were chosen). */
function defaultExportName() {
  const first = reportPaths[0] ?? '';
  const name = reportPaths.length === 1 && !/\.(txt|docx|pdf)$/i.test(first) ? fmt.basename(first) : fmt.basename(fmt.dirname(first));
  return `${name || 'class'}-tongwen-class.html`;
}

async function exportHtml() {
  const report = store.get('classReport');
  if (!report) return;
  try {
    const path = await api.pickSavePath({
      title: t('dialog.saveClassReport'),
      defaultPath: defaultExportName(),
      filters: [{ name: t('dialog.htmlReport'), extensions: ['html'] }],
    });
    if (!path) return;
    // Written in the interface's language, grouped at the threshold on screen.
    await api.classExportHtml(path, Number(report.threshold), language());
    showStatus(t('status.exported', { path }));
  } catch (err) {
    showError(err);
  }
}

// ---- keyboard -----------------------------------------------------------------------------------

function onKeyDown(event) {
  if (store.get('tab') !== 'class' || !isPairOpen() || confirmOpen()) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'Escape') {
    event.preventDefault();
    closePair();
    return;
  }
  if (isTypingTarget(event.target)) return;
  if (event.key === 'j' || event.key === 'k') {
    event.preventDefault();
    stepPair(event.key === 'j' ? 1 : -1);
  }
}
