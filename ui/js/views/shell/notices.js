// The error banner (#error) and the short status line (#status).
//
// Errors from Rust arrive as {code, message}: the banner shows a title for the code and the message
// as Rust wrote it (it names the file and the cause). A cancelled task is not an error: it gets a
// status line instead.

import { $ } from '../../dom.js';
import { t } from '../../i18n.js';

const ERROR_TITLES = {
  bad_input: 'error.bad_input',
  library: 'error.library',
  not_found: 'error.not_found',
  internal: 'error.internal',
  unavailable: 'error.unavailable',
};

let statusTimer = 0;

export function initNotices() {
  $('#error-close').addEventListener('click', clearError);
}

/** Shows `err` ({code, message} or an Error) in the #error banner. */
export function showError(err) {
  if (err?.code === 'cancelled') {
    showStatus(t('status.cancelled'));
    return;
  }
  if (!err?.code) console.error(err);
  const banner = $('#error');
  $('#error-title').textContent = t(ERROR_TITLES[err?.code] ?? 'error.internal');
  $('#error-message').textContent = String(err?.message ?? err ?? '');
  banner.dataset.code = err?.code ?? 'internal';
  banner.hidden = false;
}

export function clearError() {
  $('#error').hidden = true;
}

/** A short polite notice that fades after a few seconds. */
export function showStatus(text) {
  const status = $('#status');
  status.textContent = text;
  status.classList.add('visible');
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => status.classList.remove('visible'), 4000);
}
