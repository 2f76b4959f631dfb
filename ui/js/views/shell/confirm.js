// An in-page confirmation dialog (#confirm). The web view's own window.confirm is not dependable in
// every Tauri web view, and an element can be driven by the end-to-end tests.

import { $ } from '../../dom.js';
import { t } from '../../i18n.js';

let resolvePending = null;

export function initConfirm() {
  const dialog = $('#confirm');
  $('#confirm-ok').addEventListener('click', () => finish(true));
  $('#confirm-cancel').addEventListener('click', () => finish(false));
  // Esc on a modal <dialog> fires "cancel" and closes it.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    finish(false);
  });
}

/** Resolves to true when the user confirms. */
export function confirmDialog({ title, message, ok }) {
  finish(false); // at most one question at a time
  const dialog = $('#confirm');
  $('#confirm-title').textContent = title;
  $('#confirm-message').textContent = message;
  $('#confirm-ok').textContent = ok ?? t('action.ok');
  $('#confirm-cancel').textContent = t('action.cancel');
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  $('#confirm-cancel').focus();
  return new Promise((resolve) => {
    resolvePending = resolve;
  });
}

export function confirmOpen() {
  return $('#confirm').hasAttribute('open');
}

function finish(answer) {
  const dialog = $('#confirm');
  if (dialog.hasAttribute('open')) {
    if (typeof dialog.close === 'function') dialog.close();
    else dialog.removeAttribute('open');
  }
  const resolve = resolvePending;
  resolvePending = null;
  resolve?.(answer);
}
