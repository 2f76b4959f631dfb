// The Settings tab: where the library lives (a file here, or a school's shared library on a PostgreSQL
// server), the default threshold for new checks, whether checks
// look for copies by translation (Chinese ↔ English), and the interface language (中文 / English /
// follow the system).

import * as api from '../../api.js';
import { $ } from '../../dom.js';
import * as fmt from '../../format.js';
import { t } from '../../i18n.js';
import * as store from '../../store.js';
import { showError, showStatus } from '../shell/notices.js';

// What a library file is called (library.sqlite by default).
const LIBRARY_EXTENSIONS = ['sqlite', 'sqlite3', 'db'];

export function initSettingsView({ onSaved }) {
  $('#settings-threshold').addEventListener('input', (event) => {
    $('#settings-threshold-value').textContent = fmt.percent(Number(event.target.value), 0);
  });
  $('#settings-library-browse').addEventListener('click', browseLibrary);
  for (const radio of document.querySelectorAll('input[name="library-kind"]')) {
    radio.addEventListener('change', showLibraryKind);
  }
  $('#settings-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    await save(onSaved);
  });
  store.on('settings', render);
  store.on('busy', (busy) => {
    $('#settings-save').disabled = busy;
  });
  render();
}

/** Shows the stored settings in the form (discarding unsaved edits). */
function render() {
  const settings = store.get('settings');
  if (!settings) return;
  $('#settings-language').value = settings.language ?? '';
  $('#settings-threshold').value = String(settings.threshold ?? 0.3);
  $('#settings-threshold-value').textContent = fmt.percent(Number(settings.threshold ?? 0.3), 0);
  // On unless turned off (settings saved before the option existed have no `translation`).
  $('#settings-translation').checked = settings.translation !== false;
  const location = settings.library_path ?? '';
  const shared = isServerAddress(location);
  $('#settings-library-shared').checked = shared;
  $('#settings-library-local').checked = !shared;
  // The other kind's field keeps what was typed there in this session.
  if (shared) {
    $('#settings-library-address').value = location;
  } else {
    $('#settings-library-path').value = location;
  }
  showLibraryKind();
}

/** A shared library's address rather than a file (as the engine tells them apart). */
function isServerAddress(location) {
  return /^postgres(ql)?:\/\//.test(location);
}

function showLibraryKind() {
  const shared = $('#settings-library-shared').checked;
  $('#settings-local-field').hidden = shared;
  $('#settings-shared-field').hidden = !shared;
}

/** The library is a file: the open dialog chooses an existing one (a new library: type its path). */
async function browseLibrary() {
  const input = $('#settings-library-path');
  try {
    const [file] = await api.pickPaths({
      directory: false,
      multiple: false,
      title: t('dialog.chooseLibraryFile'),
      filters: [{ name: t('dialog.libraryFiles'), extensions: LIBRARY_EXTENSIONS }],
      defaultPath: fmt.dirname(input.value) || undefined,
    });
    if (!file) return;
    input.value = file;
    input.focus();
  } catch (err) {
    showError(err);
  }
}

async function save(onSaved) {
  const previous = store.get('settings') ?? {};
  const shared = $('#settings-library-shared').checked;
  const field = shared ? $('#settings-library-address') : $('#settings-library-path');
  const libraryPath = field.value.trim();
  if (!libraryPath || shared !== isServerAddress(libraryPath)) {
    showError({ code: 'bad_input', message: t(shared ? 'settings.addressRequired' : 'settings.pathRequired') });
    field.focus();
    return;
  }
  const threshold = Math.max(0, Math.min(1, Number($('#settings-threshold').value)));
  const language = $('#settings-language').value || null;
  const translation = $('#settings-translation').checked;
  const button = $('#settings-save');
  button.disabled = true;
  try {
    const stored = await api.settingsSet({ ...previous, library_path: libraryPath, threshold, language, translation });
    store.set('settings', stored);
    await onSaved({ previous, stored });
    showStatus(t('status.settingsSaved'));
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = store.get('busy');
  }
}
