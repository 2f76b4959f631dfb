// The four tabs (#tab-library, #tab-check, #tab-class, #tab-settings) and their panels (#view-…).

import { $ } from '../../dom.js';
import * as store from '../../store.js';

const TABS = ['library', 'check', 'class', 'settings'];

export function initTabs() {
  for (const name of TABS) {
    $(`#tab-${name}`).addEventListener('click', () => showTab(name));
  }
  // Arrow keys move along the tab list, as in the ARIA tabs pattern.
  $('#tabs').addEventListener('keydown', (event) => {
    const at = TABS.indexOf(store.get('tab'));
    let next = null;
    if (event.key === 'ArrowRight') next = TABS[(at + 1) % TABS.length];
    else if (event.key === 'ArrowLeft') next = TABS[(at + TABS.length - 1) % TABS.length];
    else if (event.key === 'Home') next = TABS[0];
    else if (event.key === 'End') next = TABS[TABS.length - 1];
    if (!next) return;
    event.preventDefault();
    showTab(next);
    $(`#tab-${next}`).focus();
  });
}

export function showTab(name) {
  for (const tab of TABS) {
    const selected = tab === name;
    const button = $(`#tab-${tab}`);
    button.setAttribute('aria-selected', String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`#view-${tab}`).hidden = !selected;
  }
  document.body.dataset.tab = name;
  if (store.get('tab') !== name) store.set('tab', name);
}

export function currentTab() {
  return store.get('tab');
}
