// The error banner (#error) and the short status line (#status).
//
// Errors from Rust arrive as {code, kind, message, path?, params}: the banner shows a title for the code
// and the sentence for the kind in the interface's language (i18n.js errorMessage(), which names the file
// and the cause; `message`, Rust's English sentence, when the kind is unknown). A cancelled task is not
// an error: it gets a status line instead. A kind may have an action (a button in the banner), such as
// updating a library made by an older Tongwen.

import { $, setPathText } from '../../dom.js';
import { errorMessage, t } from '../../i18n.js';
import * as store from '../../store.js';

const ERROR_TITLES = {
  bad_input: 'error.bad_input',
  library: 'error.library',
  not_found: 'error.not_found',
  internal: 'error.internal',
  unavailable: 'error.unavailable',
};

let statusTimer = 0;
let shown = null; // the error in the banner, re-said when the language changes
const actions = new Map(); // kind → {labelKey, run}

export function initNotices() {
  $('#error-close').addEventListener('click', clearError);
  $('#error-action').addEventListener('click', () => {
    const action = actions.get(shown?.kind);
    clearError();
    action?.run();
  });
  store.on('lang', () => {
    if (shown && !$('#error').hidden) renderError(shown);
  });
}

/** Offers `run()` as a button labelled `t(labelKey)` in the banner whenever an error of `kind` is shown. */
export function setErrorAction(kind, { labelKey, run }) {
  actions.set(kind, { labelKey, run });
}

/** Shows `err` ({code, kind, message, …} or an Error) in the #error banner. */
export function showError(err) {
  if (err?.code === 'cancelled') {
    showStatus(t('status.cancelled'));
    return;
  }
  if (!err?.code) console.error(err);
  shown = err;
  renderError(err);
}

function renderError(err) {
  const banner = $('#error');
  $('#error-title').textContent = t(ERROR_TITLES[err?.code] ?? 'error.internal');
  // The sentence often names a file: a long path wraps at its separators.
  setPathText($('#error-message'), errorMessage(err) || String(err ?? ''));
  banner.dataset.code = err?.code ?? 'internal';
  if (typeof err?.kind === 'string') banner.dataset.kind = err.kind;
  else delete banner.dataset.kind;
  const action = actions.get(err?.kind);
  const button = $('#error-action');
  button.hidden = !action;
  button.textContent = action ? t(action.labelKey) : '';
  banner.hidden = false;
}

export function clearError() {
  $('#error').hidden = true;
  shown = null;
}

/** A short polite notice that fades after a few seconds. */
export function showStatus(text) {
  const status = $('#status');
  setPathText(status, text);
  status.classList.add('visible');
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => status.classList.remove('visible'), 4000);
}
