// Long work (adding documents, checking, the demo, updating an old library) runs one task at a time
// behind the #progress bar, which has a Cancel button that asks Rust to stop.

import * as api from '../../api.js';
import { $ } from '../../dom.js';
import * as fmt from '../../format.js';
import { t } from '../../i18n.js';
import * as store from '../../store.js';
import { showError, showStatus } from './notices.js';

let current = null; // {labelKey, labelParams, done, total, path} of the running task

export function initProgress() {
  $('#progress-cancel').addEventListener('click', async () => {
    if (!current) return;
    const button = $('#progress-cancel');
    button.disabled = true;
    button.textContent = t('progress.cancelling');
    try {
      await api.cancel();
    } catch (err) {
      showError(err);
    }
  });
  store.on('lang', render);
}

/**
 * Runs `work(onProgress)` with the progress bar shown, labelled `t(labelKey, labelParams)` (the label
 * also gets `total`, the count of the latest progress message). Returns what `work` resolved to, or
 * null when another task is running or the work failed (the error is then already shown).
 */
export async function runTask(labelKey, work, labelParams = {}) {
  if (current) {
    showStatus(t('status.busy'));
    return null;
  }
  const task = { labelKey, labelParams, done: 0, total: 0, path: '' };
  current = task;
  const cancel = $('#progress-cancel');
  cancel.disabled = false;
  cancel.textContent = t('progress.cancel');
  $('#progress').hidden = false;
  store.set('busy', true);
  render();
  try {
    return await work((message) => {
      // Late messages of a finished task must not move the bar of the next one.
      if (current !== task || !message) return;
      task.done = Number(message.done) || 0;
      task.total = Number(message.total) || 0;
      task.path = String(message.path ?? '');
      render();
    });
  } catch (err) {
    showError(err);
    return null;
  } finally {
    current = null;
    $('#progress').hidden = true;
    store.set('busy', false);
  }
}

function render() {
  if (!current) return;
  // A div rather than <progress>: it looks the same in every web view Tauri uses.
  const bar = $('#progress-bar');
  if (current.total > 0) {
    const done = Math.min(current.done, current.total);
    bar.classList.remove('indeterminate');
    bar.setAttribute('aria-valuemax', String(current.total));
    bar.setAttribute('aria-valuenow', String(done));
    $('#progress-fill').style.width = `${((done / current.total) * 100).toFixed(2)}%`;
    $('#progress-count').textContent = t('progress.count', {
      done: fmt.integer(current.done),
      total: fmt.integer(current.total),
    });
  } else {
    bar.classList.add('indeterminate'); // until the first message
    bar.removeAttribute('aria-valuenow');
    bar.removeAttribute('aria-valuemax');
    $('#progress-fill').style.width = '';
    $('#progress-count').textContent = '';
  }
  $('#progress-label').textContent = t(current.labelKey, { ...current.labelParams, total: current.total });
  const path = $('#progress-path');
  path.textContent = current.path ? fmt.basename(current.path) : '';
  path.title = current.path;
  if (!$('#progress-cancel').disabled) $('#progress-cancel').textContent = t('progress.cancel');
}
