// Starts the interface: language, settings and library from Rust (updating a library made by an older
// Tongwen first), the four tabs, files dropped on the window (to the library on the Library tab,
// checked on the Check tab, compared with each other on the Class tab), and files the app is opened with
// (`tongwen-desktop FILE...`, "Open with Tongwen", also while the window is open: checked in turn).

import * as api from './api.js';
import { $ } from './dom.js';
import { applyI18n, detectLanguage, setLanguage, t } from './i18n.js';
import * as store from './store.js';
import { checkPaths, initCheckView, runDemo } from './views/check/check-view.js';
import { comparePaths, initClassView } from './views/class/class-view.js';
import { addPaths, initLibraryView, refreshLibrary } from './views/library/library-view.js';
import { initUpgrade, upgradeIfNeeded } from './views/library/upgrade.js';
import { initSettingsView } from './views/settings/settings-view.js';
import { initConfirm } from './views/shell/confirm.js';
import { initNotices, showError, showStatus } from './views/shell/notices.js';
import { initTabs, showTab } from './views/shell/tabs.js';
import { initProgress } from './views/shell/task.js';

/** Uses `preference` ("zh" | "en"), or the system's language when it is null. */
function applyLanguage(preference) {
  const lang = preference === 'zh' || preference === 'en' ? preference : detectLanguage();
  setLanguage(lang);
  applyI18n(document);
  store.set('lang', lang);
}

async function onSettingsSaved({ previous, stored }) {
  applyLanguage(stored.language);
  if (previous.library_path !== stored.library_path) {
    await upgradeIfNeeded(); // the library opened there may be an old one
    await refreshLibrary();
  }
}

function listenForDrops() {
  // Never let the web view navigate to a file dropped on it.
  for (const type of ['dragover', 'drop']) document.addEventListener(type, (event) => event.preventDefault());

  const overlay = $('#drop-overlay');
  const dropText = () => t(`drop.${store.get('tab')}`);
  api
    .onDragDrop(({ type, paths }) => {
      if (type === 'enter' || type === 'over') {
        if (overlay.hidden) {
          $('#drop-overlay-text').textContent = dropText();
          overlay.dataset.target = store.get('tab');
          overlay.hidden = false;
        }
      } else if (type === 'leave') {
        overlay.hidden = true;
      } else if (type === 'drop') {
        overlay.hidden = true;
        if (!paths.length) return;
        const tab = store.get('tab');
        if (tab === 'library') addPaths(paths);
        else if (tab === 'check') checkPaths(paths);
        else if (tab === 'class') comparePaths(paths);
        else showStatus(dropText());
      }
    })
    .catch(showError);
}

// Files the app was asked to open, checked on the Check tab once the task running now has finished.
let toOpen = [];

function openFiles(paths) {
  toOpen.push(...paths);
  openWaiting();
}

function openWaiting() {
  if (!toOpen.length || store.get('busy')) return;
  const paths = toOpen;
  toOpen = [];
  showTab('check');
  checkPaths(paths).catch(showError);
}

async function boot() {
  initNotices();
  initProgress();
  initConfirm();
  initTabs();
  applyLanguage(null); // until the settings arrive

  initLibraryView({ onDemo: () => runDemo({ refreshLibrary }) });
  initCheckView({ refreshLibrary });
  initClassView();
  initSettingsView({ onSaved: onSettingsSaved });
  initUpgrade({ after: () => refreshLibrary().catch(showError) });
  showTab('library');
  // The `tongwen` command may change the same library while the app is open: list it afresh whenever the
  // Library tab is shown again.
  store.on('tab', (tab) => {
    if (tab === 'library') refreshLibrary().catch(showError);
  });
  listenForDrops();
  store.on('busy', (busy) => {
    if (!busy) openWaiting();
  });
  const takeOpened = () => api.openedFiles().then(openFiles).catch(showError);
  api.onOpenFiles(takeOpened).catch(showError);

  let opened = false;
  try {
    const settings = await api.settingsGet();
    store.set('settings', settings);
    applyLanguage(settings.language);
    // The library was moved to the place the `tongwen` command uses: told once.
    if (settings.library_moved_from) {
      showStatus(t('status.libraryMoved', { from: settings.library_moved_from, to: settings.library_path }));
    }
    // A library made by an older Tongwen is updated now, with progress, before anything uses it.
    await upgradeIfNeeded();
    // The files the app was started with are checked while the library is listed (a large library's
    // list takes a while to show, and the check does not need it).
    opened = true;
    takeOpened();
    await refreshLibrary();
  } catch (err) {
    showError(err);
  } finally {
    // For the end-to-end tests: the first library list has been shown (or the error).
    document.body.classList.add('loaded');
  }
  // Checked even when the settings or the library could not be read (the check then says why).
  if (!opened) takeOpened();
}

boot();
